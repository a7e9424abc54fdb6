#include "analysis/models/images.h"

#include <gtest/gtest.h>

#include "analysis/check_testing.h"
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
