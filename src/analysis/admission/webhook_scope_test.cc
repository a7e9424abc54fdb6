// The webhook scope checks: what a webhook intercepts outside the operator, fail-closed backends,
// added latency, self-deadlock and kube-system.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/check_testing.h"
#include "analysis/context.h"
#include "analysis/models/webhook_reach.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;
using testing::with_webhook_operator;

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

// The field report's cluster-wide mode: mpodcheckpointrestore.kb.io, a mutating pod CREATE
// webhook with failurePolicy Ignore and no selector. Every team's pods pass through the
// operator, which may change them: high. Ignore means a dead backend does not block them.
TEST(InterceptsShared, MutatingPodWebhookWithoutSelectorIsHigh) {
  std::string w = kPodWebhookNoSelector;
  w += "  failurePolicy: Ignore\n";
  Bundle b = bundle_from(with_webhook_operator(w), "ops");
  auto findings = run_check(b, "webhook-intercepts-shared-resources");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  // The default set: default, kube-node-lease, kube-public, kube-system, ops, other-team; ops
  // is the operator's, and the system namespaces are the cluster's own (webhook-kube-system).
  EXPECT_NE(findings[0].message.find("in every namespace other teams use (default, other-team)"),
            std::string::npos)
      << findings[0].message;
  EXPECT_NE(findings[0].message.find("neither a namespaceSelector nor an objectSelector"),
            std::string::npos);
  EXPECT_EQ(findings[0].summary,
            "Mutating webhook mpod.example.com sees every pod created in every namespace other "
            "teams use");
  EXPECT_TRUE(run_check(b, "webhook-fail-closed").empty());
}

// A validating webhook can reject other teams' pods but not change them: medium.
TEST(InterceptsShared, ValidatingPodWebhookIsMedium) {
  std::string w = kPodWebhookNoSelector;
  w.replace(w.find("MutatingWebhookConfiguration"), 28, "ValidatingWebhookConfiguration");
  w += "  failurePolicy: Ignore\n";
  auto findings = run_check(bundle_from(with_webhook_operator(w), "ops"),
                            "webhook-intercepts-shared-resources");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
}

// Exclusion-only selectors still match every unlabelled namespace (labels docs: NotIn selects
// objects without the key), as kueue's mpod.kb.io.
TEST(InterceptsShared, ExclusionOnlySelectorIsStillEveryTeam) {
  std::string w = kPodWebhookNoSelector;
  w += "  namespaceSelector:\n    matchExpressions: [{key: kubernetes.io/metadata.name, operator: "
       "NotIn, values: [kube-system, ops]}]\n";
  Bundle b = bundle_from(with_webhook_operator(w), "ops");
  auto findings = run_check(b, "webhook-intercepts-shared-resources");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("only excludes"), std::string::npos);
  EXPECT_TRUE(run_check(b, "webhook-kube-system").empty());
}

// Selectors that require a label reach only the teams that opt in (jobset, lws, istio and
// kserve pod webhooks): low. Webhooks on the operator's own CRD concern only its users.
TEST(InterceptsShared, OptInIsLowAndOwnResourcesAreSilent) {
  std::string opt_in = kPodWebhookNoSelector;
  opt_in += "  objectSelector: {matchLabels: {inject: enabled}}\n";
  Bundle b = bundle_from(with_webhook_operator(opt_in), "ops");
  auto findings = run_check(b, "webhook-intercepts-shared-resources");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_NE(findings[0].message.find("for objects labelled inject=enabled"), std::string::npos);
  // Fail-closed, but only for objects whose owners opted in: medium.
  auto fail = run_check(b, "webhook-fail-closed");
  ASSERT_EQ(fail.size(), 1u);
  EXPECT_EQ(fail[0].severity, Severity::kMedium);

  Bundle own = bundle_from(with_webhook_operator(R"(
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
  // Admission docs, failure policy: with Fail (the v1 default), errors calling the webhook reject
  // the request. For the operator's own resources that is the usual kubebuilder pattern: low.
  auto own_fail = run_check(own, "webhook-fail-closed");
  ASSERT_EQ(own_fail.size(), 1u);
  EXPECT_EQ(own_fail[0].severity, Severity::kLow);
  EXPECT_NE(own_fail[0].message.find("widgets.example.com CREATE/UPDATE"), std::string::npos);
}

// A webhook pinned to the operator's namespaces (kubernetes.io/metadata.name of the target
// namespace, as the field report's restricted mode does) is not in other teams' path.
TEST(InterceptsShared, ScopedToTheOperatorsNamespacesIsNotShared) {
  std::string w = kPodWebhookNoSelector;
  w += "  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: team-a}}\n";
  std::string role = R"(
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: manager, namespace: team-a}
rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
)";
  Bundle b = bundle_from(with_webhook_operator(w) + role, "ops");
  EXPECT_TRUE(run_check(b, "webhook-intercepts-shared-resources").empty());
  EXPECT_TRUE(run_check(b, "webhook-kube-system").empty());
  // Without anything of the bundle in team-a, it is another team's namespace.
  EXPECT_EQ(
      run_check(bundle_from(with_webhook_operator(w), "ops"), "webhook-intercepts-shared-resources")
          .size(),
      1u);
}

// Fail-closed interception of pod creation in other teams' namespaces stops every team from
// starting anything while the backend is down: critical (docs/checks.md).
TEST(FailClosed, PodCreationInOtherTeamsNamespacesIsCritical) {
  Bundle b = bundle_from(with_webhook_operator(kPodWebhookNoSelector), "ops");
  auto findings = run_check(b, "webhook-fail-closed");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  EXPECT_NE(findings[0].message.find("(the API default)"), std::string::npos);
  EXPECT_NE(findings[0].message.find("other teams cannot start pods"), std::string::npos);
}

// Without -n the release namespace is `default`, but an operator whose objects all name their
// own namespace (ops) does not live there: `default` stays a namespace other teams use.
TEST(FailClosed, DefaultIsOtherTeamsUnlessTheBundleLandsThere) {
  Bundle b = bundle_from(with_webhook_operator(kPodWebhookNoSelector), "default");
  auto findings = run_check(b, "webhook-fail-closed");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("namespace other teams use (default, "), std::string::npos)
      << findings[0].message;
}

// Other shared built-ins block other teams' changes of those resources: high.
TEST(FailClosed, OtherBuiltinsAreHigh) {
  auto findings = run_check(bundle_from(with_webhook_operator(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: cm}
webhooks:
- name: vcm.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE, UPDATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
  namespaceSelector:
    matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]
)"),
                                        "ops"),
                            "webhook-fail-closed");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
}

// A namespaceSelector never exempts a request for a cluster-scoped resource other than a
// Namespace (MatchNamespaceSelector in apiserver/pkg/admission/plugin/webhook/predicates/
// namespace/matcher.go): an opt-in namespace label does not scope a webhook on ClusterRoles, so
// every team's ClusterRole creation fails while the backend is down (high, not the opt-in medium).
TEST(FailClosed, NamespaceSelectorDoesNotScopeClusterScopedResources) {
  auto findings = run_check(bundle_from(with_webhook_operator(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: roles}
webhooks:
- name: vroles.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [rbac.authorization.k8s.io], apiVersions: [v1], resources: [clusterroles]}]
  namespaceSelector: {matchLabels: {team: a}}
)"),
                                        "ops"),
                            "webhook-fail-closed");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_EQ(findings[0].message.find("opt in"), std::string::npos);
  EXPECT_NE(findings[0].message.find("cluster-wide"), std::string::npos);
  // An objectSelector does apply to cluster-scoped objects: that one is opt-in.
  auto labelled = run_check(bundle_from(with_webhook_operator(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: roles}
webhooks:
- name: vroles.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [rbac.authorization.k8s.io], apiVersions: [v1], resources: [clusterroles]}]
  objectSelector: {matchLabels: {team: a}}
)"),
                                        "ops"),
                            "webhook-fail-closed");
  ASSERT_EQ(labelled.size(), 1u);
  EXPECT_EQ(labelled[0].severity, Severity::kMedium);
}

// One finding per backend: webhooks of two configurations served by one Service share one
// failure, and the finding lists all of them (kueue has 36 behind one Service).
TEST(FailClosed, OneFindingPerBackendListsEveryWebhook) {
  Bundle b = bundle_from(with_webhook_operator(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: m}
webhooks:
- name: mpod.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
- name: mjob.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [batch], apiVersions: [v1], resources: [jobs]}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: vpod.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
- name: vwidget.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]
)"),
                         "ops");
  auto findings = run_check(b, "webhook-fail-closed");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  ASSERT_FALSE(findings[0].affects.empty());
  // affects names the webhooks the severity is about, then the backend's others, whose requests
  // its outage rejects too.
  ASSERT_GE(findings[0].affects.size(), 2u);
  EXPECT_EQ(findings[0].affects[0].first, "webhooks");
  EXPECT_EQ(findings[0].affects[0].second,
            (std::vector<std::string>{"mpod.example.com", "mjob.example.com", "vpod.example.com"}));
  EXPECT_EQ(findings[0].affects[1].first, "same backend");
  EXPECT_EQ(findings[0].affects[1].second, (std::vector<std::string>{"vwidget.example.com"}));
  // No selector: every namespace of the default set but the operator's (ops) and the system ones,
  // which webhook-kube-system judges. The HTML matrix highlights these cells.
  auto others = std::find_if(findings[0].affects.begin(), findings[0].affects.end(),
                             [](const auto& a) { return a.first == "other teams' namespaces"; });
  ASSERT_NE(others, findings[0].affects.end());
  EXPECT_EQ(others->second, (std::vector<std::string>{"default", "other-team"}));
  // The message is about the worst three; the own-resource one is only listed.
  EXPECT_NE(findings[0].message.find("3 webhooks (mpod.example.com, mjob.example.com, "
                                     "vpod.example.com)"),
            std::string::npos);
}

// Admission docs: mutating webhooks are called in series, validating ones in parallel; a
// reinvocable mutating webhook (reinvocationPolicy IfNeeded) may be called twice.
TEST(Latency, SeriesParallelAndReinvocation) {
  Bundle b = bundle_from(with_webhook_operator(R"(
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
  AdmissionTrace t = trace_admission(ctx.admission, pod_create_request(ctx.namespaces, "team-a"));
  ASSERT_EQ(t.mutating_webhooks.size(), 2u);
  ASSERT_EQ(t.validating_webhooks.size(), 2u);
  EXPECT_EQ(t.worst_seconds, 5 * 2 + 3 + 7);  // series, reinvoked twice; then the slowest validator
  ASSERT_EQ(t.fail_closed.size(), 1u);
  EXPECT_EQ(t.fail_closed[0]->name, "v2.example.com");
  // One finding for the chain, not one per webhook; 20 s is under half of the API server's
  // default 60 s request timeout: low.
  auto latency = run_check(b, "webhook-added-latency");
  ASSERT_EQ(latency.size(), 1u);
  EXPECT_EQ(latency[0].severity, Severity::kLow);
  EXPECT_NE(latency[0].message.find("waits up to 20 s"), std::string::npos);
}

// kube-apiserver's --request-timeout defaults to 60 s: a chain whose worst case reaches it fails
// the request even with failurePolicy Ignore. Two reinvocable 30 s webhooks: 2 x 2 x 30 = 120 s.
TEST(Latency, ChainOverTheRequestTimeoutIsHigh) {
  std::string hook = R"(
- name: NAME
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
  timeoutSeconds: 30
  reinvocationPolicy: IfNeeded
  failurePolicy: Ignore)";
  std::string config =
      "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\n"
      "metadata: {name: m}\nwebhooks:";
  for (const char* name : {"a.example.com", "b.example.com"}) {
    std::string h = hook;
    h.replace(h.find("NAME"), 4, name);
    config += h;
  }
  auto latency =
      run_check(bundle_from(with_webhook_operator(config + "\n"), "ops"), "webhook-added-latency");
  ASSERT_EQ(latency.size(), 1u);
  EXPECT_EQ(latency[0].severity, Severity::kHigh);
  EXPECT_NE(latency[0].message.find("120 s"), std::string::npos);
}

TEST(SelfDeadlock, FailClosedPodWebhookInItsOwnNamespace) {
  Bundle b = bundle_from(with_webhook_operator(kPodWebhookNoSelector), "ops");
  auto findings = run_check(b, "webhook-self-deadlock");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("cannot come back"), std::string::npos);
  // Excluding the operator's own pods by label breaks the cycle.
  std::string excluded = kPodWebhookNoSelector;
  excluded +=
      "  objectSelector:\n    matchExpressions: [{key: app, operator: NotIn, values: "
      "[operator]}]\n";
  EXPECT_TRUE(
      run_check(bundle_from(with_webhook_operator(excluded), "ops"), "webhook-self-deadlock")
          .empty());
}

// kube-system's own components create pods (DNS, CNI, kube-proxy) and renew leader-election
// leases there: fail-closed webhooks on those make an operator outage a cluster outage
// (critical); on other component writes, high; fail-open ones only add latency (low).
TEST(KubeSystem, SeverityFollowsWhatTheComponentsNeed) {
  Bundle b = bundle_from(with_webhook_operator(kPodWebhookNoSelector), "ops");
  auto findings = run_check(b, "webhook-kube-system");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  // The consequence names only what the matched requests block: a webhook on pod creation
  // says nothing of leases or tokens, which it never sees.
  EXPECT_NE(findings[0].message.find("cannot start pods"), std::string::npos);
  EXPECT_EQ(findings[0].message.find("leases"), std::string::npos);
  EXPECT_EQ(findings[0].message.find("tokens"), std::string::npos);
  std::string ignore = kPodWebhookNoSelector;
  ignore += "  failurePolicy: Ignore\n";
  auto soft = run_check(bundle_from(with_webhook_operator(ignore), "ops"), "webhook-kube-system");
  ASSERT_EQ(soft.size(), 1u);
  EXPECT_EQ(soft[0].severity, Severity::kLow);
  // With Ignore, a backend with no endpoints is skipped at once; only a hung one costs time.
  EXPECT_NE(soft[0].summary.find("hangs"), std::string::npos);
  EXPECT_EQ(soft[0].summary.find("is down"), std::string::npos);
  auto leases = run_check(bundle_from(with_webhook_operator(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: leases.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [UPDATE], apiGroups: [coordination.k8s.io], apiVersions: [v1], resources: [leases]}]
- name: cm.example.com
  clientConfig: {service: {namespace: other, name: hooks2}, caBundle: LS0tCg==}
  rules: [{operations: [UPDATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
)"),
                                      "ops"),
                          "webhook-kube-system");
  ASSERT_EQ(leases.size(), 2u);  // one per backend
  EXPECT_EQ(leases[0].severity, Severity::kCritical);
  EXPECT_NE(leases[0].message.find("leases.coordination.k8s.io UPDATE"), std::string::npos);
  EXPECT_NE(leases[0].message.find("cannot renew their leader-election leases"), std::string::npos);
  EXPECT_EQ(leases[0].message.find("start pods"), std::string::npos);
  EXPECT_EQ(leases[1].severity, Severity::kHigh);
  // Every kubelet renews its Lease in kube-node-lease and updates its Node's status (node
  // heartbeats, kubelet nodelease controller); rejected, the node lifecycle controller marks the
  // nodes NotReady and evicts their pods. Fail-closed on those is critical even with kube-system
  // excluded, and the fix names kube-node-lease and the Nodes.
  auto heartbeats = run_check(bundle_from(with_webhook_operator(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: heartbeat.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules:
  - {operations: [UPDATE], apiGroups: [coordination.k8s.io], apiVersions: [v1], resources: [leases]}
  - {operations: [UPDATE], apiGroups: [""], apiVersions: [v1], resources: [nodes/status]}
  namespaceSelector:
    matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]
)"),
                                          "ops"),
                              "webhook-kube-system");
  ASSERT_EQ(heartbeats.size(), 1u);
  EXPECT_EQ(heartbeats[0].severity, Severity::kCritical);
  EXPECT_NE(heartbeats[0].message.find("renew node heartbeats"), std::string::npos)
      << heartbeats[0].message;
  EXPECT_NE(heartbeats[0].message.find("nodes/status UPDATE"), std::string::npos);
  EXPECT_NE(heartbeats[0].remediation.find("values: [kube-node-lease]"), std::string::npos)
      << heartbeats[0].remediation;
  EXPECT_NE(heartbeats[0].remediation.find("Take nodes/status out of the rules"),
            std::string::npos);
  // A webhook whose rules kube-system's requests never match is not reported, even unscoped.
  auto own = run_check(bundle_from(with_webhook_operator(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: vwidget.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]
)"),
                                   "ops"),
                       "webhook-kube-system");
  EXPECT_TRUE(own.empty());
}

}  // namespace
}  // namespace footprint
