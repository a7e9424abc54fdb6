// rbac-aggregates-to-default-roles: ClusterRoles that extend the built-in admin, edit and view
// roles, alone and against the cluster snapshot of tests/data/cluster/.
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/analyze.h"
#include "analysis/check_testing.h"
#include "analysis/context.h"
#include "model/cluster.h"

namespace footprint {
namespace {

using testing::affects;
using testing::bundle_from;
using testing::ClusterChecks;
using testing::run_check;
using testing::says;

// team-a-devs is bound to the built-in edit role in team-a; the bundle's widgets-editor is
// labelled aggregate-to-edit, so they gain its rights there (and admins through admin, which
// aggregates edit: the bootstrap policy labels edit aggregate-to-admin).
TEST_F(ClusterChecks, AggregationNamesTheClustersSubjects) {
  std::vector<Finding> f = run_check(bundle, "rbac-aggregates-to-default-roles", {}, &cluster);
  ASSERT_EQ(f.size(), 1u);
  std::vector<std::string> gained = affects(f[0], "gained by");
  ASSERT_FALSE(gained.empty());
  EXPECT_NE(
      std::find(gained.begin(), gained.end(),
                "Group team-a-devs in team-a (RoleBinding team-a/developers-edit, role edit)"),
      gained.end());
  EXPECT_TRUE(
      affects(run_check(bundle, "rbac-aggregates-to-default-roles", {}, nullptr)[0], "gained by")
          .empty());
}

// Aggregating rights over the bundle's own custom resources into edit is the intended use.
// One finding per built-in role extended: what every holder of edit gains. Write access to a
// built-in resource (configmaps) is more than the own API alone (low): medium.
TEST(AggregatesToDefaultRoles, OneFindingPerExtendedRole) {
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
  name: widget-viewer
  labels: {rbac.authorization.k8s.io/aggregate-to-view: "true"}
rules:
- apiGroups: [example.com]
  resources: [widgets]
  verbs: [get, list]
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
  ASSERT_EQ(findings.size(), 2u);  // edit, then view
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  EXPECT_NE(findings[0].message.find("2 ClusterRoles (widget-editor, config-editor)"),
            std::string::npos);
  EXPECT_NE(findings[0].message.find("every namespace editor"), std::string::npos);
  EXPECT_EQ(findings[1].severity, Severity::kLow);  // read access to the own API
}

// The authorizer reads RoleBindings only for a request with a namespace (VisitRulesFor,
// pkg/registry/rbac/validation/rule.go), and a request for a cluster-scoped resource has none:
// a RoleBinding of edit never grants nodes or CRDs, whatever edit aggregates. A role that adds
// only such rules reaches only subjects with a ClusterRoleBinding of edit (none by default):
// low, and said so. Namespaced write access beside them keeps its medium, with the note.
TEST(AggregatesToDefaultRoles, ClusterScopedRulesReachOnlyClusterRoleBindings) {
  std::string cluster_only = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: op-nodes
  labels: {rbac.authorization.k8s.io/aggregate-to-edit: "true"}
rules:
- {apiGroups: [""], resources: [nodes], verbs: [get, list, watch]}
- {apiGroups: [apiextensions.k8s.io], resources: [customresourcedefinitions], verbs: [update]}
)";
  auto only = run_check(bundle_from(cluster_only), "rbac-aggregates-to-default-roles");
  ASSERT_EQ(only.size(), 1u);
  EXPECT_EQ(only[0].severity, Severity::kLow);
  EXPECT_TRUE(says(only[0], "reach only subjects with a ClusterRoleBinding of edit"));
  EXPECT_EQ(affects(only[0], "grants"), std::vector<std::string>{});

  std::string mixed =
      cluster_only + R"(- {apiGroups: [apps], resources: [deployments], verbs: [update]}
)";
  auto both = run_check(bundle_from(mixed), "rbac-aggregates-to-default-roles");
  ASSERT_EQ(both.size(), 1u);
  EXPECT_EQ(both[0].severity, Severity::kMedium);
  EXPECT_EQ(affects(both[0], "grants"), std::vector<std::string>{"update deployments"});
  EXPECT_TRUE(says(both[0], "reach only subjects with a ClusterRoleBinding of edit"));
}

// Scope is a property of each resource, not of a rule: one rule naming a namespaced and a
// cluster-scoped kind (kyverno's policies and clusterpolicies) grants a RoleBinding of view the
// first only, and a subresource has its parent's scope (a request for clusterpolicies/status
// carries no namespace, as for clusterpolicies, so it never reaches a RoleBinding: VisitRulesFor,
// pkg/registry/rbac/validation/rule.go). Only the namespaced part counts as gained.
TEST(AggregatesToDefaultRoles, ScopeIsPerResourceAndSubresource) {
  Bundle b = bundle_from(R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: policies.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Policy, plural: policies}
  versions: [{name: v1, served: true, storage: true}]
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: clusterpolicies.example.com}
spec:
  group: example.com
  scope: Cluster
  names: {kind: ClusterPolicy, plural: clusterpolicies}
  versions: [{name: v1, served: true, storage: true}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: policy-viewer
  labels: {rbac.authorization.k8s.io/aggregate-to-view: "true"}
rules:
- {apiGroups: [example.com], resources: [policies, clusterpolicies], verbs: [get, list]}
- {apiGroups: [example.com], resources: [clusterpolicies/status], verbs: [get]}
)");
  auto f = run_check(b, "rbac-aggregates-to-default-roles");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(affects(f[0], "grants"), std::vector<std::string>{"get/list policies"});
  EXPECT_EQ(affects(f[0], "cluster-scoped grants"),
            (std::vector<std::string>{"get/list clusterpolicies", "get clusterpolicies/status"}));
  EXPECT_FALSE(says(f[0], "gains: get/list policies, clusterpolicies"));
}

}  // namespace
}  // namespace footprint
