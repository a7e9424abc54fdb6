// RBAC rules that do not do what they say: resourceNames on create, cluster resources in a Role,
// wildcards that are literal.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analysis/check_testing.h"
#include "analysis/models/rbac_models.h"

namespace footprint {
namespace {

using testing::affects;
using testing::bundle_from;
using testing::cluster_role;
using testing::run_check;

// rbac docs: "You cannot restrict create or deletecollection requests by their resource name."
// An unbound role breaks nobody yet: low.
TEST(ResourceNamesCreate, FlagsCreateButNotSubresourceCreates) {
  Bundle b = bundle_from(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: a}\n"
      "rules:\n- apiGroups: ['']\n  resources: [secrets]\n  resourceNames: [s]\n  verbs: [get, "
      "create]\n- apiGroups: ['']\n  resources: [serviceaccounts/token]\n  resourceNames: [sa]\n"
      "  verbs: [create]\n");
  auto findings = run_check(b, "rbac-resourcenames-create");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].position.line, 5u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_NE(findings[0].message.find("never allows it"), std::string::npos);
}

// Before saying a request is forbidden, the check asks the authorizer: bound and uncovered, the
// create is forbidden (medium); covered by another rule of the same subject, dead code (info).
constexpr const char* kCreateWithNames = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: r, namespace: a}
rules:
- {apiGroups: [""], resources: [configmaps], resourceNames: [c], verbs: [get, create]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: r, namespace: a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}
subjects: [{kind: ServiceAccount, name: op, namespace: a}]
)";

TEST(ResourceNamesCreate, ForbiddenOnlyWhenNothingElseAllowsIt) {
  auto forbidden = run_check(bundle_from(kCreateWithNames), "rbac-resourcenames-create");
  ASSERT_EQ(forbidden.size(), 1u);
  EXPECT_EQ(forbidden[0].severity, Severity::kMedium);
  EXPECT_NE(forbidden[0].message.find("ServiceAccount a/op: create configmaps in a is forbidden"),
            std::string::npos);
  std::string covered = std::string(kCreateWithNames) + R"(---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: edit}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}
subjects: [{kind: ServiceAccount, name: op, namespace: a}]
)";
  auto dead = run_check(bundle_from(covered), "rbac-resourcenames-create");
  ASSERT_EQ(dead.size(), 1u);
  EXPECT_EQ(dead[0].severity, Severity::kInfo);
  EXPECT_NE(dead[0].message.find("ClusterRole edit (through ClusterRoleBinding edit)"),
            std::string::npos);
  // can-i agrees: the built-in edit role lets the account create configmaps in a.
  Bundle b = bundle_from(covered);
  EXPECT_TRUE(RbacPolicy::build(b)
                  .authorize(Identity::service_account("a", "op"),
                             Request{"create", "", "configmaps", "", "", "a", ""})
                  .allowed);
}

// rbac docs, "Role and ClusterRole": a Role sets permissions within a namespace; cluster-scoped
// resources need a ClusterRole. Validation rejects nonResourceURLs in a Role (high: the install
// fails). An unbound Role naming nodes grants nothing to nobody yet: low.
TEST(RoleClusterResource, NodesInARoleAndUrlsInARole) {
  Bundle b = bundle_from(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: a}\n"
      "rules:\n- apiGroups: ['']\n  resources: [nodes, pods]\n  verbs: [get]\n"
      "- nonResourceURLs: [/metrics]\n  verbs: [get]\n");
  auto findings = run_check(b, "rbac-role-cluster-resource");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_NE(findings[0].message.find("nodes, which is cluster-scoped"), std::string::npos);
  EXPECT_EQ(findings[1].severity, Severity::kHigh);
}

// Bound, the Role's nodes rule is forbidden unless a ClusterRoleBinding grants the same: then it
// is dead code (info), never "forbidden".
TEST(RoleClusterResource, CoverageDecidesForbiddenOrDead) {
  std::string role = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: r, namespace: a}
rules: [{apiGroups: [""], resources: [nodes], verbs: [get, list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: r, namespace: a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}
subjects: [{kind: ServiceAccount, name: op, namespace: a}]
)";
  auto forbidden = run_check(bundle_from(role), "rbac-role-cluster-resource");
  ASSERT_EQ(forbidden.size(), 1u);
  EXPECT_EQ(forbidden[0].severity, Severity::kMedium);
  EXPECT_NE(forbidden[0].message.find("is forbidden"), std::string::npos);
  std::string covered = role + R"(---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: nodes}
rules: [{apiGroups: [""], resources: [nodes], verbs: [get, list, watch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: nodes}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: nodes}
subjects: [{kind: ServiceAccount, name: op, namespace: a}]
)";
  auto dead = run_check(bundle_from(covered), "rbac-role-cluster-resource");
  ASSERT_EQ(dead.size(), 1u);
  EXPECT_EQ(dead[0].severity, Severity::kInfo);
  EXPECT_EQ(dead[0].message.find("forbidden"), std::string::npos);
  EXPECT_NE(dead[0].message.find("ClusterRole nodes (through ClusterRoleBinding nodes)"),
            std::string::npos);
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
  // projectcalico.org is neither built in nor a CRD here: an aggregated API server, whose own
  // authorization may ask for such names literally, so only info.
  EXPECT_EQ(findings[1].severity, Severity::kInfo);
}

// plugin/pkg/admission/certificates/util.go (IsAuthorizedForSignerName) asks the authorizer for
// approve or sign on signers named "<domain>/*" literally: such a resourceName works as written.
TEST(IneffectiveWildcard, SignerDomainWildcardIsLiteral) {
  Bundle b = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: approver}
rules:
- apiGroups: [certificates.k8s.io]
  resources: [signers]
  resourceNames: [example.com/*]
  verbs: [approve]
)");
  EXPECT_TRUE(run_check(b, "rbac-ineffective-wildcard").empty());
  // A custom verb is asked about only by the code that defines it, with names of its choosing:
  // cert-manager's approver checks approve on its own signers as "issuers.cert-manager.io/*".
  Bundle custom = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: approver}
rules:
- apiGroups: [cert-manager.io]
  resources: [signers]
  resourceNames: [issuers.cert-manager.io/*]
  verbs: [approve]
- apiGroups: [cert-manager.io]
  resources: [certificates]
  resourceNames: [team-*]
  verbs: [get]
)");
  auto findings = run_check(custom, "rbac-ineffective-wildcard");
  ASSERT_EQ(findings.size(), 1u);  // the get rule's glob only
  EXPECT_NE(findings[0].message.find("[team-*]"), std::string::npos);
  EXPECT_EQ(findings[0].message.find("issuers.cert-manager.io"), std::string::npos);
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
      affects(findings[0], "rules"),
      (std::vector<std::string>{"get, list, watch on nodes",
                                "get, update on customresourcedefinitions.apiextensions.k8s.io",
                                "get on clusterroles.rbac.authorization.k8s.io"}));
}

}  // namespace
}  // namespace footprint
