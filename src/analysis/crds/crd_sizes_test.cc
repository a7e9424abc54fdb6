// The crd-* checks on hand-written fixtures. Large CRDs are generated here; their expected JSON
// is built alongside their YAML, independently of the encoder, and the limits are the API
// server's (262,144 for annotations, 3,145,728 for request bodies), etcd's default
// --max-request-bytes (1,572,864) and Helm's release Secret (1,048,576).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analysis/check_testing.h"
#include "analysis/models/crd_models.h"
#include "analysis/models/delivery_paths.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

// A CRD with `count` string properties whose descriptions are `description` bytes long, and
// the compact JSON kubectl sends for it, written out by hand with sorted keys.
struct Generated {
  std::string yaml;
  std::string json;
};

Generated generate_crd(std::string_view name, size_t count, size_t description) {
  std::string text(description, 'd');
  Generated g;
  g.yaml = fmt::format(
      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
      "metadata:\n  name: {}\nspec:\n  group: example.com\n"
      "  names: {{kind: Widget, plural: widgets}}\n  scope: Namespaced\n  versions:\n"
      "  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n"
      "        type: object\n        properties:\n",
      name);
  std::string properties;
  for (size_t i = 0; i < count; ++i) {
    g.yaml += fmt::format("          p{:05}: {{type: string, description: {}}}\n", i, text);
    properties += fmt::format("{}\"p{:05}\":{{\"description\":\"{}\",\"type\":\"string\"}}",
                              i ? "," : "", i, text);
  }
  g.json = fmt::format(
      "{{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
      "\"metadata\":{{\"name\":\"{}\"}},\"spec\":{{\"group\":\"example.com\",\"names\":{{"
      "\"kind\":\"Widget\",\"plural\":\"widgets\"}},\"scope\":\"Namespaced\",\"versions\":[{{"
      "\"name\":\"v1\",\"schema\":{{\"openAPIV3Schema\":{{\"properties\":{{{}}},\"type\":"
      "\"object\"}}}},\"served\":true,\"storage\":true}}]}}}}",
      name, properties);
  return g;
}

// What client-side apply stores: the object with an empty annotations map, and a newline.
uint64_t expected_annotations(const std::string& json) {
  std::string with = json;
  with.insert(with.find("\"metadata\":{") + 12, "\"annotations\":{},");
  return std::string_view("kubectl.kubernetes.io/last-applied-configuration").size() + with.size() +
         1;
}

// The number of properties that brings the annotations to `target` bytes.
size_t properties_for(uint64_t target, size_t description) {
  uint64_t base = expected_annotations(generate_crd("widgets.example.com", 0, description).json);
  uint64_t one = expected_annotations(generate_crd("widgets.example.com", 1, description).json) -
                 base + 1;  // each further property adds a comma
  return static_cast<size_t>((target - base) / one + 1);
}

TEST(CrdSizes, JsonBytesMatchAHandWrittenEncoding) {
  Generated g = generate_crd("widgets.example.com", 50, 40);
  Bundle b = bundle_from(g.yaml);
  std::vector<ObjectSize> sizes = object_sizes(b);
  ASSERT_EQ(sizes.size(), 1u);
  ASSERT_TRUE(sizes[0].sizes);
  EXPECT_EQ(sizes[0].sizes->json_bytes, g.json.size());
  EXPECT_EQ(sizes[0].sizes->request_bytes, g.json.size() + 1);
  EXPECT_EQ(sizes[0].sizes->annotation_bytes, expected_annotations(g.json));
  EXPECT_EQ(sizes[0].yaml_bytes, g.yaml.size());
}

TEST(CrdSizes, OverTheAnnotationLimitIsHigh) {
  size_t n = properties_for(kAnnotationLimit + 1, 200);
  Generated g = generate_crd("widgets.example.com", n, 200);
  ASSERT_GT(expected_annotations(g.json), kAnnotationLimit);
  auto findings = run_check(bundle_from(g.yaml), "crd-too-large-for-client-side-apply");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("bytes as JSON"), std::string::npos);
  EXPECT_NE(findings[0].message.find("must have at most 262144 bytes"), std::string::npos);
  EXPECT_NE(findings[0].remediation.find("kubectl apply --server-side"), std::string::npos);

  // One property fewer can still fit: exactly at the limit is allowed ("larger than limit").
  Generated under = generate_crd("widgets.example.com", n - 1, 200);
  ASSERT_LE(expected_annotations(under.json), kAnnotationLimit);
  auto near = run_check(bundle_from(under.yaml), "crd-too-large-for-client-side-apply");
  ASSERT_EQ(near.size(), 1u);
  EXPECT_EQ(near[0].severity, Severity::kLow);
}

// Helm never writes last-applied-configuration: it creates objects and updates them with a
// merge patch computed by its own client (helm's pkg/kube/client.go), so a CRD over the
// annotation limit installs through Helm. But Argo CD renders the same chart (crds/ included,
// argo-cd#3336) and applies it client-side by default (argo-cd upgrading/3.2-3.3.md, #8128), and
// kapp keeps kapp.k14s.io/original (carvel-dev/kapp#48): without --deploy-with, a chart's CRD is
// medium and names those paths' fixes. The same CRD in plain files is still high.
std::string helm_rendered_crd(size_t properties) {
  std::string rendered = "# Source: widgets/crds/widgets.yaml\n" +
                         generate_crd("widgets.example.com", properties, 200).yaml;
  rendered.replace(rendered.find("  name: widgets.example.com\n"), 28,
                   "  name: widgets.example.com\n  labels: {helm.sh/chart: widgets-1.0.0}\n");
  return rendered;
}

TEST(CrdSizes, AChartsCrdFailsWithArgoCdAndKapp) {
  size_t n = properties_for(kAnnotationLimit + 1, 200);
  auto helm = run_check(bundle_from(helm_rendered_crd(n)), "crd-too-large-for-client-side-apply");
  ASSERT_EQ(helm.size(), 1u);
  EXPECT_EQ(helm[0].severity, Severity::kMedium);
  EXPECT_EQ(helm[0].message.find("Nothing to do"), std::string::npos);
  EXPECT_NE(helm[0].message.find("Argo CD renders the chart"), std::string::npos);
  EXPECT_NE(helm[0].remediation.find("argocd.argoproj.io/sync-options: ServerSideApply=true"),
            std::string::npos);
  EXPECT_NE(helm[0].remediation.find("kapp.k14s.io/disable-original"), std::string::npos);
  auto plain = run_check(bundle_from(generate_crd("widgets.example.com", n, 200).yaml),
                         "crd-too-large-for-client-side-apply");
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0].severity, Severity::kHigh);
}

std::vector<Finding> run_with_paths(const Bundle& bundle, std::string_view id,
                                    std::vector<DeliveryPath> paths) {
  Context ctx(bundle);
  ctx.deploy_with = std::move(paths);
  return testing::run_check_on(ctx, id);
}

// --deploy-with: high when a chosen path keeps a copy of the object, with that path's fix; info
// when none does (Helm 3 and 4 keep none: helm-www docs/overview.md, argo-cd 3.2-3.3.md).
TEST(CrdSizes, DeployWithDecidesTheAnnotationFinding) {
  size_t n = properties_for(kAnnotationLimit + 1, 200);
  Bundle b = bundle_from(helm_rendered_crd(n));
  auto argo = run_with_paths(b, "crd-too-large-for-client-side-apply",
                             {DeliveryPath::kHelm3, DeliveryPath::kArgocd});
  ASSERT_EQ(argo.size(), 1u);
  EXPECT_EQ(argo[0].severity, Severity::kHigh);
  EXPECT_NE(argo[0].message.find("may not be more than 262144 bytes"), std::string::npos);
  EXPECT_NE(argo[0].remediation.find("argocd: Annotate this object"), std::string::npos);
  auto helm = run_with_paths(b, "crd-too-large-for-client-side-apply",
                             {DeliveryPath::kHelm4, DeliveryPath::kArgocdSsa});
  ASSERT_EQ(helm.size(), 1u);
  EXPECT_EQ(helm[0].severity, Severity::kInfo);
}

// An operator that applies its own CRDs writes them with its client, not with client-side
// kubectl apply (Dynamo's crd-apply sends each file as a server-side apply patch with field
// manager dynamo-crd-apply): info. The field report's largest CRD file is 3,038,832 bytes.
TEST(CrdSizes, CrdsTheOperatorAppliesItselfAreInfo) {
  size_t n = properties_for(kAnnotationLimit + 1, 200);
  std::string job = R"(---
apiVersion: batch/v1
kind: Job
metadata: {name: crd-apply, namespace: ops}
spec:
  template:
    spec:
      containers:
      - {name: crd-apply, image: example.com/op:1, command: [/crd-apply, --crds-dir=/opt/crds/]}
)";
  auto findings = run_check(bundle_from(generate_crd("widgets.example.com", n, 200).yaml + job),
                            "crd-too-large-for-client-side-apply");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kInfo);
  EXPECT_NE(findings[0].message.find("Job ops/crd-apply (container crd-apply) applies it"),
            std::string::npos);
}

TEST(CrdSizes, WellUnderTheLimitsIsSilent) {
  size_t n = properties_for(kAnnotationLimit * 85 / 100, 200);
  Bundle b = bundle_from(generate_crd("widgets.example.com", n, 200).yaml);
  EXPECT_TRUE(run_check(b, "crd-too-large-for-client-side-apply").empty());
  EXPECT_TRUE(run_check(b, "crd-request-size-limit").empty());
  EXPECT_TRUE(run_check(b, "crd-etcd-size-limit").empty());
}

// The seed's 3,038,832-byte CRD: over the request limit as YAML, but what counts is the JSON.
TEST(CrdSizes, RequestBodyAndEtcdLimits) {
  size_t n = 3'200'000 / 1030;
  Generated g = generate_crd("widgets.example.com", n, 1000);
  ASSERT_GT(g.json.size() + 1, kRequestBodyLimit);
  Bundle b = bundle_from(g.yaml);
  auto request = run_check(b, "crd-request-size-limit");
  ASSERT_EQ(request.size(), 1u);
  EXPECT_EQ(request[0].severity, Severity::kHigh);
  EXPECT_NE(request[0].message.find("limit is 3145728"), std::string::npos);
  auto etcd = run_check(b, "crd-etcd-size-limit");
  ASSERT_EQ(etcd.size(), 1u);
  EXPECT_EQ(etcd[0].severity, Severity::kMedium);
  EXPECT_NE(etcd[0].remediation.find("--max-request-bytes"), std::string::npos);

  // 95 % of etcd's default is a warning, and far from the request limit.
  Generated near = generate_crd("widgets.example.com", 1'572'864 * 95 / 100 / 1030, 1000);
  Bundle nb = bundle_from(near.yaml);
  auto near_etcd = run_check(nb, "crd-etcd-size-limit");
  ASSERT_EQ(near_etcd.size(), 1u);
  EXPECT_EQ(near_etcd[0].severity, Severity::kLow);
  EXPECT_TRUE(run_check(nb, "crd-request-size-limit").empty());
}

TEST(CrdSizes, ObjectsKubectlCannotEncodeHaveNoSize) {
  Bundle b = bundle_from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: .nan}\n");
  std::vector<ObjectSize> sizes = object_sizes(b);
  EXPECT_FALSE(sizes[0].sizes);
  EXPECT_NE(sizes[0].error.find("line 4"), std::string::npos);
}

// Deterministic text that gzip cannot shrink much, like the certificates and dashboards that
// make real releases large.
std::string noise(size_t n, uint32_t seed) {
  static constexpr char kChars[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    out += kChars[(seed >> 24) & 63];
  }
  return out;
}

Bundle helm_bundle(size_t noise_bytes) {
  std::string text;
  for (int i = 0; i < 4; ++i) {
    text += fmt::format(
        "---\n# Source: chart/templates/cm{}.yaml\napiVersion: v1\nkind: ConfigMap\n"
        "metadata: {{name: cm{}}}\ndata:\n  blob: {}\n",
        i, i, noise(noise_bytes / 4, static_cast<uint32_t>(i + 1)));
  }
  auto loaded = load_texts({{"render.yaml", text}}, LoadOptions{});
  EXPECT_TRUE(loaded);
  return build_bundle(std::move(*loaded), BundleOptions{});
}

TEST(HelmRelease, EstimateIsGzipTimesFourThirds) {
  Bundle b = helm_bundle(400'000);
  std::optional<HelmReleaseEstimate> e = helm_release_estimate(b);
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->complete);
  EXPECT_EQ(e->estimate_bytes, (e->gzip_bytes + 2) / 3 * 4);
  // 64 symbols carry 6 bits a byte: gzip keeps at least 3/4 of the text.
  EXPECT_GT(e->gzip_bytes, 300'000u);
  EXPECT_TRUE(run_check(b, "helm-release-too-large").empty());
}

TEST(HelmRelease, OverTheLimitIsHigh) {
  Bundle b = helm_bundle(1'200'000);
  auto findings = run_check(b, "helm-release-too-large");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("lower bound"), std::string::npos);
  EXPECT_NE(findings[0].message.find("1,048,576"), std::string::npos);
}

TEST(HelmRelease, OnlyForHelmOutput) {
  Bundle b = bundle_from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
  EXPECT_FALSE(helm_release_estimate(b));
}

}  // namespace
}  // namespace footprint
