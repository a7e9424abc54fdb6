#include "analysis/rbac.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::kRestrictedMode;
using testing::run_check;

// The cluster-wide mode adds a ClusterRole that lists Secrets everywhere, hiding the trap.
constexpr const char* kClusterWideGrant = R"(
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: manager}
rules:
- apiGroups: [""]
  resources: [secrets]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: manager}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: manager}
subjects:
- {kind: ServiceAccount, name: controller-manager, namespace: dynamo-system}
)";

// rbac docs, "Referring to resources": list/watch restricted by resourceNames need a
// metadata.name field selector, which an informer's list does not send.
TEST(ResourceNamesListWatch, HighWhenNothingElseAllowsTheList) {
  Bundle b = bundle_from(kRestrictedMode, "dynamo-system");
  auto findings = run_check(b, "rbac-resourcenames-list-watch");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_EQ(findings[0].object.name, "cert-rotator");
  EXPECT_EQ(findings[0].position.line, 10u);  // the rule, counted by hand
  EXPECT_NE(findings[0].message.find("the cache never syncs; controller-runtime managers exit; "
                                     "expect CrashLoopBackOff"),
            std::string::npos);
  EXPECT_NE(findings[0].message.find("ServiceAccount dynamo-system/controller-manager"),
            std::string::npos);
  EXPECT_NE(findings[0].remediation.find("footprint fix rbac"), std::string::npos);
}

TEST(ResourceNamesListWatch, LowWhenAnotherRuleCoversIt) {
  Bundle b = bundle_from(std::string(kRestrictedMode) + kClusterWideGrant, "dynamo-system");
  auto findings = run_check(b, "rbac-resourcenames-list-watch");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_NE(findings[0].message.find("ClusterRole manager through ClusterRoleBinding manager"),
            std::string::npos);
}

TEST(ResourceNamesListWatch, UnboundRoleIsLow) {
  Bundle b = bundle_from(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: a}\n"
      "rules:\n- apiGroups: ['']\n  resources: [configmaps]\n  resourceNames: [x]\n  verbs: "
      "[watch]\n");
  auto findings = run_check(b, "rbac-resourcenames-list-watch");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
}

// rbac docs: "You cannot restrict create or deletecollection requests by their resource name."
TEST(ResourceNamesCreate, FlagsCreateButNotSubresourceCreates) {
  Bundle b = bundle_from(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: a}\n"
      "rules:\n- apiGroups: ['']\n  resources: [secrets]\n  resourceNames: [s]\n  verbs: [get, "
      "create]\n- apiGroups: ['']\n  resources: [serviceaccounts/token]\n  resourceNames: [sa]\n"
      "  verbs: [create]\n");
  auto findings = run_check(b, "rbac-resourcenames-create");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].position.line, 5u);
  EXPECT_NE(findings[0].message.find("never allows it"), std::string::npos);
}

// rbac docs, "Role and ClusterRole": a Role sets permissions within a namespace; cluster-scoped
// resources need a ClusterRole. Validation rejects nonResourceURLs in a Role.
TEST(RoleClusterResource, NodesInARoleAndUrlsInARole) {
  Bundle b = bundle_from(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: a}\n"
      "rules:\n- apiGroups: ['']\n  resources: [nodes, pods]\n  verbs: [get]\n"
      "- nonResourceURLs: [/metrics]\n  verbs: [get]\n");
  auto findings = run_check(b, "rbac-role-cluster-resource");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  EXPECT_NE(findings[0].message.find("nodes, which is cluster-scoped"), std::string::npos);
  EXPECT_EQ(findings[1].severity, Severity::kHigh);
}

// evaluation_helpers.go: "pods/*" matches only a subresource literally named "*", and
// resourceNames compare by equality.
TEST(IneffectiveWildcard, SubresourceStarAndGlobNames) {
  Bundle b = bundle_from(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r}\n"
      "rules:\n- apiGroups: ['']\n  resources: ['pods/*']\n  verbs: [get]\n"
      "- apiGroups: [projectcalico.org]\n  resources: [networkpolicies]\n  resourceNames: "
      "['calico-system.*']\n  verbs: [get]\n- apiGroups: ['']\n  resources: ['*/scale', '*']\n"
      "  verbs: [get]\n");
  auto findings = run_check(b, "rbac-ineffective-wildcard");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  EXPECT_NE(findings[0].message.find("pods/*"), std::string::npos);
  EXPECT_EQ(findings[1].severity, Severity::kLow);  // an aggregated API may match itself
}

TEST(BindingMissingRole, MissingNamespaceMismatchAndBuiltins) {
  Bundle b = bundle_from(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: a}\n"
      "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: "
      "b1, namespace: b}\nroleRef: {kind: Role, name: r}\nsubjects: [{kind: ServiceAccount, "
      "name: s}]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\n"
      "metadata: {name: b2}\nroleRef: {kind: ClusterRole, name: nothing}\nsubjects: [{kind: "
      "ServiceAccount, name: s, namespace: a}]\n---\napiVersion: rbac.authorization.k8s.io/v1\n"
      "kind: ClusterRoleBinding\nmetadata: {name: b3}\nroleRef: {kind: ClusterRole, name: "
      "view}\nsubjects: [{kind: ServiceAccount, name: s, namespace: a}]\n---\n"
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: "
      "b4}\nroleRef: {kind: ClusterRole, name: 'system:auth-delegator'}\nsubjects: [{kind: "
      "ServiceAccount, name: s, namespace: a}]\n");
  auto missing = run_check(b, "rbac-binding-missing-role");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].object.name, "b2");
  auto mismatch = run_check(b, "rbac-role-namespace-mismatch");
  ASSERT_EQ(mismatch.size(), 1u);
  EXPECT_EQ(mismatch[0].object.name, "b1");
  EXPECT_NE(mismatch[0].message.find("exists only in namespace a"), std::string::npos);
}

TEST(BindingMissingSubject, SeverityFollowsTheNamespace) {
  Bundle b = bundle_from(
      "apiVersion: v1\nkind: Namespace\nmetadata: {name: fresh}\n---\n"
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: x}\n"
      "roleRef: {kind: ClusterRole, name: view}\nsubjects:\n"
      "- {kind: ServiceAccount, name: a, namespace: fresh}\n"
      "- {kind: ServiceAccount, name: b, namespace: rel}\n"
      "- {kind: ServiceAccount, name: c, namespace: elsewhere}\n- {kind: User, name: u}\n",
      "rel");
  auto findings = run_check(b, "rbac-binding-missing-subject");
  ASSERT_EQ(findings.size(), 3u);  // subjects a, b, c in order; the User is not checked
  EXPECT_EQ(findings[0].severity, Severity::kMedium);  // namespace created by the bundle
  EXPECT_EQ(findings[1].severity, Severity::kInfo);    // the release namespace
  EXPECT_EQ(findings[2].severity, Severity::kLow);     // some other namespace
}

constexpr const char* kPrivileged = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: power}
rules:
- apiGroups: [""]
  resources: [secrets]
  verbs: [list]
- apiGroups: [apps]
  resources: [deployments]
  verbs: [create]
- apiGroups: [""]
  resources: [pods/exec]
  verbs: [create]
- apiGroups: [admissionregistration.k8s.io]
  resources: [mutatingwebhookconfigurations]
  verbs: [patch]
- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  resourceNames: [widgets.example.com]
  verbs: [update]
- apiGroups: [rbac.authorization.k8s.io]
  resources: [clusterroles]
  verbs: [escalate]
- apiGroups: [example.com]
  resources: ["*"]
  verbs: ["*"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: power}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: power}
subjects:
- {kind: ServiceAccount, name: op, namespace: ops}
- {kind: Group, name: "system:authenticated"}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: admin-everything}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects:
- {kind: Group, name: "system:unauthenticated"}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: extra-view
  labels: {rbac.authorization.k8s.io/aggregate-to-view: "true"}
rules:
- apiGroups: [""]
  resources: [secrets]
  verbs: [get]
)";

TEST(PrivilegeChecks, EachRightIsNamed) {
  Bundle b = bundle_from(kPrivileged, "ops");
  // Both power and the cluster-admin binding grant these cluster-wide.
  auto secrets = run_check(b, "rbac-secrets-cluster-wide");
  ASSERT_EQ(secrets.size(), 2u);
  EXPECT_EQ(secrets[0].position.line, 6u);
  EXPECT_EQ(secrets[1].object.name, "admin-everything");
  EXPECT_EQ(run_check(b, "rbac-workload-create-cluster-wide").size(), 2u);
  auto exec = run_check(b, "rbac-pod-exec");
  ASSERT_EQ(exec.size(), 1u);
  EXPECT_EQ(exec[0].severity, Severity::kHigh);
  EXPECT_EQ(run_check(b, "rbac-webhook-config-write").size(), 1u);
  auto crd = run_check(b, "rbac-crd-write");
  ASSERT_EQ(crd.size(), 1u);
  EXPECT_NE(crd[0].message.find("Hidden footprint: it may rewrite the CRDs [widgets.example.com]"),
            std::string::npos);
  EXPECT_EQ(run_check(b, "rbac-privilege-escalation").size(), 1u);
  auto wildcard = run_check(b, "rbac-wildcard");
  ASSERT_EQ(wildcard.size(), 2u);
  EXPECT_EQ(wildcard[0].severity, Severity::kCritical);  // binds cluster-admin
  EXPECT_EQ(wildcard[1].severity, Severity::kMedium);    // "*" in one group only
  auto groups = run_check(b, "rbac-broad-group-binding");
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].severity, Severity::kHigh);
  EXPECT_EQ(groups[1].severity, Severity::kCritical);
  auto aggregate = run_check(b, "rbac-aggregates-to-default-roles");
  ASSERT_EQ(aggregate.size(), 1u);
  EXPECT_EQ(aggregate[0].severity, Severity::kHigh);  // grants every viewer secret reads
  EXPECT_NE(aggregate[0].message.find("every namespace viewer"), std::string::npos);
}

TEST(Expectations, UnmetExpectationIsAFindingAtItsLine) {
  Bundle b = bundle_from(kRestrictedMode, "dynamo-system");
  std::string path = (std::filesystem::temp_directory_path() / "footprint-expect.yaml").string();
  std::ofstream(path) << "- as: system:serviceaccount:dynamo-system:controller-manager\n"
                         "  verb: list\n  resource: secrets\n  namespace: dynamo-system\n"
                         "- as: system:serviceaccount:dynamo-system:controller-manager\n"
                         "  verb: get\n  resource: secrets\n  name: webhook-server-cert\n"
                         "  namespace: dynamo-system\n";
  auto expectations = load_expectations(path, b.resources);
  ASSERT_TRUE(expectations.has_value()) << expectations.error().to_string();
  ASSERT_EQ(expectations->size(), 2u);
  auto findings = run_check(b, "rbac-expectation-unmet", *expectations);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].file, path);
  EXPECT_EQ(findings[0].position.line, 1u);
  EXPECT_EQ(findings[0].object.kind, "ServiceAccount");
  EXPECT_NE(findings[0].message.find("only with resourceNames [webhook-server-cert]"),
            std::string::npos);
  std::filesystem::remove(path);
}

TEST(Permissions, SummaryPerServiceAccount) {
  Bundle b = bundle_from(std::string(kRestrictedMode) + kClusterWideGrant, "dynamo-system");
  RbacPolicy policy = RbacPolicy::build(b);
  auto summary = summarize_permissions(b, policy);
  ASSERT_EQ(summary.size(), 1u);
  const SubjectPermissions& p = summary[0];
  EXPECT_TRUE(p.created_by_bundle);
  EXPECT_EQ(p.cluster_roles, 1u);
  EXPECT_EQ(p.cluster_role_bindings, 1u);
  EXPECT_EQ(p.roles, 1u);
  EXPECT_EQ(p.role_bindings, 1u);
  ASSERT_EQ(p.grants.size(), 2u);
  EXPECT_EQ(p.grants[0].namespace_, "");  // cluster-wide first
  EXPECT_EQ(p.grants[0].risks, std::vector<std::string>{"reads secrets"});
  EXPECT_EQ(p.grants[1].namespace_, "dynamo-system");
  EXPECT_EQ(p.grants[1].resource_names, std::vector<std::string>{"webhook-server-cert"});
}

}  // namespace
}  // namespace footprint

namespace footprint {
namespace {

// Aggregating rights over the bundle's own custom resources into edit is the intended use.
TEST(AggregatesToDefaultRoles, OwnCustomResourcesAreLow) {
  Bundle b = testing::bundle_from(R"(
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
metadata:
  name: widget-editor
  labels: {rbac.authorization.k8s.io/aggregate-to-edit: "true"}
rules:
- apiGroups: [example.com]
  resources: [widgets]
  verbs: [create, update, delete]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: config-editor
  labels: {rbac.authorization.k8s.io/aggregate-to-edit: "true"}
rules:
- apiGroups: [""]
  resources: [configmaps]
  verbs: [update]
)");
  auto findings = testing::run_check(b, "rbac-aggregates-to-default-roles");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_NE(findings[0].message.find("every namespace editor"), std::string::npos);
  EXPECT_EQ(findings[1].severity, Severity::kMedium);
}

}  // namespace
}  // namespace footprint
