// The crd-* checks on hand-written fixtures. Large CRDs are generated here; their expected JSON
// is built alongside their YAML, independently of the encoder, and the limits are the API
// server's (262,144 for annotations, 3,145,728 for request bodies), etcd's default
// --max-request-bytes (1,572,864) and Helm's release Secret (1,048,576).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analysis/check_testing.h"
#include "analysis/models/crd_models.h"

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
// three-way merge patch computed by its own client (helm's pkg/kube/client.go), so a CRD over the
// annotation limit installs through Helm. A chart's render (`# Source:` lines, Helm's labels) is
// info, and says the risk is client-side kubectl apply of the same files. The same CRD in plain
// files is still high.
TEST(CrdSizes, HelmInstallsWithoutTheAnnotation) {
  size_t n = properties_for(kAnnotationLimit + 1, 200);
  Generated g = generate_crd("widgets.example.com", n, 200);
  std::string rendered = "# Source: widgets/crds/widgets.yaml\n" + g.yaml;
  rendered.replace(rendered.find("  name: widgets.example.com\n"), 28,
                   "  name: widgets.example.com\n  labels: {helm.sh/chart: widgets-1.0.0}\n");
  auto helm = run_check(bundle_from(rendered), "crd-too-large-for-client-side-apply");
  ASSERT_EQ(helm.size(), 1u);
  EXPECT_EQ(helm[0].severity, Severity::kInfo);
  EXPECT_NE(helm[0].message.find("Helm installs it"), std::string::npos);
  EXPECT_NE(helm[0].message.find("only for someone who runs client-side `kubectl apply`"),
            std::string::npos);
  auto plain = run_check(bundle_from(g.yaml), "crd-too-large-for-client-side-apply");
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0].severity, Severity::kHigh);
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

// --- conversion webhooks ---------------------------------------------------------------------

std::string conversion_crd(std::string_view client_config, std::string_view annotations = "",
                           std::string_view versions = "v1beta1, v1") {
  std::string out = fmt::format(
      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n"
      "  name: graphs.dynamo.example.com\n{}spec:\n  group: dynamo.example.com\n"
      "  names: {{kind: Graph, plural: graphs}}\n  scope: Namespaced\n  conversion:\n"
      "    strategy: Webhook\n    webhook:\n      conversionReviewVersions: [v1]\n"
      "      clientConfig: {}\n  versions:\n",
      annotations.empty() ? "" : fmt::format("  annotations: {}\n", annotations), client_config);
  size_t start = 0;
  bool first = true;
  while (start <= versions.size()) {
    size_t comma = versions.find(", ", start);
    std::string_view v =
        versions.substr(start, comma == std::string_view::npos ? comma : comma - start);
    out += fmt::format(
        "  - name: {}\n    served: true\n    storage: {}\n    schema: {{openAPIV3Schema: {{type: "
        "object}}}}\n",
        v, first ? "false" : "true");
    first = false;
    if (comma == std::string_view::npos) break;
    start = comma + 2;
  }
  if (versions.find(", ") == std::string_view::npos) {
    out.replace(out.find("storage: false"), 14, "storage: true");
  }
  return out;
}

// The chart renames the webhook Service to <release>-<name> and installs into its own
// namespace (the seed, section 4).
constexpr const char* kChartObjects = R"(
---
apiVersion: v1
kind: Service
metadata: {name: dynamo-platform-dynamo-operator-webhook-service}
spec:
  selector: {app: operator}
  ports: [{port: 443, targetPort: 9443}]
---
apiVersion: v1
kind: Service
metadata: {name: dynamo-platform-metrics}
spec:
  ports: [{port: 8443}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: dynamo-validating}
webhooks:
- name: graphs.dynamo.example.com
  clientConfig:
    service: {namespace: dynamo-cloud, name: dynamo-platform-dynamo-operator-webhook-service, path: /validate}
  admissionReviewVersions: [v1]
  sideEffects: None
)";

constexpr const char* kSeedClientConfig =
    "{service: {namespace: dynamo-system, name: dynamo-operator-webhook-service, path: /convert}}";

TEST(CrdConversion, MissingServiceSuggestsTheChartsService) {
  Bundle b = bundle_from(conversion_crd(kSeedClientConfig) + kChartObjects, "dynamo-cloud");
  auto findings = run_check(b, "crd-conversion-service-missing");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  const std::string& m = findings[0].message;
  EXPECT_NE(m.find("Service dynamo-system/dynamo-operator-webhook-service, which the bundle does "
                   "not create"),
            std::string::npos);
  EXPECT_NE(m.find("The Service dynamo-cloud/dynamo-platform-dynamo-operator-webhook-service is "
                   "probably meant: the bundle's admission webhooks call it."),
            std::string::npos);
  EXPECT_NE(m.find("hard-codes namespace dynamo-system, but this release installs into "
                   "dynamo-cloud"),
            std::string::npos);
  EXPECT_NE(findings[0].remediation.find(
                "dynamo-cloud/dynamo-platform-dynamo-operator-webhook-service:443"),
            std::string::npos);
  EXPECT_EQ(findings[0].position.line, 13u);  // the clientConfig's service
}

TEST(CrdConversion, SuggestionByNameWithoutAdmissionWebhooks) {
  std::string services = R"(
---
apiVersion: v1
kind: Service
metadata: {name: rel-dynamo-operator-webhook-service, namespace: dynamo-system}
spec: {ports: [{port: 9443}]}
)";
  Bundle b = bundle_from(conversion_crd(kSeedClientConfig) + services, "dynamo-system");
  std::vector<ConversionWiring> w = Context(b).conversions;
  ASSERT_EQ(w.size(), 1u);
  ASSERT_NE(w[0].suggestion, nullptr);
  EXPECT_EQ(w[0].suggestion->name, "rel-dynamo-operator-webhook-service");
  EXPECT_EQ(w[0].suggestion_reason, "its name ends with dynamo-operator-webhook-service");
  EXPECT_EQ(w[0].suggested_port, 9443);  // the Service's only port
  EXPECT_FALSE(w[0].namespace_differs);
  auto findings = run_check(b, "crd-conversion-service-missing");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].message.find("hard-codes"), std::string::npos);
}

TEST(CrdConversion, NoSuggestionForUnrelatedServices) {
  std::string services =
      "---\napiVersion: v1\nkind: Service\nmetadata: {name: metrics}\nspec: {ports: [{port: "
      "80}]}\n";
  Bundle b = bundle_from(conversion_crd(kSeedClientConfig) + services, "dynamo-system");
  auto findings = run_check(b, "crd-conversion-service-missing");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].message.find("probably meant"), std::string::npos);
  EXPECT_NE(findings[0].remediation.find("--service NS/NAME"), std::string::npos);
}

// prometheus-operator's conversion example refers to port 8443; its Service exposes 443.
TEST(CrdConversion, PortMismatch) {
  std::string crd = conversion_crd(
      "{service: {namespace: default, name: prometheus-operator-admission-webhook, path: "
      "/convert, port: 8443}, caBundle: " +
      std::string("LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==") + "}");
  std::string service = R"(
---
apiVersion: v1
kind: Service
metadata: {name: prometheus-operator-admission-webhook}
spec:
  ports: [{name: https, port: 443, targetPort: https}]
)";
  Bundle b = bundle_from(crd + service);
  auto findings = run_check(b, "crd-conversion-port-mismatch");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("on port 8443, but the Service exposes port 443"),
            std::string::npos);
  EXPECT_NE(findings[0].remediation.find("service.port to 443"), std::string::npos);
  EXPECT_TRUE(run_check(b, "crd-conversion-service-missing").empty());
  EXPECT_TRUE(run_check(b, "crd-conversion-ca-not-injected").empty());  // a CA is written
}

TEST(CrdConversion, DefaultPort443) {
  std::string crd = conversion_crd("{service: {namespace: default, name: hook}}");
  std::string service =
      "---\napiVersion: v1\nkind: Service\nmetadata: {name: hook}\nspec: {ports: [{port: "
      "9443}]}\n";
  auto findings = run_check(bundle_from(crd + service), "crd-conversion-port-mismatch");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("on port 443 (the default when none is written)"),
            std::string::npos);
}

TEST(CrdConversion, CaNotInjected) {
  Bundle b = bundle_from(conversion_crd(kSeedClientConfig) + kChartObjects, "dynamo-cloud");
  auto findings = run_check(b, "crd-conversion-ca-not-injected");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("has no caBundle"), std::string::npos);
  EXPECT_NE(findings[0].message.find("fail TLS verification"), std::string::npos);
  EXPECT_NE(findings[0].message.find("other than the storage version v1 fails"), std::string::npos);
}

TEST(CrdConversion, PlaceholderCaBundleCountsAsMissing) {
  Bundle b =
      bundle_from(conversion_crd("{service: {namespace: default, name: hook}, caBundle: Cg==}"));
  auto findings = run_check(b, "crd-conversion-ca-not-injected");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("a placeholder caBundle"), std::string::npos);
}

TEST(CrdConversion, CertManagerInjects) {
  Bundle b = bundle_from(conversion_crd("{service: {namespace: default, name: hook}}",
                                        "{cert-manager.io/inject-ca-from: default/serving-cert}"));
  EXPECT_TRUE(run_check(b, "crd-conversion-ca-not-injected").empty());
}

// jobset's config/default leaves kustomize's variables in the annotation when cert-manager is
// not enabled.
TEST(CrdConversion, UnsubstitutedKustomizeVariableInjectsNothing) {
  Bundle b = bundle_from(conversion_crd(
      "{service: {namespace: default, name: hook}}",
      "{cert-manager.io/inject-ca-from: $(CERTIFICATE_NAMESPACE)/$(CERTIFICATE_NAME)}"));
  auto findings = run_check(b, "crd-conversion-ca-not-injected");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("unsubstituted kustomize variable"), std::string::npos);
}

// An operator that may patch its own CRD injects the CA itself (controller-runtime cert rotators
// do); in the seed's restricted mode only the cluster-wide operator had that right.
TEST(CrdConversion, ServiceAccountThatMayPatchTheCrdInjects) {
  std::string rbac = R"(
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: inject}
rules:
- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  resourceNames: [graphs.dynamo.example.com]
  verbs: [get, patch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: inject}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: inject}
subjects: [{kind: ServiceAccount, name: operator, namespace: dynamo-cloud}]
)";
  Bundle b = bundle_from(conversion_crd(kSeedClientConfig) + kChartObjects + rbac, "dynamo-cloud");
  EXPECT_TRUE(run_check(b, "crd-conversion-ca-not-injected").empty());
  // Patching only its own CRD is CA injection, not a hidden footprint.
  EXPECT_TRUE(run_check(b, "crd-installed-at-runtime").empty());
}

TEST(CrdConversion, SingleVersionIsLow) {
  Bundle b = bundle_from(conversion_crd("{service: {namespace: default, name: hook}}", "", "v1"));
  auto findings = run_check(b, "crd-conversion-service-missing");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_NE(findings[0].message.find("never calls the webhook"), std::string::npos);
}

// The later definition of a CRD replaces the earlier one, as applying the bundle in order does.
TEST(CrdConversion, ALaterDefinitionReplacesTheEarlierOne) {
  std::string fixed = conversion_crd(
      "{service: {namespace: dynamo-cloud, name: dynamo-platform-dynamo-operator-webhook-service}, "
      "caBundle: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==}");
  Bundle b = bundle_from(conversion_crd(kSeedClientConfig) + kChartObjects + "---\n" + fixed,
                         "dynamo-cloud");
  EXPECT_TRUE(run_check(b, "crd-conversion-service-missing").empty());
  EXPECT_TRUE(run_check(b, "crd-conversion-ca-not-injected").empty());
  EXPECT_TRUE(run_check(b, "crd-conversion-port-mismatch").empty());
}

// --- versions ------------------------------------------------------------------------------

std::string crd_with_versions(std::string_view versions) {
  return fmt::format(
      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
      "metadata: {{name: widgets.example.com}}\nspec:\n  group: example.com\n"
      "  names: {{kind: Widget, plural: widgets}}\n  scope: Namespaced\n  versions:\n{}",
      versions);
}

TEST(CrdVersions, ExactlyOneStorageVersion) {
  auto version = [](std::string_view name, bool storage) {
    return fmt::format(
        "  - name: {}\n    served: true\n    storage: {}\n"
        "    schema: {{openAPIV3Schema: {{type: object}}}}\n",
        name, storage);
  };
  auto two = run_check(bundle_from(crd_with_versions(version("v1", true) + version("v2", true))),
                       "crd-storage-version");
  ASSERT_EQ(two.size(), 1u);
  EXPECT_NE(two[0].message.find("2 versions (v1, v2)"), std::string::npos);
  auto none =
      run_check(bundle_from(crd_with_versions(version("v1", false))), "crd-storage-version");
  ASSERT_EQ(none.size(), 1u);
  EXPECT_NE(none[0].message.find("marks no version with storage: true"), std::string::npos);
  EXPECT_TRUE(run_check(bundle_from(crd_with_versions(version("v1", true) + version("v2", false))),
                        "crd-storage-version")
                  .empty());
}

TEST(CrdVersions, EveryVersionNeedsASchema) {
  auto findings = run_check(
      bundle_from(crd_with_versions("  - name: v1\n    served: true\n    storage: true\n"
                                    "    schema: {openAPIV3Schema: {type: object}}\n"
                                    "  - name: v2\n    served: true\n    storage: false\n")),
      "crd-version-schema-missing");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("Version v2 of CRD widgets.example.com is served but has no"),
            std::string::npos);
  EXPECT_EQ(findings[0].position.line, 13u);
}

// --- CRDs installed at run time ---------------------------------------------------------------

constexpr const char* kInstaller = R"(
apiVersion: v1
kind: ServiceAccount
metadata: {name: operator, namespace: ops}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: crd-manager}
rules:
- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  verbs: [create, get, list]
- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  resourceNames: [widgets.example.com, gadgets.example.com]
  verbs: [update, patch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: crd-manager}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: crd-manager}
subjects: [{kind: ServiceAccount, name: operator, namespace: ops}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: operator, namespace: ops}
spec:
  template:
    spec:
      serviceAccountName: operator
      containers: [{name: manager, image: op, args: [--install-crds=true]}]
)";

TEST(CrdInstalledAtRuntime, PerServiceAccountWithWorkloadsAndNames) {
  Bundle b = bundle_from(kInstaller);
  auto findings = run_check(b, "crd-installed-at-runtime");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  EXPECT_EQ(findings[0].object.kind, "ServiceAccount");
  const std::string& m = findings[0].message;
  EXPECT_NE(m.find("ServiceAccount ops/operator may create any CustomResourceDefinition "
                   "(through ClusterRoleBinding crd-manager)"),
            std::string::npos);
  EXPECT_NE(m.find("Deployment ops/operator runs as it"), std::string::npos);
  EXPECT_NE(m.find("container manager runs `--install-crds=true`"), std::string::npos);
  EXPECT_NE(m.find("does not ship (2): widgets.example.com, gadgets.example.com."),
            std::string::npos);

  Context context(b);
  const HiddenFootprint& hidden = context.hidden;
  ASSERT_EQ(hidden.writers.size(), 1u);
  EXPECT_EQ(hidden.writers[0].verbs, std::vector<std::string>{"create"});
  std::vector<std::string> summary = hidden_footprint_summary(hidden);
  ASSERT_EQ(summary.size(), 2u);
  EXPECT_EQ(summary[0],
            "ServiceAccount ops/operator (Deployment ops/operator runs as it) may create any "
            "CustomResourceDefinition: CRDs beyond this bundle can appear at run time.");
}

// Rewriting CRDs without creating any is not an install at run time: rbac-crd-write reports
// the right, and crd-installed-at-runtime only what installs CRDs.
TEST(CrdInstalledAtRuntime, UpdateOnAnyCrdIsTheRbacChecks) {
  std::string yaml = kInstaller;
  yaml.replace(yaml.find("verbs: [create, get, list]"), 26, "verbs: [update, get, list]");
  auto findings = run_check(bundle_from(yaml), "crd-installed-at-runtime");
  ASSERT_EQ(findings.size(), 1u);
  // The container's flag still says it installs CRDs.
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  std::string no_flag = yaml;
  no_flag.replace(no_flag.find("args: [--install-crds=true]"), 27, "args: []");
  EXPECT_TRUE(run_check(bundle_from(no_flag), "crd-installed-at-runtime").empty());
  auto rewrite = run_check(bundle_from(no_flag), "rbac-crd-write");
  ASSERT_EQ(rewrite.size(), 1u);
  EXPECT_EQ(rewrite[0].severity, Severity::kMedium);
  EXPECT_NE(rewrite[0].message.find("rewrite any CustomResourceDefinition in the cluster"),
            std::string::npos);
}

TEST(CrdInstalledAtRuntime, ContainerCommands) {
  auto job = [](std::string_view command) {
    return fmt::format(
        "apiVersion: batch/v1\nkind: Job\nmetadata: {{name: upgrade-crd, namespace: ops}}\n"
        "spec:\n  template:\n    spec:\n      containers: [{{name: c, image: i, command: {}}}]\n",
        command);
  };
  auto found = run_check(bundle_from(job("[/usr/bin/manage-crds, apply, "
                                         "--filepath=/opt/op/example.com_widgets.yaml]")),
                         "crd-installed-at-runtime");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].object.kind, "Job");
  EXPECT_NE(found[0].message.find("no role of the bundle lets its ServiceAccount create them"),
            std::string::npos);
  EXPECT_NE(found[0].message.find("(1): widgets.example.com."), std::string::npos);

  auto shell = run_check(bundle_from(job("[sh, -c, 'kubectl apply -f /crds/ && sleep 1']")),
                         "crd-installed-at-runtime");
  EXPECT_EQ(shell.size(), 1u);
  // Watching CRDs, or a CRD management switch turned off, installs nothing.
  for (const char* quiet : {"[op, --crdWatcher=false]", "[op, --crd-requeue-interval=5m]",
                            "[op, -manage-crds=false]"}) {
    EXPECT_TRUE(run_check(bundle_from(job(quiet)), "crd-installed-at-runtime").empty()) << quiet;
  }
}

TEST(MissingCrds, GroupedByGroup) {
  Bundle b = bundle_from(
      "apiVersion: monitoring.coreos.com/v1\nkind: PodMonitor\nmetadata: {name: a}\n---\n"
      "apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: b}\n---\n"
      "apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: c}\n");
  std::vector<MissingCrd> missing = missing_crds(b);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].group, "monitoring.coreos.com");
  std::vector<std::pair<std::string, uint32_t>> kinds = {{"PodMonitor", 1}, {"ServiceMonitor", 2}};
  EXPECT_EQ(missing[0].kinds, kinds);
}

}  // namespace
}  // namespace footprint

namespace footprint {
namespace {

// A bundle that ships example.com's CRD and whose roles also name widgets of
// extra.example.com: the group is owned only because it shares the domain example.com, and only
// a role names it. Projects discover such APIs and switch modes by whether they are served
// (Calico's components look up projectcalico.org, served by its API server or by CRDs, and run
// differently without it), so installing them on footprint's advice changes the product: not
// reported. A webhook on the same group means the operator expects requests for it: high.
TEST(CrdNotInstalled, RolesAloneOnADomainGroupAreNotReported) {
  std::string crd = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions: [{name: v1, served: true, storage: true}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: op}
rules: [{apiGroups: [extra.example.com], resources: [gadgets], verbs: [get, list, watch]}]
)";
  EXPECT_TRUE(testing::run_check(testing::bundle_from(crd), "crd-not-installed").empty());
  std::string webhook = crd + R"(---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: gadgets.extra.example.com
  clientConfig: {service: {namespace: ops, name: hooks}}
  rules: [{operations: [CREATE], apiGroups: [extra.example.com], apiVersions: [v1], resources: [gadgets]}]
)";
  auto used = testing::run_check(testing::bundle_from(webhook), "crd-not-installed");
  ASSERT_EQ(used.size(), 1u);
  EXPECT_EQ(used[0].severity, Severity::kHigh);
  // Shared Kubernetes domains never make a group the install's own.
  std::string shared = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: workloads.kueue.x-k8s.io}
spec:
  group: kueue.x-k8s.io
  scope: Namespaced
  names: {kind: Workload, plural: workloads}
  versions: [{name: v1beta1, served: true, storage: true}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: op}
rules: [{apiGroups: [jobset.x-k8s.io], resources: [jobsets, jobsets/status], verbs: [get, update]}]
)";
  EXPECT_TRUE(testing::run_check(testing::bundle_from(shared), "crd-not-installed").empty());
}

}  // namespace
}  // namespace footprint
