#include "model/admission.h"

#include <gtest/gtest.h>

#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;

AdmissionRequest req(const char* op, const char* group, const char* version, const char* resource,
                     const char* ns, const char* sub = "") {
  AdmissionRequest r;
  r.operation = op;
  r.api_group = group;
  r.api_version = version;
  r.resource = resource;
  r.subresource = sub;
  r.namespace_ = ns;
  if (*ns) r.namespace_labels = {{"kubernetes.io/metadata.name", ns}};
  return r;
}

AdmissionRule rule(std::vector<std::string> resources, std::string scope = "*",
                   std::vector<std::string> groups = {"", "apps"},
                   std::vector<std::string> versions = {"v1"}) {
  return AdmissionRule{{"CREATE", "UPDATE"},
                       std::move(groups),
                       std::move(versions),
                       std::move(resources),
                       std::move(scope)};
}

// Resource matching, from the RuleWithOperations API reference and admission/plugin/webhook/
// predicates/rules/rules.go: "'*' means all resources, but not subresources. 'pods/*' means all
// subresources of pods. '*/scale' means all scale subresources. '*/*' means all resources and their
// subresources."
TEST(AdmissionRules, ResourcesAndSubresources) {
  AdmissionRequest pod = req("CREATE", "", "v1", "pods", "a");
  AdmissionRequest exec = req("CREATE", "", "v1", "pods", "a", "exec");
  AdmissionRequest scale = req("UPDATE", "apps", "v1", "deployments", "a", "scale");
  EXPECT_TRUE(rule_matches(rule({"*"}), pod, true));
  EXPECT_FALSE(rule_matches(rule({"*"}), exec, true));
  EXPECT_TRUE(rule_matches(rule({"*/*"}), exec, true));
  EXPECT_TRUE(rule_matches(rule({"pods/*"}), exec, true));
  // rules.go compares the subresource with `sub == "*" || sub == opSub`, so "pods/*" also
  // matches the pod itself (an empty subresource), whatever the API reference's wording.
  EXPECT_TRUE(rule_matches(rule({"pods/*"}), pod, true));
  EXPECT_TRUE(rule_matches(rule({"*/scale"}), scale, true));
  EXPECT_FALSE(rule_matches(rule({"*/scale"}), exec, true));
  EXPECT_TRUE(rule_matches(rule({"pods/exec"}), exec, true));
  EXPECT_FALSE(rule_matches(rule({"pods"}), exec, true));
}

// Operations, groups and versions ("*" is all); matchPolicy Equivalent converts the request to
// a version the rule lists (MatchResources reference), so the request's own version need not be
// listed.
TEST(AdmissionRules, OperationsGroupsVersions) {
  AdmissionRequest del = req("DELETE", "", "v1", "pods", "a");
  EXPECT_FALSE(rule_matches(rule({"pods"}), del, true));
  AdmissionRule all_ops = rule({"pods"});
  all_ops.operations = {"*"};
  EXPECT_TRUE(rule_matches(all_ops, del, true));
  AdmissionRequest beta = req("CREATE", "apps", "v1beta1", "deployments", "a");
  EXPECT_FALSE(rule_matches(rule({"deployments"}), beta, true));
  EXPECT_TRUE(rule_matches(rule({"deployments"}), beta, false));
  EXPECT_FALSE(rule_matches(rule({"deployments"}, "*", {"batch"}), beta, false));
  EXPECT_TRUE(rule_matches(rule({"deployments"}, "*", {"*"}), beta, false));
  // Equivalent tries the resource's equivalents, the versions it is registered in
  // (generic/webhook.go ShouldCallHook, EquivalentResourcesFor): a rule naming only versions
  // nobody serves, such as apps/v1beta1 deployments (removed in 1.16) on a 1.34 server, never
  // matches.
  AdmissionRequest v1 = req("CREATE", "apps", "v1", "deployments", "a");
  v1.served_versions = {"v1"};
  EXPECT_FALSE(rule_matches(rule({"deployments"}, "*", {"apps"}, {"v1beta1"}), v1, false));
  EXPECT_TRUE(rule_matches(rule({"deployments"}, "*", {"apps"}, {"v1beta1", "v1"}), v1, false));
}

// scope: "Cluster" matches only cluster-scoped resources, and Namespace objects are
// cluster-scoped; "Namespaced" only namespaced ones (RuleWithOperations reference).
TEST(AdmissionRules, Scope) {
  AdmissionRequest node = req("CREATE", "", "v1", "nodes", "");
  AdmissionRequest ns = req("CREATE", "", "v1", "namespaces", "team-a");
  AdmissionRequest pod = req("CREATE", "", "v1", "pods", "team-a");
  AdmissionRule cluster = rule({"*"}, "Cluster");
  AdmissionRule namespaced = rule({"*"}, "Namespaced");
  EXPECT_TRUE(rule_matches(cluster, node, true));
  EXPECT_TRUE(rule_matches(cluster, ns, true));
  EXPECT_FALSE(rule_matches(cluster, pod, true));
  EXPECT_FALSE(rule_matches(namespaced, ns, true));
  EXPECT_TRUE(rule_matches(namespaced, pod, true));
}

constexpr const char* kWebhooks = R"yaml(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: b-config}
webhooks:
- name: v1.example.com
  clientConfig: {service: {namespace: ops, name: hooks}}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: ["*"]}]
  namespaceSelector:
    matchExpressions: [{key: team, operator: In, values: [a]}]
  objectSelector:
    matchLabels: {inject: "true"}
---
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingWebhookConfiguration
metadata: {name: z-old}
webhooks:
- name: old.example.com
  clientConfig: {url: "https://hooks.example.com/m"}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: a-config}
webhooks:
- name: first.example.com
  clientConfig: {service: {namespace: ops, name: hooks, port: 8443}}
  rules: [{operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"]}]
  reinvocationPolicy: IfNeeded
  timeoutSeconds: 3
  failurePolicy: Ignore
  matchConditions:
  - {name: not-system, expression: "!request.userInfo.username.startsWith('system:')"
}
)yaml";

// Defaults: admissionregistration v1 failurePolicy Fail, timeoutSeconds 10, matchPolicy
// Equivalent; v1beta1 Ignore, 30, Exact, sideEffects Unknown (API references of both versions).
TEST(AdmissionModel, DefaultsPerVersionAndCallOrder) {
  Bundle b = bundle_from(kWebhooks);
  Admission a = read_admission(b);
  ASSERT_EQ(a.webhooks.size(), 3u);
  // Mutating before validating; configurations in name order (a-config before z-old).
  EXPECT_EQ(a.webhooks[0].name, "first.example.com");
  EXPECT_EQ(a.webhooks[1].name, "old.example.com");
  EXPECT_EQ(a.webhooks[2].name, "v1.example.com");
  const AdmissionWebhook& v1 = a.webhooks[2];
  EXPECT_EQ(v1.failure_policy, FailurePolicy::kFail);
  EXPECT_TRUE(v1.failure_policy_defaulted);
  EXPECT_EQ(v1.timeout_seconds, 10);
  EXPECT_FALSE(v1.exact_match_policy);
  const AdmissionWebhook& beta = a.webhooks[1];
  EXPECT_EQ(beta.failure_policy, FailurePolicy::kIgnore);
  EXPECT_EQ(beta.timeout_seconds, 30);
  EXPECT_TRUE(beta.exact_match_policy);
  EXPECT_EQ(beta.side_effects, "Unknown");
  EXPECT_EQ(beta.client.url, "https://hooks.example.com/m");
  const AdmissionWebhook& first = a.webhooks[0];
  EXPECT_TRUE(first.reinvoked_if_needed);
  EXPECT_EQ(first.timeout_seconds, 3);
  EXPECT_EQ(first.client.port, 8443);
  ASSERT_EQ(first.match_conditions.size(), 1u);
  EXPECT_EQ(first.match_conditions[0].name, "not-system");
}

// namespaceSelector: "If the object is another cluster scoped resource, it never skips the
// webhook" (ValidatingWebhook API reference; MatchNamespaceSelector in
// apiserver/pkg/admission/plugin/webhook/predicates/namespace/matcher.go). objectSelector
// matches the object's labels.
TEST(AdmissionModel, SelectorsAndClusterScopedRequests) {
  Bundle b = bundle_from(kWebhooks);
  Admission a = read_admission(b);
  const AdmissionWebhook& v1 = a.webhooks[2];
  AdmissionRequest pod = req("CREATE", "", "v1", "pods", "a");
  pod.namespace_labels = {{"team", "a"}};
  EXPECT_FALSE(webhook_matches(v1, pod));  // object lacks inject=true
  pod.object_labels = {{"inject", "true"}};
  EXPECT_TRUE(webhook_matches(v1, pod));
  pod.namespace_labels = {{"team", "b"}};
  EXPECT_FALSE(webhook_matches(v1, pod));
  AdmissionRequest node = req("CREATE", "", "v1", "nodes", "");
  node.object_labels = {{"inject", "true"}};
  EXPECT_TRUE(webhook_matches(v1, node));  // the namespaceSelector does not apply
}

// For CREATE and UPDATE of a Namespace object, the namespaceSelector is evaluated on the labels
// of the object in the request (GetNamespaceLabels in
// apiserver/pkg/admission/plugin/webhook/predicates/namespace/matcher.go: the lister does not
// have the new namespace yet); for DELETE, on the stored namespace's labels.
TEST(AdmissionModel, NamespaceWritesMatchTheirOwnLabels) {
  Bundle b = bundle_from(kWebhooks);
  Admission a = read_admission(b);
  const AdmissionWebhook& v1 = a.webhooks[2];  // namespaceSelector team In [a], inject=true
  AdmissionRequest ns = req("CREATE", "", "v1", "namespaces", "");
  ns.object_labels = {{"inject", "true"}, {"team", "a"}};
  ns.namespace_labels = {{"team", "b"}};  // what `--ns-labels` would give: not consulted
  EXPECT_TRUE(webhook_matches(v1, ns));
  ns.operation = "UPDATE";
  AdmissionRule update_too = v1.rules[0];
  update_too.operations = {"*"};
  AdmissionWebhook any_op = v1;
  any_op.rules = {update_too};
  EXPECT_TRUE(webhook_matches(any_op, ns));
  ns.object_labels = {{"inject", "true"}, {"team", "b"}};
  EXPECT_FALSE(webhook_matches(any_op, ns));
  // DELETE: the request carries DeleteOptions, so the stored namespace's labels count.
  ns.operation = "DELETE";
  ns.namespace_labels = {{"team", "a"}};
  EXPECT_TRUE(webhook_matches(any_op, ns));
}

// predicates/object/matcher.go matches a non-empty objectSelector against the request's object
// and old object through their metadata; a CONNECT request (pods/exec, pods/portforward)
// carries only its options, which have none, so such a webhook is never called for CONNECT.
TEST(AdmissionModel, ConnectNeverMatchesAnObjectSelector) {
  AdmissionWebhook w;
  w.rules = {AdmissionRule{{"CONNECT"}, {""}, {"v1"}, {"pods/exec"}, "*"}};
  AdmissionRequest exec = req("CONNECT", "", "v1", "pods", "a", "exec");
  exec.object_labels = {{"inject", "true"}};
  EXPECT_TRUE(webhook_matches(w, exec));
  w.object_selector.requirements = {{"inject", LabelRequirement::Op::kIn, {"true"}}};
  EXPECT_FALSE(webhook_matches(w, exec));
}

// generic/webhook.go Dispatch returns early when rules.IsExemptAdmissionConfigurationResource
// (predicates/rules/rules.go): webhook configurations and admission policies and their bindings
// are never sent to a webhook, whatever its rules say, so that a broken webhook can be removed.
TEST(AdmissionModel, AdmissionConfigurationIsNeverSentToWebhooks) {
  AdmissionWebhook w;
  w.rules = {AdmissionRule{{"*"}, {"*"}, {"*"}, {"*/*"}, "*"}};
  for (const char* resource : {"validatingwebhookconfigurations", "mutatingwebhookconfigurations",
                               "validatingadmissionpolicies", "validatingadmissionpolicybindings",
                               "mutatingadmissionpolicies", "mutatingadmissionpolicybindings"}) {
    AdmissionRequest r = req("DELETE", "admissionregistration.k8s.io", "v1", resource, "");
    EXPECT_FALSE(webhook_matches(w, r)) << resource;
  }
  EXPECT_TRUE(
      webhook_matches(w, req("DELETE", "admissionregistration.k8s.io", "v1", "somethingelse", "")));
}

// A ValidatingAdmissionPolicy acts only through a binding; the binding's matchResources narrow
// the policy's matchConstraints, and excludeResourceRules win over resourceRules.
TEST(AdmissionModel, PoliciesNeedBindings) {
  Bundle b = bundle_from(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replicas}
spec:
  failurePolicy: Ignore
  matchConstraints:
    resourceRules:
    - {operations: [CREATE, UPDATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments, statefulsets]}
    excludeResourceRules:
    - {operations: ["*"], apiGroups: [apps], apiVersions: [v1], resources: [statefulsets]}
  validations: [{expression: "object.spec.replicas <= 5"}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: replicas-team-a}
spec:
  policyName: replicas
  validationActions: [Deny]
  matchResources:
    namespaceSelector: {matchLabels: {team: a}}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: unbound}
spec:
  matchConstraints:
    resourceRules:
    - {operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"]}
)");
  Admission a = read_admission(b);
  ASSERT_EQ(a.policies.size(), 2u);
  const AdmissionPolicy& bound = a.policies[0];
  EXPECT_EQ(bound.binding->name, "replicas-team-a");
  EXPECT_EQ(bound.failure_policy, FailurePolicy::kIgnore);
  EXPECT_EQ(bound.validation_actions, std::vector<std::string>{"Deny"});
  AdmissionRequest deploy = req("CREATE", "apps", "v1", "deployments", "x");
  deploy.namespace_labels = {{"team", "a"}};
  EXPECT_TRUE(policy_matches(bound, deploy));
  AdmissionRequest sts = req("CREATE", "apps", "v1", "statefulsets", "x");
  sts.namespace_labels = {{"team", "a"}};
  EXPECT_FALSE(policy_matches(bound, sts));
  deploy.namespace_labels = {{"team", "b"}};
  EXPECT_FALSE(policy_matches(bound, deploy));
  EXPECT_EQ(a.policies[1].binding, nullptr);
  EXPECT_FALSE(policy_matches(a.policies[1], deploy));
}

TEST(AdmissionModel, DescribeRules) {
  EXPECT_EQ(describe_rules({rule({"pods"}, "*", {""})}), "pods CREATE, UPDATE");
  EXPECT_EQ(describe_rules({rule({"*/*"}, "*", {"*"})}),
            "all resources and subresources (all groups) CREATE, UPDATE");
  EXPECT_EQ(describe_rules({rule({"deployments"}, "*", {"apps"})}),
            "deployments.apps CREATE, UPDATE");
}

}  // namespace
}  // namespace footprint
