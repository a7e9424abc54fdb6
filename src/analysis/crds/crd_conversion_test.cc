// CRD conversion webhooks and versions: the conversion Service, its port and CA bundle, one
// storage version and a schema for every version.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analysis/check_testing.h"
#include "analysis/models/crd_models.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

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

}  // namespace
}  // namespace footprint
