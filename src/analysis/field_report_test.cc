// The field report's two install modes (tests/data/field-report/): what a reviewer must learn
// first from each, argued from the objects in the fixtures.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>

#include "analysis/analyze.h"
#include "analysis/check_testing.h"
#include "analysis/context.h"
#include "load/loader.h"

namespace footprint {
namespace {

std::string fixture(const char* file) {
  // Appended step by step: GCC 12 reports a false -Warray-bounds on the chained operator+ for
  // some lengths of FOOTPRINT_SOURCE_DIR (e.g. /work/wt-19).
  std::string path = FOOTPRINT_SOURCE_DIR;
  path += "/tests/data/field-report/";
  path += file;
  return path;
}

Bundle field_report(const char* mode, std::initializer_list<const char*> added = {}) {
  std::vector<std::string> paths = {fixture(mode)};
  for (const char* file : added)
    paths.push_back(fixture(file));
  auto loaded = load_inputs(paths, LoadOptions{});
  EXPECT_TRUE(loaded.has_value());
  return build_bundle(std::move(*loaded), BundleOptions{"dynamo-system"});
}

std::vector<std::string> names(const Finding& f, std::string_view kind) {
  for (const auto& [k, items] : f.affects) {
    if (k == kind) return items;
  }
  return {};
}

// The first finding of a check, or null.
const Finding* first_of(const AnalysisResult& r, std::string_view check) {
  for (const Finding& f : r.findings) {
    if (f.check == check) return &f;
  }
  return nullptr;
}

// Global mode: the controller creates workloads in every namespace, kube-system included, where a
// pod may run as clusterrole-aggregation-controller, which the bootstrap policy lets escalate and
// update every ClusterRole (bootstrappolicy/controller_policy.go): that is cluster-admin, the one
// critical and the first finding. Seven webhooks match only the operator's own CRDs;
// mpodcheckpointrestore sees every pod CREATE in every namespace with failurePolicy Ignore.
// Nothing fails closed on other teams; the pod webhook, which every team's pods pass through and
// which may change them, is the first webhook finding. The seven own-API webhooks share one
// backend: one finding, low, listing all of them.
TEST(FieldReport, GlobalModeOpensWithThePodWebhook) {
  Bundle bundle = field_report("global.yaml");
  AnalysisResult r = analyze(bundle, Config{});
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front().check, "rbac-workload-create-cluster-wide");
  EXPECT_EQ(r.findings.front().severity, Severity::kCritical);
  EXPECT_EQ(std::count_if(r.findings.begin(), r.findings.end(),
                          [](const Finding& f) { return f.severity == Severity::kCritical; }),
            1);
  const Finding* webhook = first_of(r, "webhook-intercepts-shared-resources");
  ASSERT_NE(webhook, nullptr);
  EXPECT_EQ(webhook->severity, Severity::kHigh);
  EXPECT_EQ(names(*webhook, "webhooks"),
            std::vector<std::string>{"mpodcheckpointrestore.example.com"});
  std::vector<const Finding*> fail_closed;
  for (const Finding& f : r.findings) {
    if (f.check == "webhook-fail-closed") fail_closed.push_back(&f);
  }
  ASSERT_EQ(fail_closed.size(), 1u);
  EXPECT_EQ(fail_closed[0]->severity, Severity::kLow);
  EXPECT_EQ(names(*fail_closed[0], "webhooks").size(), 7u);
  // The pod webhook is Ignore: fail-open in kube-system only costs latency.
  for (const Finding& f : r.findings) {
    if (f.check == "webhook-kube-system") {
      EXPECT_EQ(f.severity, Severity::kLow);
    }
  }
}

// Global mode with the operator's CRD files and the hook that applies them added (crd-files.yaml,
// crd-apply-hook.yaml): each file's conversion webhook names dynamo-operator-webhook-service,
// which nothing creates, but the chart's crd-apply hook overrides the Service's name and namespace
// before it applies each CRD (the operator's crd-apply command, configureConversionWebhookService,
// with
// --conversion-webhook-service-name=dynamo-platform-webhook-service), and that Service exists.
// The file's reference is no failure of this install: low, and the pod webhook stays the first
// webhook finding.
TEST(FieldReport, GlobalModeWithItsCrdFilesStillOpensWithThePodWebhook) {
  Bundle bundle = field_report("global.yaml", {"crd-files.yaml", "crd-apply-hook.yaml"});
  AnalysisResult r = analyze(bundle, Config{});
  const Finding* webhook = first_of(r, "webhook-intercepts-shared-resources");
  ASSERT_NE(webhook, nullptr);
  EXPECT_EQ(names(*webhook, "webhooks"),
            std::vector<std::string>{"mpodcheckpointrestore.example.com"});
  size_t conversion = 0;
  for (const Finding& f : r.findings) {
    if (f.check != "crd-conversion-service-missing") continue;
    ++conversion;
    EXPECT_EQ(f.severity, Severity::kLow);
    EXPECT_NE(f.message.find("dynamo-system/dynamo-platform-webhook-service"), std::string::npos);
  }
  EXPECT_EQ(conversion, 4u);  // one per CRD file
  // Had the hook named a Service the chart does not create, the calls would fail: high.
  std::string text = R"(
apiVersion: batch/v1
kind: Job
metadata: {name: crd-apply, namespace: dynamo-system}
spec:
  template:
    spec:
      containers:
      - name: crd-apply
        image: example.com/op:1@sha256:0f1d2c3b4a5968778695a4b3c2d1e0f9e8d7c6b5a4938271605f4e3d2c1b0a99
        command: [/crd-apply, --conversion-webhook-service-name=elsewhere]
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig: {service: {name: old, namespace: dynamo-system}}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
  - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
)";
  auto missing = testing::run_check(testing::bundle_from(text), "crd-conversion-service-missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].severity, Severity::kHigh);
  EXPECT_NE(missing[0].message.find("dynamo-system/elsewhere"), std::string::npos);
}

// Restricted mode: the webhooks are pinned to team-a, where the bundle puts its Role, so none is
// in another team's path. The cert rotator's Role lists Secrets in dynamo-system only by name and
// nothing else grants that list, while the manager Role lets the same account list and watch
// every Secret in team-a: the rights of an informer over Secrets, which the operator's cache runs
// in dynamo-system too (the 161 crash loops: "failed to list *v1.Secret" in dynamo-system). And
// nvidia.example.com is the operator's own API (its roles write dynamographdeployments/status)
// with no CRD shipped or installed: the two high findings, first.
TEST(FieldReport, RestrictedModeOpensWithTheTrapAndTheCrds) {
  Bundle bundle = field_report("restricted.yaml");
  AnalysisResult r = analyze(bundle, Config{});
  ASSERT_GE(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].check, "rbac-resourcenames-list-watch");
  EXPECT_EQ(r.findings[0].severity, Severity::kHigh);
  EXPECT_NE(r.findings[0].message.find("Role team-a/dynamo-platform-manager"), std::string::npos);
  EXPECT_EQ(r.findings[1].check, "crd-not-installed");
  EXPECT_EQ(r.findings[1].severity, Severity::kHigh);
  EXPECT_NE(r.findings[1].message.find("nvidia.example.com"), std::string::npos);
  EXPECT_EQ(names(r.findings[1], "resources"),
            (std::vector<std::string>{"dynamographdeployments", "dynamocomponentdeployments",
                                      "dynamographdeploymentrequests",
                                      "dynamographdeploymentscalingadapters"}));
  for (size_t i = 2; i < r.findings.size(); ++i) {
    EXPECT_LT(r.findings[i].severity, Severity::kHigh);
  }
  EXPECT_TRUE(std::none_of(r.findings.begin(), r.findings.end(), [](const Finding& f) {
    return f.check == "webhook-intercepts-shared-resources";
  }));
}

}  // namespace
}  // namespace footprint
