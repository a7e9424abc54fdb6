#include "analysis/admission.h"

#include <gtest/gtest.h>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

// An operator in namespace ops with its webhook Service and pods, plus one CRD it owns.
constexpr const char* kOperator = R"(
apiVersion: v1
kind: Service
metadata: {name: hooks, namespace: ops}
spec:
  selector: {app: operator}
  ports: [{port: 443, targetPort: 9443}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: operator, namespace: ops}
spec:
  selector: {matchLabels: {app: operator}}
  template:
    metadata: {labels: {app: operator}}
    spec: {containers: [{name: m, image: x}]}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions: [{name: v1, served: true, storage: true}]
)";

std::string with(const std::string& webhooks) {
  return std::string(kOperator) + "---\n" + webhooks;
}

constexpr const char* kPodWebhookNoSelector = R"(
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: pods}
webhooks:
- name: mpod.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
  sideEffects: None
  admissionReviewVersions: [v1]
)";

TEST(SelectorScope, Classifies) {
  auto scope = [](const char* yaml) {
    auto docs = yaml::parse(yaml);
    return selector_scope(*parse_label_selector(docs->front().root));
  };
  EXPECT_EQ(scope("{}"), "none");
  EXPECT_EQ(scope("matchExpressions: [{key: a, operator: NotIn, values: [x]}]"), "opt-out");
  EXPECT_EQ(scope("matchExpressions: [{key: a, operator: DoesNotExist}]"), "opt-out");
  EXPECT_EQ(scope("matchLabels: {inject: enabled}"), "opt-in");
  EXPECT_EQ(scope("matchExpressions: [{key: a, operator: Exists}, {key: b, operator: NotIn, "
                  "values: [x]}]"),
            "opt-in");
  EXPECT_EQ(scope("matchLabels: {kubernetes.io/metadata.name: ops}"),
            "kubernetes.io/metadata.name=ops");
}

// The field report's cluster-wide mode: a pod CREATE webhook with no selector.
TEST(InterceptsShared, PodWebhookWithoutSelectorIsHigh) {
  Bundle b = bundle_from(with(kPodWebhookNoSelector), "ops");
  auto findings = run_check(b, "webhook-intercepts-shared-resources");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  // default set: default, kube-node-lease, kube-public, kube-system, ops, other-team
  EXPECT_NE(findings[0].message.find("in 6 of 6 namespaces, including kube-system and other-team"),
            std::string::npos);
  EXPECT_NE(findings[0].message.find("neither a namespaceSelector nor an objectSelector"),
            std::string::npos);
}

// Exclusion-only selectors still match every unlabelled namespace (labels docs: NotIn selects
// objects without the key): cluster-wide, as kueue's mpod.kb.io.
TEST(InterceptsShared, ExclusionOnlySelectorIsStillClusterWide) {
  std::string w = kPodWebhookNoSelector;
  w += "  namespaceSelector:\n    matchExpressions: [{key: kubernetes.io/metadata.name, operator: "
       "NotIn, values: [kube-system, ops]}]\n";
  Bundle b = bundle_from(with(w), "ops");
  auto findings = run_check(b, "webhook-intercepts-shared-resources");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("in 4 of 6 namespaces, including other-team"),
            std::string::npos);
  EXPECT_NE(findings[0].message.find("only excludes"), std::string::npos);
  EXPECT_TRUE(run_check(b, "webhook-kube-system").empty());
}

TEST(InterceptsShared, OptInIsLowAndOwnResourcesAreSilent) {
  std::string opt_in = kPodWebhookNoSelector;
  opt_in += "  namespaceSelector: {matchLabels: {inject: enabled}}\n";
  std::vector<ClusterNamespace> cluster = {
      {"ops", {{"kubernetes.io/metadata.name", "ops"}}, false, true},
      {"team-a", {{"kubernetes.io/metadata.name", "team-a"}, {"inject", "enabled"}}, false, false}};
  Bundle b = bundle_from(with(opt_in), "ops");
  Context ctx(b, cluster);
  Findings out(b);
  out.set_check("webhook-intercepts-shared-resources");
  find_check("webhook-intercepts-shared-resources")->run(ctx, out);
  ASSERT_EQ(out.list().size(), 1u);
  EXPECT_EQ(out.list()[0].severity, Severity::kLow);
  EXPECT_NE(out.list()[0].message.find("in 1 of 2 namespaces"), std::string::npos);

  Bundle own = bundle_from(with(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: widgets}
webhooks:
- name: vwidget.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE, UPDATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]
)"),
                           "ops");
  EXPECT_TRUE(run_check(own, "webhook-intercepts-shared-resources").empty());
  // Admission docs, failure policy: with Fail, errors calling the webhook reject the request.
  auto fail = run_check(own, "webhook-fail-closed");
  ASSERT_EQ(fail.size(), 1u);
  EXPECT_EQ(fail[0].severity, Severity::kMedium);
  EXPECT_NE(fail[0].message.find("widgets.example.com CREATE, UPDATE in every namespace are "
                                 "rejected"),
            std::string::npos);
}

TEST(FailClosed, SharedResourcesAreHigh) {
  Bundle b = bundle_from(with(kPodWebhookNoSelector), "ops");
  auto findings = run_check(b, "webhook-fail-closed");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("(the API default)"), std::string::npos);
}

// Admission docs: mutating webhooks are called in series, validating ones in parallel; a
// reinvocable mutating webhook (reinvocationPolicy IfNeeded) may be called twice.
TEST(Latency, SeriesParallelAndReinvocation) {
  Bundle b = bundle_from(with(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: m}
webhooks:
- name: m1.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
  timeoutSeconds: 5
  reinvocationPolicy: IfNeeded
  failurePolicy: Ignore
- name: m2.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
  timeoutSeconds: 3
  failurePolicy: Ignore
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: v1.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
  timeoutSeconds: 7
  failurePolicy: Ignore
- name: v2.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
  timeoutSeconds: 4
)"),
                         "ops");
  Context ctx(b);
  AdmissionTrace t = trace_admission(ctx.admission, pod_create_request(ctx, "team-a"));
  ASSERT_EQ(t.mutating_webhooks.size(), 2u);
  ASSERT_EQ(t.validating_webhooks.size(), 2u);
  EXPECT_EQ(t.worst_seconds, 5 * 2 + 3 + 7);  // series, reinvoked twice; then the slowest validator
  ASSERT_EQ(t.fail_closed.size(), 1u);
  EXPECT_EQ(t.fail_closed[0]->name, "v2.example.com");
  auto latency = run_check(b, "webhook-added-latency");
  ASSERT_EQ(latency.size(), 4u);
  EXPECT_NE(latency[0].message.find("waits up to 5 s, or 10 s because reinvocationPolicy IfNeeded"),
            std::string::npos);
}

TEST(SelfDeadlock, FailClosedPodWebhookInItsOwnNamespace) {
  Bundle b = bundle_from(with(kPodWebhookNoSelector), "ops");
  auto findings = run_check(b, "webhook-self-deadlock");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("cannot come back"), std::string::npos);
  // Excluding the operator's own pods by label breaks the cycle.
  std::string excluded = kPodWebhookNoSelector;
  excluded +=
      "  objectSelector:\n    matchExpressions: [{key: app, operator: NotIn, values: "
      "[operator]}]\n";
  EXPECT_TRUE(run_check(bundle_from(with(excluded), "ops"), "webhook-self-deadlock").empty());
}

TEST(KubeSystem, FailIsCriticalIgnoreIsMedium) {
  Bundle b = bundle_from(with(kPodWebhookNoSelector), "ops");
  auto findings = run_check(b, "webhook-kube-system");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  std::string ignore = kPodWebhookNoSelector;
  ignore += "  failurePolicy: Ignore\n";
  auto soft = run_check(bundle_from(with(ignore), "ops"), "webhook-kube-system");
  ASSERT_EQ(soft.size(), 1u);
  EXPECT_EQ(soft[0].severity, Severity::kMedium);
}

TEST(ServiceChecks, MissingPortAndNoPods) {
  Bundle b = bundle_from(with(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: missing.example.com
  clientConfig: {service: {namespace: ops, name: operator-webhook-service}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]
- name: port.example.com
  clientConfig: {service: {namespace: ops, name: hooks, port: 8443}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]
  failurePolicy: Ignore
---
apiVersion: v1
kind: Service
metadata: {name: lonely, namespace: ops}
spec:
  selector: {app: nothing}
  ports: [{port: 443}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: m}
webhooks:
- name: nopods.example.com
  clientConfig: {service: {namespace: ops, name: lonely}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]
)"),
                         "ops");
  auto missing = run_check(b, "webhook-service-missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].severity, Severity::kHigh);
  auto ports = run_check(b, "webhook-service-port-mismatch");
  ASSERT_EQ(ports.size(), 2u);
  EXPECT_NE(ports[0].message.find("selects no pod template"), std::string::npos);
  EXPECT_NE(ports[1].message.find("port 8443 of Service ops/hooks, which exposes 443"),
            std::string::npos);
  EXPECT_EQ(ports[1].severity, Severity::kMedium);  // Ignore
}

TEST(CaInjection, EmptyCaBundleWithoutInjector) {
  std::string webhook = R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: noca.example.com
  clientConfig: {service: {namespace: ops, name: hooks}}
  rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]
)";
  auto findings = run_check(bundle_from(with(webhook), "ops"), "webhook-ca-not-injected");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  std::string annotated = webhook;
  annotated.replace(annotated.find("metadata: {name: v}"), 19,
                    "metadata: {name: v, annotations: {cert-manager.io/inject-ca-from: ops/cert}}");
  EXPECT_TRUE(run_check(bundle_from(with(annotated), "ops"), "webhook-ca-not-injected").empty());
}

TEST(UrlExternal, UrlClientConfig) {
  auto findings = run_check(bundle_from(with(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: remote.example.com
  clientConfig: {url: "https://policy.example.com/validate"}
  rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]
)"),
                                        "ops"),
                            "webhook-url-external");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("https://policy.example.com/validate"), std::string::npos);
}

}  // namespace
}  // namespace footprint
