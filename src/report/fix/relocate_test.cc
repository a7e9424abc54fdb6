#include "report/fix/relocate.h"

#include <gtest/gtest.h>

namespace footprint {
namespace {

Bundle bundle_with_text(std::string text) {
  LoadOptions options;
  options.keep_texts = true;
  auto loaded = load_texts({{"in.yaml", std::move(text)}}, options);
  EXPECT_TRUE(loaded.has_value());
  return build_bundle(std::move(*loaded), BundleOptions{});
}

RelocateOptions to(std::string_view registry, bool include_possible = false) {
  return RelocateOptions{*parse_registry_prefix(registry), include_possible};
}

// Field groups are rewritten field by field, so the operator still composes a valid reference:
// NVIDIA's {repository, image, version} gets a new repository; {registry, repository, tag} gets a
// new registry, and a Docker Hub repository gains its library/ path.
TEST(Relocate, FieldGroupsGetNewRegistryOrRepository) {
  Bundle b = bundle_with_text(R"(apiVersion: nvidia.com/v1
kind: ClusterPolicy
metadata: {name: cluster-policy}
spec:
  driver:
    repository: nvcr.io/nvidia   # NGC
    image: driver
    version: "550.54.15"
  exporter:
    registry: docker.io
    repository: redis
    tag: "7.2"
  toolkit: {repository: 'nvcr.io/nvidia/k8s', image: container-toolkit, version: v1.17.0}
  note: {watch-label: app.kubernetes.io/name}
)");
  ImageInventory inv = discover_images(b);
  auto r = relocate(b, inv, to("mirror.internal:5000/team"));
  ASSERT_TRUE(r.has_value()) << r.error();
  EXPECT_EQ(r->texts[0], R"(apiVersion: nvidia.com/v1
kind: ClusterPolicy
metadata: {name: cluster-policy}
spec:
  driver:
    repository: mirror.internal:5000/team/nvidia   # NGC
    image: driver
    version: "550.54.15"
  exporter:
    registry: mirror.internal:5000/team
    repository: library/redis
    tag: "7.2"
  toolkit: {repository: 'mirror.internal:5000/team/nvidia/k8s', image: container-toolkit, version: v1.17.0}
  note: {watch-label: app.kubernetes.io/name}
)");
  ASSERT_EQ(r->copies.size(), 3u);
  EXPECT_EQ(r->copies[1].source, "docker.io/library/redis:7.2");
  EXPECT_EQ(r->copies[1].destination, "mirror.internal:5000/team/library/redis:7.2");
  EXPECT_EQ(r->rewritten, 3u);
}

// A reference is replaced where it stands alone, not inside a longer one.
TEST(Relocate, OnlyWholeReferencesAreReplaced) {
  Bundle b = bundle_with_text(R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: a
    image: quay.io/x/app:1
    args: ["--sidecar-image=quay.io/x/app:1.2", "--image=quay.io/x/app:1", "--label=example.com/x"]
)");
  ImageInventory inv = discover_images(b);
  auto r = relocate(b, inv, to("localhost:5000"));
  ASSERT_TRUE(r.has_value()) << r.error();
  EXPECT_NE(r->texts[0].find("image: localhost:5000/x/app:1\n"), std::string::npos);
  EXPECT_NE(
      r->texts[0].find(
          R"(["--sidecar-image=localhost:5000/x/app:1.2", "--image=localhost:5000/x/app:1", "--label=example.com/x"])"),
      std::string::npos)
      << r->texts[0];
  // example.com/x only reads as an image (a --label flag names no image): listed, not moved.
  ASSERT_EQ(r->left_unchanged.size(), 1u);
  EXPECT_NE(r->left_unchanged[0].find("example.com/x"), std::string::npos) << r->left_unchanged[0];

  auto with_possible = relocate(b, inv, to("localhost:5000", true));
  ASSERT_TRUE(with_possible.has_value());
  EXPECT_NE(with_possible->texts[0].find("--label=localhost:5000/x"), std::string::npos);
}

TEST(Relocate, DigestOnlyReferencesCopyByDigest) {
  const std::string digest =
      "sha256:5555555555555555555555555555555555555555555555555555555555555555";
  Bundle b = bundle_with_text(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
      "  - {name: a, image: \"ghcr.io/o/a@" +
      digest + "\"}\n");
  auto r = relocate(b, discover_images(b), to("localhost:5000"));
  ASSERT_TRUE(r.has_value()) << r.error();
  ASSERT_EQ(r->copies.size(), 1u);
  EXPECT_EQ(r->copies[0].source, "ghcr.io/o/a@" + digest);
  EXPECT_EQ(r->copies[0].destination, "localhost:5000/o/a@" + digest);
  EXPECT_EQ(relocated_reference(*parse_image_ref("ghcr.io/o/a:v1@" + digest),
                                *parse_registry_prefix("localhost:5000/m")),
            "localhost:5000/m/o/a:v1@" + digest);
}

// A reference already under the mirror's host and prefix stays as written and is not copied,
// including a field group whose registry field is the mirror (a chart given the mirror as its
// global registry): a second relocation of the output changes nothing.
TEST(Relocate, ReferencesOnTheMirrorStay) {
  const std::string text = R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - {name: a, image: mirror.internal:5000/team/org/a:1}
  - {name: b, image: quay.io/org/b:2}
---
apiVersion: example.com/v1
kind: Agent
metadata: {name: x}
spec:
  image: {registry: mirror.internal:5000/team, repository: org/c, tag: "3"}
)";
  Bundle b = bundle_with_text(text);
  auto r = relocate(b, discover_images(b), to("mirror.internal:5000/team"));
  ASSERT_TRUE(r.has_value()) << r.error();
  EXPECT_EQ(r->rewritten, 1u);
  ASSERT_EQ(r->copies.size(), 1u);
  EXPECT_EQ(r->copies[0].source, "quay.io/org/b:2");
  EXPECT_EQ(r->copies[0].destination, "mirror.internal:5000/team/org/b:2");
  EXPECT_EQ(r->already_on_mirror.size(), 2u);

  Bundle again = bundle_with_text(r->texts[0]);
  auto second = relocate(again, discover_images(again), to("mirror.internal:5000/team"));
  ASSERT_TRUE(second.has_value()) << second.error();
  EXPECT_EQ(second->texts[0], r->texts[0]);
  EXPECT_TRUE(second->copies.empty());
  EXPECT_EQ(second->rewritten, 0u);
}

}  // namespace
}  // namespace footprint
