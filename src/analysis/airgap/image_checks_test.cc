// image-mutable-tag on values that are not image references as written (issue 31).
#include <gtest/gtest.h>

#include "analysis/check_testing.h"
#include "analysis/context.h"
#include "model/units.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

// linkerd-config keeps `controllerImage: cr.l5d.io/linkerd/controller` beside
// `controllerImageVersion`, and the operator joins the two: the value alone is a repository name
// nobody pulls as written, so it is no moving tag. The same name in a container is pulled as
// :latest (a reference without a tag means latest to the container runtime, and
// SetDefaults_Container in pkg/apis/core/v1/defaults.go makes its pull policy Always): still
// reported. A tagged :latest in the ConfigMap is a reference as written: still reported.
TEST(ImageMutableTag, RepositoryNamesInConfigMapsAreNotMovingTags) {
  std::string config = R"(
apiVersion: v1
kind: ConfigMap
metadata: {name: linkerd-config, namespace: linkerd}
data:
  values: |
    controllerImage: cr.l5d.io/linkerd/controller
    controllerImageVersion: ""
)";
  EXPECT_TRUE(run_check(bundle_from(config), "image-mutable-tag").empty());
  std::string pod = config + R"(---
apiVersion: v1
kind: Pod
metadata: {name: controller, namespace: linkerd}
spec:
  containers: [{name: c, image: cr.l5d.io/linkerd/controller}]
)";
  EXPECT_EQ(run_check(bundle_from(pod), "image-mutable-tag").size(), 1u);
  std::string tagged = config;
  tagged.replace(tagged.find("linkerd/controller\n"), 19, "linkerd/controller:latest\n");
  EXPECT_EQ(run_check(bundle_from(tagged), "image-mutable-tag").size(), 1u);
}

TEST(ImageChecks, NotPinnedAndMutableTagsDoNotOverlap) {
  Bundle b = bundle_from(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - {name: a, image: nginx}
  - {name: b, image: "nginx:1.25"}
  - {name: c, image: "quay.io/x/y:main"}
  - {name: d, image: "quay.io/x/z:latest@sha256:3333333333333333333333333333333333333333333333333333333333333333"}
  - {name: e, image: "nginx:1.25"}
)");
  auto not_pinned = run_check(b, "image-not-pinned");
  ASSERT_EQ(not_pinned.size(), 1u);  // nginx:1.25, once per object
  EXPECT_NE(not_pinned[0].message.find("nginx:1.25"), std::string::npos);
  EXPECT_EQ(not_pinned[0].position.line, 7u);
  auto mutable_tags = run_check(b, "image-mutable-tag");
  ASSERT_EQ(mutable_tags.size(), 2u);
  EXPECT_NE(mutable_tags[0].message.find(":latest is implied"), std::string::npos);
  EXPECT_NE(mutable_tags[1].message.find("the tag :main"), std::string::npos);
}

// A tag is only a name (distribution/reference: [\w][\w.-]{0,127}); nothing makes it stable.
// "alpine" or "bookworm-slim" names no version, so it follows every release of its base, as
// latest does (redis:alpine moved from Alpine 3.18 to 3.19 and Redis 7.2 to 7.4); a tag with a
// version number is taken as a release.
TEST(ImageChecks, TagsWithoutADigitAreMutable) {
  for (const char* tag : {"alpine", "bookworm-slim", "slim", "LATEST", "main-latest"})
    EXPECT_TRUE(is_mutable_tag(tag)) << tag;
  for (const char* tag : {"7.2-alpine", "v1", "1.25", "2024-01-15", "sha-3f2a9c1"})
    EXPECT_FALSE(is_mutable_tag(tag)) << tag;
  Bundle b = bundle_from(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - {name: a, image: "redis:alpine"}
  - {name: b, image: "redis:7.2-alpine"}
)");
  auto mutable_tags = run_check(b, "image-mutable-tag");
  ASSERT_EQ(mutable_tags.size(), 1u);
  EXPECT_NE(mutable_tags[0].message.find("redis:alpine"), std::string::npos);
  auto not_pinned = run_check(b, "image-not-pinned");
  ASSERT_EQ(not_pinned.size(), 1u);
  EXPECT_NE(not_pinned[0].message.find("redis:7.2-alpine"), std::string::npos);
}

// kubernetes.io/blog/2023/03/10/image-registry-redirect: k8s.gcr.io is redirected to
// registry.k8s.io and frozen from 3 April 2023; the same images live under the new name.
TEST(ImageChecks, FrozenRegistryNamesItsSuccessor) {
  Bundle b = bundle_from(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - {name: a, image: "k8s.gcr.io/pause:3.9"}
  - {name: b, image: "registry.k8s.io/pause:3.9"}
  - {name: c, image: "gcr.io/k8s-staging/x:1"}
)");
  auto frozen = run_check(b, "image-registry-frozen");
  ASSERT_EQ(frozen.size(), 1u);
  EXPECT_EQ(frozen[0].severity, Severity::kMedium);
  EXPECT_EQ(frozen[0].position.line, 6u);
  EXPECT_NE(frozen[0].remediation.find("registry.k8s.io/pause:3.9"), std::string::npos)
      << frozen[0].remediation;
}

// Digests follow the OCI image spec (descriptor.md, "Digests"): sha256 is 64 and sha512 128
// lowercase hex characters, and only registered algorithms are accepted (opencontainers/
// go-digest, Digest.Validate). The kubelet refuses any other reference (InvalidImageName), so
// the pod never starts, and a malformed digest is no pin.
TEST(ImageChecks, MalformedDigestsAreInvalidNotPinned) {
  const std::string hex64(64, 'a');
  Bundle b = bundle_from(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - {name: short, image: "nginx@sha256:abc123"}
  - {name: upper, image: "nginx@sha256:)" +
                         std::string(64, 'A') + R"("}
  - {name: sha512, image: "nginx@sha512:)" +
                         hex64 + R"("}
  - {name: md5, image: "nginx@md5:)" +
                         hex64 + R"("}
  - {name: good, image: "nginx@sha256:)" +
                         hex64 + R"("}
  - {name: good512, image: "nginx@sha512:)" +
                         std::string(128, 'b') + R"("}
)");
  auto invalid = run_check(b, "image-reference-invalid");
  ASSERT_EQ(invalid.size(), 4u);
  for (size_t i = 0; i < invalid.size(); ++i) {
    EXPECT_EQ(invalid[i].severity, Severity::kHigh);
    EXPECT_EQ(invalid[i].position.line, 6u + i);
  }
  // The grammar's digest needs at least 32 hex digits (reference/regexp.go, digestPat), so six
  // fail before the length check.
  EXPECT_NE(invalid[0].message.find("invalid reference format"), std::string::npos)
      << invalid[0].message;
  EXPECT_NE(invalid[1].message.find("digest format"), std::string::npos) << invalid[1].message;
  EXPECT_NE(invalid[2].message.find("digest length"), std::string::npos) << invalid[2].message;
  EXPECT_NE(invalid[3].message.find("unsupported digest algorithm"), std::string::npos)
      << invalid[3].message;
  // Only the two valid digests are pins: nothing is reported as pinned-but-mutable or unpinned
  // for them, and the invalid ones are not counted as images at all.
  EXPECT_TRUE(run_check(b, "image-not-pinned").empty());
  EXPECT_TRUE(run_check(b, "image-mutable-tag").empty());
}

// By shape: "1.x" is a range (npm-style), which its publisher moves to every 1.y release, though
// it has a digit. "linux" or "box" names a variant, not a version: the repository's own name
// decides ("python3.12:slim" asks for that version's variant; "busybox:box" for whatever is
// current).
TEST(ImageChecks, MutableTagsByVersionShape) {
  for (const char* tag : {"1.x", "v2.x.x", "1.*", "1.X"})
    EXPECT_TRUE(is_mutable_tag(tag)) << tag;
  for (const char* tag : {"1.2.3", "x86_64-1.2", "v1.2-linux", "1.2.x86"})
    EXPECT_FALSE(is_mutable_tag(tag)) << tag;
  EXPECT_TRUE(is_variant_tag("linux"));
  EXPECT_TRUE(is_variant_tag("box"));
  EXPECT_FALSE(is_variant_tag("latest"));
  EXPECT_FALSE(is_variant_tag("1.x"));
  EXPECT_FALSE(moves(*parse_image_ref("docker.io/library/python3.12:slim")));
  EXPECT_FALSE(moves(*parse_image_ref("quay.io/team/agent-v2:linux")));
  EXPECT_TRUE(moves(*parse_image_ref("docker.io/library/busybox:box")));
  EXPECT_TRUE(moves(*parse_image_ref("quay.io/team/agent:1.x")));
  EXPECT_TRUE(moves(*parse_image_ref("quay.io/team/agent-v2:latest")));
  EXPECT_FALSE(moves(*parse_image_ref("quay.io/team/agent:1.4.2")));
}

TEST(ImageChecks, MutableTagMessageFollowsThePullPolicy) {
  Bundle b = bundle_from(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - {name: a, image: "quay.io/x/main:main"}
  - {name: b, image: "quay.io/x/latest:latest"}
  - {name: c, image: "quay.io/x/pinned:latest", imagePullPolicy: IfNotPresent}
)");
  auto findings = run_check(b, "image-mutable-tag");
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_NE(findings[0].message.find("imagePullPolicy IfNotPresent (the default for a tag other "
                                     "than :latest)"),
            std::string::npos);
  EXPECT_EQ(findings[0].message.find("Always"), std::string::npos);
  EXPECT_NE(findings[1].message.find("imagePullPolicy Always (the default for :latest)"),
            std::string::npos);
  EXPECT_NE(findings[2].message.find("imagePullPolicy IfNotPresent (set in the container)"),
            std::string::npos);
}

// A container's image is a Go string (core/v1 Container.Image), so the API server's JSON decoder
// refuses `image: 12345`; a tag is at most 128 characters (distribution/reference's grammar,
// [\w][\w.-]{0,127}). A quoted "12345" is the Docker Hub image library/12345.
TEST(ImageChecks, InvalidReferencesAndNonStringImagesAreFindings) {
  Bundle b = bundle_from(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - {name: a, image: 12345}
  - {name: b, image: "12345"}
  - {name: c, image: "nginx:)" +
                         std::string(129, 't') + R"("}
  - {name: d, image: "nginx:)" +
                         std::string(128, 't') + R"("}
  - {name: e, image: true}
)");
  auto findings = run_check(b, "image-reference-invalid");
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_EQ(findings[0].position.line, 6u);
  EXPECT_NE(findings[0].message.find("a YAML int, not a string"), std::string::npos);
  EXPECT_EQ(findings[1].position.line, 8u);
  EXPECT_NE(findings[1].message.find("the tag has 129 characters, more than 128"),
            std::string::npos);
  EXPECT_EQ(findings[2].position.line, 10u);
  EXPECT_NE(findings[2].message.find("a YAML bool"), std::string::npos);
}

// 10,203,035,478 bytes at 15 MB/s is 680 s: the seed's "about 11 minutes".
TEST(ImageChecks, VeryLargeNeedsSizesAndUsesTheLimits) {
  PullLimits limits;
  EXPECT_EQ(limits.large_bytes, 2147483648u);
  auto large = large_image(10'203'035'478u, limits);
  ASSERT_TRUE(large.has_value());
  EXPECT_NEAR(large->pull_seconds, 680.2, 0.1);
  EXPECT_EQ(format_duration(large->pull_seconds), "11 min 20 s");
  EXPECT_FALSE(large_image(94'673'132u, limits).has_value());
  EXPECT_FALSE(large_image(limits.large_bytes, limits).has_value());  // over, not at
  EXPECT_TRUE(large_image(limits.large_bytes + 1, limits).has_value());

  Bundle b = bundle_from(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - {name: a, image: "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2"}
  - {name: b, image: "nvcr.io/nvidia/ai-dynamo/kubernetes-operator:1.6.2"}
)");
  EXPECT_TRUE(run_check(b, "image-very-large").empty());  // no sizes: nothing to judge
  ImageSizes sizes;
  sizes.bytes["nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2"] = 10'203'035'478u;
  sizes.bytes["nvcr.io/nvidia/ai-dynamo/kubernetes-operator:1.6.2"] = 94'673'132u;
  Context context(b);
  context.image_sizes = &sizes;
  Findings out(b);
  out.set_check("image-very-large", Impact::kOtherTeams);
  find_check("image-very-large")->run(context, out);
  ASSERT_EQ(out.list().size(), 1u);
  EXPECT_NE(out.list()[0].message.find("10.2 GB (10,203,035,478 bytes)"), std::string::npos);
  EXPECT_NE(out.list()[0].message.find("about 11 min 20 s"), std::string::npos);
  EXPECT_NE(out.list()[0].remediation.find("outside deployment windows"), std::string::npos);

  sizes.limits.bytes_per_second = 100e6;  // 100 MB/s
  sizes.limits.large_bytes = 50'000'000;
  Findings faster(b);
  find_check("image-very-large")->run(context, faster);
  ASSERT_EQ(faster.list().size(), 2u);
  EXPECT_NE(faster.list()[0].message.find("about 1 min 42 s"), std::string::npos);
}

// linkerd's chart sources write `linkerdVersion: linkerdVersionValue`, and the project's release
// replaces the word with the version; rendered from source, the pods name
// cr.l5d.io/linkerd/controller:linkerdVersionValue, a tag no registry has (cr.l5d.io publishes
// edge-YY.M.N and stable-X.Y.Z tags), so the kubelet's pull fails (ErrImagePull). That is a
// broken install, not a moving tag nor an unpinned one.
TEST(ImageChecks, PlaceholderTagsAreUnrenderedNotMoving) {
  for (const char* tag : {"linkerdVersionValue", "VERSION", "IMAGE_TAG", "__TAG__", "imageTag",
                          "REPLACE_ME", "placeholder"})
    EXPECT_TRUE(is_placeholder_tag(tag)) << tag;
  for (const char* tag : {"latest", "LATEST", "main", "alpine", "v1.2.3", "stable-2.14.10",
                          "edge-24.8.2", "bookworm-slim", "linux"})
    EXPECT_FALSE(is_placeholder_tag(tag)) << tag;
  Bundle b = bundle_from(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: linkerd-destination, namespace: linkerd}
spec:
  selector: {matchLabels: {app: d}}
  template:
    metadata: {labels: {app: d}}
    spec:
      containers:
      - {name: destination, image: "cr.l5d.io/linkerd/controller:linkerdVersionValue"}
      - {name: proxy, image: "cr.l5d.io/linkerd/proxy:linkerdVersionValue"}
)");
  auto unrendered = run_check(b, "image-tag-unrendered");
  ASSERT_EQ(unrendered.size(), 2u);
  EXPECT_EQ(unrendered[0].severity, Severity::kHigh);
  EXPECT_TRUE(testing::says(unrendered[0], "the reference is not rendered, so the pull fails"));
  EXPECT_TRUE(run_check(b, "image-mutable-tag").empty());
  EXPECT_TRUE(run_check(b, "image-not-pinned").empty());
}

// Several images referenced by tag only are one cause with one fix (pin digests): one finding for
// the bundle lists them all, whatever workloads use them.
TEST(ImageChecks, NotPinnedIsOneFindingListingTheImages) {
  Bundle b = bundle_from(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - {name: a, image: "nginx:1.25"}
  - {name: b, image: "quay.io/x/y:2.0"}
---
apiVersion: v1
kind: Pod
metadata: {name: q}
spec:
  containers: [{name: c, image: "quay.io/x/z:3.1"}]
)");
  auto not_pinned = run_check(b, "image-not-pinned");
  ASSERT_EQ(not_pinned.size(), 1u);
  EXPECT_EQ(testing::affects(not_pinned[0], "images"),
            (std::vector<std::string>{"nginx:1.25", "quay.io/x/y:2.0", "quay.io/x/z:3.1"}));
  EXPECT_TRUE(testing::says(not_pinned[0], "3 images are referenced by tag only"));
  EXPECT_TRUE(testing::says(not_pinned[0], "quay.io/x/z:3.1 (Pod default/q)"));
}

}  // namespace
}  // namespace footprint
