// RBAC findings whose claims a hand review found too strong (issue 31): each fixture is written
// here, and each verdict argued from the Kubernetes source or the project's documented behaviour.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

bool says(const Finding& f, std::string_view text) {
  return f.message.find(text) != std::string::npos;
}

std::vector<std::string> part(const Finding& f, std::string_view kind) {
  for (const auto& [k, items] : f.affects) {
    if (k == kind) return items;
  }
  return {};
}

// A ClusterRole bound cluster-wide to ServiceAccount op-system/op, with `rules` as written.
std::string cluster_role(std::string_view rules) {
  return fmt::format(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {{name: op}}
rules:
{}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {{name: op}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: op}}
subjects: [{{kind: ServiceAccount, name: op, namespace: op-system}}]
)",
                     rules);
}

// Calico's tiered policies: its API server asks the authorizer itself, through a
// SubjectAccessReview, for a verb on the pseudo-resource tier.networkpolicies with the name
// "<tier>.*" (Calico's documentation, "Configure RBAC for tiered policies", grants create that
// way). The kube-apiserver never receives a request for such a resource: a resource name with a
// dot is no plural any API serves (a CRD's plural must be a DNS-1035 label,
// ValidateCustomResourceDefinitionNames in apiextensions-apiserver's validation). Nothing is
// forbidden, so nothing is reported; a plain resource in the same shape still is.
TEST(ResourceNamesCreate, PseudoResourcesOfAnAggregatedServerAreNotClaimedForbidden) {
  std::string calico = cluster_role(R"(- apiGroups: [projectcalico.org]
  resources: [tier.networkpolicies, tier.globalnetworkpolicies]
  resourceNames: [calico-system.*]
  verbs: [get, list, watch, create, update, delete])");
  EXPECT_TRUE(run_check(bundle_from(calico), "rbac-resourcenames-create").empty());
  std::string plain = cluster_role(R"(- apiGroups: [""]
  resources: [configmaps]
  resourceNames: [op-state]
  verbs: [get, create, update])");
  auto findings = run_check(bundle_from(plain), "rbac-resourcenames-create");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  EXPECT_NE(findings[0].remediation.find("Move create to a rule without resourceNames"),
            std::string::npos);
}

// rbac docs: "You cannot restrict create or deletecollection requests by their resource name."
// Beside a rule that reads every CRD without names, a create in the rule that names the
// operator's CRD is a leftover the operator never issues: low, and the fix removes it. For
// CRDs and webhook configurations, create on every one of them is never the fix (it would let
// the operator change how the API server treats everyone's requests), even when nothing else
// is granted: the fix ships the objects in the chart.
TEST(ResourceNamesCreate, LeftoverCreateIsLowAndNeverWidenedOnCrdsOrWebhooks) {
  std::string crds = cluster_role(R"(- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  verbs: [get, list, watch]
- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  resourceNames: [widgets.example.com]
  verbs: [create, update, patch])");
  auto leftover = run_check(bundle_from(crds), "rbac-resourcenames-create");
  ASSERT_EQ(leftover.size(), 1u);
  EXPECT_EQ(leftover[0].severity, Severity::kLow);
  EXPECT_EQ(leftover[0].remediation, "Remove create from this rule.");
  std::string webhooks = cluster_role(R"(- apiGroups: [admissionregistration.k8s.io]
  resources: [validatingwebhookconfigurations]
  resourceNames: [op-validating]
  verbs: [create, get, update])");
  auto alone = run_check(bundle_from(webhooks), "rbac-resourcenames-create");
  ASSERT_EQ(alone.size(), 1u);
  EXPECT_EQ(alone[0].severity, Severity::kMedium);
  EXPECT_EQ(alone[0].remediation.find("Move create"), std::string::npos);
  EXPECT_NE(alone[0].remediation.find("ship them in the chart"), std::string::npos);
}

// update limited by resourceNames rewrites only the CRDs named (the authorizer compares names by
// equality, ResourceNameMatches in rbac's evaluation helpers), so the finding lists them instead
// of claiming any CRD. Gateway API's gateway.networking.k8s.io CRDs are shared by every
// controller that implements it: rewriting them is medium and named. A create rule without names
// lets it create any CRD, but rewrite only the named ones.
TEST(CrdWrite, NamedCrdsAreListedAndOtherProjectsFlagged) {
  std::string crd = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
---)";
  std::string own = crd + cluster_role(R"(- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  resourceNames: [widgets.example.com]
  verbs: [get, update, patch])");
  auto mine = run_check(bundle_from(own), "rbac-crd-write");
  ASSERT_EQ(mine.size(), 1u);
  EXPECT_EQ(mine[0].severity, Severity::kLow);
  EXPECT_TRUE(says(mine[0], "it may rewrite only the CRD widgets.example.com"));

  std::string shared = crd + cluster_role(R"(- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  verbs: [get, list, watch, create]
- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  resourceNames: [widgets.example.com, gateways.gateway.networking.k8s.io]
  verbs: [update])");
  auto both = run_check(bundle_from(shared), "rbac-crd-write");
  ASSERT_EQ(both.size(), 1u);
  EXPECT_EQ(both[0].severity, Severity::kMedium);
  EXPECT_FALSE(says(both[0], "rewrite any"));
  EXPECT_TRUE(says(both[0], "it may create any CustomResourceDefinition, and rewrite the 2 CRDs"));
  EXPECT_EQ(part(both[0], "other projects' CRDs"),
            std::vector<std::string>{"gateways.gateway.networking.k8s.io"});
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
  EXPECT_EQ(part(only[0], "grants"), std::vector<std::string>{});

  std::string mixed =
      cluster_only + R"(- {apiGroups: [apps], resources: [deployments], verbs: [update]}
)";
  auto both = run_check(bundle_from(mixed), "rbac-aggregates-to-default-roles");
  ASSERT_EQ(both.size(), 1u);
  EXPECT_EQ(both[0].severity, Severity::kMedium);
  EXPECT_EQ(part(both[0], "grants"), std::vector<std::string>{"update deployments"});
  EXPECT_TRUE(says(both[0], "reach only subjects with a ClusterRoleBinding of edit"));
}

// Deleting every namespace's pods in one request (deletecollection through a
// ClusterRoleBinding) stops every team's workloads: high. Events expire (the API server's
// --event-ttl defaults to one hour) and are not the incident record: low.
TEST(DestructiveDelete, PodsEverywhereAreHighAndEventsLow) {
  auto pods = run_check(bundle_from(cluster_role(
                            "- {apiGroups: [\"\"], resources: [pods], verbs: [deletecollection]}")),
                        "rbac-destructive-delete");
  ASSERT_EQ(pods.size(), 1u);
  EXPECT_EQ(pods[0].severity, Severity::kHigh);
  auto events = run_check(
      bundle_from(cluster_role("- {apiGroups: [\"\"], resources: [events], verbs: [delete]}")),
      "rbac-destructive-delete");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].severity, Severity::kLow);
}

// A version ConfigMap published on purpose to every authenticated user: reading one named
// object that is not a Secret reveals only that object. Low, and the fix says what removing
// the binding breaks. The same role without resourceNames reads every ConfigMap of the
// namespace: medium, as before.
TEST(BroadGroupBinding, OneNamedHarmlessObjectIsLow) {
  std::string published = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: version-reader, namespace: op-system}
rules: [{apiGroups: [""], resources: [configmaps], resourceNames: [op-version], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: version-reader, namespace: op-system}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: version-reader}
subjects: [{kind: Group, name: "system:authenticated", apiGroup: rbac.authorization.k8s.io}]
)";
  auto findings = run_check(bundle_from(published), "rbac-broad-group-binding");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_TRUE(says(findings[0], "configmaps op-version"));
  EXPECT_NE(findings[0].remediation.find("breaks every client that reads"), std::string::npos);
  std::string every = published;
  every.replace(every.find("resourceNames: [op-version], "), 29, "");
  auto wide = run_check(bundle_from(every), "rbac-broad-group-binding");
  ASSERT_EQ(wide.size(), 1u);
  EXPECT_EQ(wide[0].severity, Severity::kMedium);
}

// A Role written as a ClusterRole (a chart's namespace-restricted mode copies the global
// rules): its rules on cluster-scoped resources share one cause, so one finding lists them. Each
// is forbidden: the Role's RoleBinding is never read for a request without a namespace
// (VisitRulesFor).
TEST(RoleClusterResource, OneFindingPerRoleListsItsRules) {
  std::string role = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: manager, namespace: team-a}
rules:
- {apiGroups: [""], resources: [nodes], verbs: [get, list, watch]}
- {apiGroups: [""], resources: [pods], verbs: [get, list, watch]}
- {apiGroups: [apiextensions.k8s.io], resources: [customresourcedefinitions], verbs: [get, update]}
- {apiGroups: [rbac.authorization.k8s.io], resources: [clusterroles], verbs: [get]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: manager, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: manager}
subjects: [{kind: ServiceAccount, name: op, namespace: op-system}]
)";
  auto findings = run_check(bundle_from(role), "rbac-role-cluster-resource");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  EXPECT_EQ(
      part(findings[0], "rules"),
      (std::vector<std::string>{"get, list, watch on nodes",
                                "get, update on customresourcedefinitions.apiextensions.k8s.io",
                                "get on clusterroles.rbac.authorization.k8s.io"}));
}

}  // namespace
}  // namespace footprint
