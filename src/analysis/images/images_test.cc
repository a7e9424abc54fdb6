#include "analysis/images/images.h"

#include <gtest/gtest.h>

#include "analysis/check_testing.h"
#include "analysis/context.h"
#include "load/loader.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

const ImageUse* find_use(const ImageInventory& inv, std::string_view written) {
  for (const ImageUse& u : inv.uses) {
    if (u.written == written) return &u;
  }
  return nullptr;
}

std::vector<std::string> written(const ImageInventory& inv) {
  std::vector<std::string> out;
  for (const ImageUse& u : inv.uses)
    out.push_back(u.written);
  return out;
}

// A CronJob nests its pod spec three levels deep; init and ephemeral containers count too.
TEST(Images, PodSpecsAreFoundByShapeInAnyKind) {
  Bundle b = bundle_from(R"(apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: ops}
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          initContainers:
          - {name: init, image: "busybox:1.36"}
          containers:
          - name: main
            image: registry.example.com/ops/backup:2.1@sha256:0000000000000000000000000000000000000000000000000000000000000000
          ephemeralContainers:
          - {name: debug, image: nicolaka/netshoot}
---
apiVersion: example.com/v1
kind: InferenceWorker
metadata: {name: w}
spec:
  podTemplate:
    spec:
      containers:
      - name: worker
        image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2
)");
  ImageInventory inv = discover_images(b);
  ASSERT_EQ(inv.uses.size(), 4u);
  EXPECT_EQ(inv.uses[0].written, "busybox:1.36");
  EXPECT_EQ(inv.uses[0].source, "initContainer");
  EXPECT_EQ(inv.uses[0].path, "spec.jobTemplate.spec.template.spec.initContainers[0].image");
  EXPECT_EQ(inv.uses[0].position.line, 11u);
  EXPECT_EQ(inv.uses[1].source, "container");
  EXPECT_TRUE(inv.uses[1].ref->pinned());
  EXPECT_EQ(inv.uses[2].source, "ephemeralContainer");
  EXPECT_EQ(inv.uses[2].ref->normalized(), "docker.io/nicolaka/netshoot:latest");
  EXPECT_EQ(inv.uses[3].object, 1u);  // the custom resource
  EXPECT_EQ(inv.uses[3].confidence, Confidence::kCertain);
  EXPECT_EQ(inv.uses[3].path, "spec.podTemplate.spec.containers[0].image");
  EXPECT_EQ(inv.images.size(), 4u);
}

// Flags and variables: only values with a registry domain, or a name that says image with a
// tag; a bare domain-and-path under an unrelated name is only "possible".
TEST(Images, ArgsCommandAndEnv) {
  Bundle b = bundle_from(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: op}
spec:
  template:
    spec:
      containers:
      - name: manager
        image: quay.io/example/operator:v1
        command: ["/manager", "--config-reloader-image", "quay.io/example/reloader:v0.9"]
        args:
        - --operator-image=nvcr.io/nvidia/ai-dynamo/kubernetes-operator:1.6.2
        - --metrics-bind-address=127.0.0.1:8080
        - --leader-elect
        - --ranges=10.0.0.0/8,192.168.0.0/16
        - --watch-label=app.kubernetes.io/name
        - sh -c "exec agent --sidecar=ghcr.io/example/sidecar:3.2"
        env:
        - {name: RELATED_IMAGE_EXPORTER, value: "quay.io/example/exporter@sha256:1111111111111111111111111111111111111111111111111111111111111111"}
        - {name: WEBHOOK_IMAGE, value: "bitnami/kubectl:1.30"}
        - {name: LOG_LEVEL, value: debug}
        - {name: UPSTREAM, value: "mirror.example.com/team"}
)");
  ImageInventory inv = discover_images(b);
  EXPECT_EQ(written(inv), (std::vector<std::string>{
                              "quay.io/example/operator:v1", "quay.io/example/reloader:v0.9",
                              "nvcr.io/nvidia/ai-dynamo/kubernetes-operator:1.6.2",
                              "app.kubernetes.io/name", "ghcr.io/example/sidecar:3.2",
                              "quay.io/example/exporter@sha256:" + std::string(64, '1'),
                              "bitnami/kubectl:1.30", "mirror.example.com/team"}));
  const ImageUse* reloader = find_use(inv, "quay.io/example/reloader:v0.9");
  EXPECT_EQ(reloader->path, "spec.template.spec.containers[0].command[2]");
  EXPECT_EQ(reloader->confidence, Confidence::kLikely);
  EXPECT_EQ(find_use(inv, "app.kubernetes.io/name")->confidence, Confidence::kPossible);
  EXPECT_EQ(find_use(inv, "ghcr.io/example/sidecar:3.2")->path,
            "spec.template.spec.containers[0].args[5]");
  const ImageUse* exporter = find_use(inv, inv.uses[5].written);
  EXPECT_EQ(exporter->source, "env");
  EXPECT_EQ(exporter->path, "spec.template.spec.containers[0].env[0].value");
  // No registry domain, but the variable's name says image and a tag is written.
  EXPECT_EQ(find_use(inv, "bitnami/kubectl:1.30")->confidence, Confidence::kLikely);
  EXPECT_EQ(find_use(inv, "mirror.example.com/team")->confidence, Confidence::kPossible);
}

// The seed's case: the runtime image lives in the custom resource, not in the chart. Keys named
// image or ending in Image, and field groups in the three common layouts.
TEST(Images, KeysAndFieldGroupsInCustomResources) {
  Bundle b = bundle_from(R"(apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata: {name: qwen}
spec:
  services:
    VllmWorker:
      extraPodSpec:
        mainContainer:
          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2
      sidecarImage: "ghcr.io/example/sidecar:1"
  driver:
    repository: nvcr.io/nvidia
    image: driver
    version: "550.54.15"
  exporter:
    registry: docker.io
    repository: bitnami/redis-exporter
    tag: 1.58.0
  agent:
    image: quay.io/example/agent
    tag: v2
  toolkit:
    enabled: false
    repository: nvcr.io/nvidia/k8s
    image: container-toolkit
    version: sha256:2222222222222222222222222222222222222222222222222222222222222222
  vgpu:
    image: vgpu-manager
    repository: ""
  mode: {image: disabled}
)");
  ImageInventory inv = discover_images(b);
  EXPECT_EQ(written(inv), (std::vector<std::string>{
                              "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2",
                              "ghcr.io/example/sidecar:1", "nvcr.io/nvidia/driver:550.54.15",
                              "docker.io/bitnami/redis-exporter:1.58.0", "quay.io/example/agent:v2",
                              "nvcr.io/nvidia/k8s/container-toolkit@sha256:" + std::string(64, '2'),
                              "disabled"}));
  EXPECT_EQ(inv.uses[0].source, "field");
  EXPECT_EQ(inv.uses[0].path, "spec.services.VllmWorker.extraPodSpec.mainContainer.image");
  EXPECT_EQ(inv.uses[2].source, "fields");
  EXPECT_EQ(inv.uses[2].path, "spec.driver");
  EXPECT_EQ(inv.uses[2].fields->repository, "nvcr.io/nvidia");
  EXPECT_EQ(inv.uses[2].fields->image, "driver");
  EXPECT_EQ(inv.uses[4].fields->repository, "quay.io/example/agent");
  // Under `enabled: false`: listed, marked not needed.
  EXPECT_EQ(inv.uses[5].disabled_by, "spec.toolkit.enabled");
  EXPECT_FALSE(inv.images[5].needed());
  EXPECT_TRUE(inv.images[0].needed());
  // A bare word is only possibly an image.
  EXPECT_EQ(inv.uses[6].confidence, Confidence::kPossible);
}

// Images inside ConfigMap values that are YAML or JSON themselves (kserve's and Argo's config
// maps hold pod templates and image settings this way). Uses point at the outer scalar.
TEST(Images, YamlAndJsonInsideConfigMapData) {
  Bundle b = bundle_from(R"(apiVersion: v1
kind: ConfigMap
metadata: {name: controller-config}
data:
  config.yaml: |
    executor:
      image: quay.io/argoproj/argoexec:v3.5.5
    podTemplate:
      spec:
        containers:
        - name: c
          image: registry.example.com/team/app:4
  agent: |-
    {
      "image" : "kserve/agent",
      "defaultImageVersion": "v0.13"
    }
  explainers: '{"art": {"image": "kserve/art-explainer", "defaultImageVersion": "v0.13"}}'
  plain: "not yaml"
---
apiVersion: v1
kind: Secret
metadata: {name: creds}
stringData:
  values.yaml: |
    image: registry.example.com/secret/leak:1
)");
  ImageInventory inv = discover_images(b);
  EXPECT_EQ(written(inv), (std::vector<std::string>{
                              "quay.io/argoproj/argoexec:v3.5.5", "registry.example.com/team/app:4",
                              "kserve/agent:v0.13", "kserve/art-explainer:v0.13"}));
  EXPECT_EQ(inv.uses[0].path, "data[\"config.yaml\"] > executor.image");
  EXPECT_EQ(inv.uses[0].source, "embedded");
  EXPECT_EQ(inv.uses[0].position.line, 5u);  // the outer scalar in the file
  EXPECT_EQ(inv.uses[0].scalar.begin_offset(),
            b.objects[0].node.at({"data", "config.yaml"}).begin_offset());
  // A pod spec inside a string is a template: likely, not certain.
  EXPECT_EQ(inv.uses[1].source, "container");
  EXPECT_EQ(inv.uses[1].confidence, Confidence::kLikely);
  EXPECT_EQ(inv.uses[2].path, "data.agent");  // a field group: the mapping's path
  EXPECT_EQ(inv.uses[2].source, "fields");
  EXPECT_EQ(inv.uses[3].path, "data.explainers > art");
}

TEST(Images, OlmRelatedImagesAreCertain) {
  Bundle b = bundle_from(R"(apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: op.v1.0.0
  annotations: {containerImage: "quay.io/example/op:v1.0.0"}
spec:
  relatedImages:
  - {name: operand, image: "quay.io/example/operand@sha256:6666666666666666666666666666666666666666666666666666666666666666"}
)");
  ImageInventory inv = discover_images(b);
  ASSERT_EQ(inv.uses.size(), 2u);
  EXPECT_EQ(inv.uses[0].path, "metadata.annotations.containerImage");
  EXPECT_EQ(inv.uses[0].confidence, Confidence::kLikely);
  EXPECT_EQ(inv.uses[1].source, "relatedImages");
  EXPECT_EQ(inv.uses[1].confidence, Confidence::kCertain);
  EXPECT_EQ(inv.uses[1].path, "spec.relatedImages[0].image");
}

TEST(Images, ChartImageAnnotations) {
  Bundle b = bundle_from(R"(apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  annotations:
    helm.sh/images: |
      - name: nats
        image: docker.io/library/nats:2.10.11-alpine
        condition: nats.enabled
    artifacthub.io/images: |
      - name: etcd
        image: bitnami/etcd:3.5.12
)");
  ImageInventory inv = discover_images(b);
  ASSERT_EQ(inv.uses.size(), 2u);
  EXPECT_EQ(inv.uses[0].source, "annotation");
  EXPECT_EQ(inv.uses[0].confidence, Confidence::kCertain);
  EXPECT_EQ(inv.uses[0].path, "metadata.annotations[\"helm.sh/images\"] > [0].image");
  EXPECT_EQ(inv.uses[1].written, "bitnami/etcd:3.5.12");
}

// Secrets are never read, in any field; invalid pod-spec images are listed with the reason.
TEST(Images, SecretsSkippedAndInvalidReferencesKept) {
  Bundle b = bundle_from(R"(apiVersion: v1
kind: Secret
metadata: {name: s}
data: {image: cXVheS5pby94L3k6MQ==}
stringData:
  image: quay.io/secret/app:1
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - {name: a, image: "ko://knative.dev/serving/cmd/queue"}
)");
  ImageInventory inv = discover_images(b);
  ASSERT_EQ(inv.uses.size(), 1u);
  EXPECT_EQ(inv.uses[0].object, 1u);
  EXPECT_FALSE(inv.uses[0].ref.has_value());
  EXPECT_EQ(inv.uses[0].error, "invalid reference format");
  EXPECT_EQ(inv.invalid, 1u);
  EXPECT_TRUE(inv.images.empty());
}

// The seed: `--model Qwen/Qwen3-0.6B` with no revision; vLLM's positional form; revision flags
// and URLs; --served-model-name is a label, not a source.
TEST(Images, HuggingFaceModelsAndRevisionPins) {
  Bundle b = bundle_from(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: worker}
spec:
  template:
    spec:
      containers:
      - name: a
        image: vllm/vllm-openai:v0.9.0
        args: ["--model", "Qwen/Qwen3-0.6B", "--served-model-name", "team/chat"]
      - name: b
        image: vllm/vllm-openai:v0.9.0
        command: ["vllm", "serve", "meta-llama/Llama-3.1-8B-Instruct"]
        args: ["--revision=0e9e39f249a16976918f6564b8830bc894c89659", "--tokenizer-revision", "main"]
      - name: c
        image: ghcr.io/huggingface/text-generation-inference:3.0
        env:
        - {name: MODEL_ID, value: "mistralai/Mistral-7B-v0.1"}
        - {name: REVISION, value: "main"}
        - {name: ADAPTER, value: "https://huggingface.co/org/adapter/tree/1234567890abcdef1234567890abcdef12345678"}
        - {name: MODEL_PATH_LOCAL, value: "/models/qwen"}
)");
  ImageInventory inv = discover_images(b);
  ASSERT_EQ(inv.models.size(), 4u);
  EXPECT_EQ(inv.models[0].id, "Qwen/Qwen3-0.6B");
  EXPECT_EQ(inv.models[0].path, "spec.template.spec.containers[0].args[1]");
  EXPECT_EQ(inv.models[0].revision, "");
  EXPECT_FALSE(inv.models[0].pinned());
  EXPECT_EQ(inv.models[1].id, "meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(inv.models[1].revision, "0e9e39f249a16976918f6564b8830bc894c89659");
  EXPECT_TRUE(inv.models[1].pinned());
  EXPECT_EQ(inv.models[2].id, "mistralai/Mistral-7B-v0.1");
  EXPECT_EQ(inv.models[2].revision, "main");
  EXPECT_FALSE(inv.models[2].pinned());
  EXPECT_EQ(inv.models[3].id, "org/adapter");
  EXPECT_TRUE(inv.models[3].pinned());

  auto findings = run_check(b, "model-not-pinned");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_NE(findings[0].message.find("Next month the name may point to different files"),
            std::string::npos);
  EXPECT_NE(findings[0].message.find("no revision pin"), std::string::npos);
  EXPECT_EQ(findings[0].position.line, 10u);
  EXPECT_NE(findings[1].message.find("\"main\""), std::string::npos);
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

// pkg/apis/core/v1/defaults.go (SetDefaults_Container): an unset imagePullPolicy becomes Always
// only for :latest or no tag, IfNotPresent otherwise; an explicit policy is kept. The message
// says which policy applies and why, never "Always" for :main.
// Istio's injector adds the proxy to every injected pod, composing its reference as ProxyImage
// does (istio pkg/kube/inject/inject.go): hub + "/" + global.proxy.image + ":" + tag, with
// "-" + variant; a name holding '/' is used as it is. The bare name "proxyv2" is not an image of
// its own (it would read as docker.io/library/proxyv2).
TEST(Images, MeshInjectorProxyIsComposedFromItsConfig) {
  Bundle b = bundle_from(R"(apiVersion: v1
kind: ConfigMap
metadata: {name: istio-sidecar-injector, namespace: istio-system}
data:
  values: |-
    {"global": {"hub": "gcr.io/istio-release", "tag": "1.22.1", "variant": "distroless",
      "proxy": {"image": "proxyv2"}, "proxy_init": {"image": "mirror.example.com/init:2"}}}
)");
  ImageInventory inv = discover_images(b);
  std::vector<std::string> written;
  for (const ImageUse& use : inv.uses)
    written.push_back(use.written);
  EXPECT_EQ(written, (std::vector<std::string>{"gcr.io/istio-release/proxyv2:1.22.1-distroless",
                                               "mirror.example.com/init:2"}));
  EXPECT_EQ(inv.uses[0].source, "injector");
  EXPECT_EQ(inv.uses[0].path, "data.values > global.proxy.image");
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

TEST(ImageChecks, SizeAndBandwidthParsing) {
  EXPECT_EQ(*parse_byte_size("2GiB"), 2147483648u);
  EXPECT_EQ(*parse_byte_size("500MB"), 500000000u);
  EXPECT_EQ(*parse_byte_size("1073741824"), 1073741824u);
  EXPECT_EQ(*parse_byte_size("1.5 GB"), 1500000000u);
  EXPECT_FALSE(parse_byte_size("lots").has_value());
  EXPECT_FALSE(parse_byte_size("-1GB").has_value());
  EXPECT_DOUBLE_EQ(*parse_bandwidth("15MB/s"), 15e6);
  EXPECT_DOUBLE_EQ(*parse_bandwidth("1Gbit/s"), 125e6);
  EXPECT_DOUBLE_EQ(*parse_bandwidth("100Mbit/s"), 12.5e6);
  EXPECT_DOUBLE_EQ(*parse_bandwidth("1MiB/s"), 1048576.0);
  EXPECT_FALSE(parse_bandwidth("fast").has_value());
  EXPECT_EQ(format_duration(45), "45 s");
  EXPECT_EQ(format_duration(7500), "2 h 5 min");
  EXPECT_EQ(format_bytes(516'410), "516.4 kB (516,410 bytes)");
  EXPECT_EQ(format_bytes(999), "999 bytes");
}

// An operator's image set in a ConfigMap (tests/data/airgap/configmap-images.yaml, counted by
// hand): seven references with a registry and a tag or digest are likely, whatever their key;
// the one with a tag but no registry is possible; domain paths without a tag (an apiVersion's
// shape), URLs, CIDRs and words are none. Each use names its data key.
TEST(Images, ConfigMapImageSet) {
  std::string path = FOOTPRINT_SOURCE_DIR;
  path += "/tests/data/airgap/configmap-images.yaml";
  auto loaded = load_inputs({path}, LoadOptions{});
  ASSERT_TRUE(loaded.has_value());
  Bundle b = build_bundle(std::move(*loaded), BundleOptions{"storage"});
  ImageInventory inv = discover_images(b);
  std::vector<std::string> likely;
  std::vector<std::string> possible;
  for (const Image& image : inv.images) {
    (image.confidence == Confidence::kPossible ? possible : likely).push_back(image.written);
    EXPECT_NE(image.confidence, Confidence::kCertain) << image.written;
  }
  const std::string livenessprobe =
      "registry.k8s.io/sig-storage/livenessprobe@sha256:" + std::string(64, 'a');
  EXPECT_EQ(likely, (std::vector<std::string>{
                        "registry.k8s.io/sig-storage/csi-provisioner:v5.1.0",
                        "registry.k8s.io/sig-storage/csi-attacher:v4.8.0",
                        "registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.13.0",
                        livenessprobe,
                        "registry.k8s.io/sig-storage/csi-snapshotter:v8.2.0",
                        "registry.k8s.io/sig-storage/csi-resizer:v1.13.1",
                        "quay.io/example/csi-plugin:1.0.0",
                    }));
  EXPECT_EQ(possible, (std::vector<std::string>{"example/helper:1.2"}));
  EXPECT_EQ(inv.uses.size(), 8u);  // one use each: nothing found twice
  EXPECT_EQ(find_use(inv, "registry.k8s.io/sig-storage/csi-snapshotter:v8.2.0")->configmap_key,
            "sidecars.yaml");
  EXPECT_EQ(find_use(inv, "quay.io/example/csi-plugin:1.0.0")->configmap_key, "plugin.json");
  EXPECT_EQ(find_use(inv, "registry.k8s.io/sig-storage/csi-resizer:v1.13.1")->configmap_key,
            "sidecars.yaml");
}

}  // namespace
}  // namespace footprint
