// The permissions model: what each ServiceAccount may do, and the risk marks of its rights.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analysis/check_testing.h"
#include "analysis/models/rbac_models.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::kClusterWideGrant;
using testing::kRestrictedMode;

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

// The table's risk marks follow what the binding can grant: CRDs and webhook configurations are
// cluster-scoped, so a RoleBinding of the same ClusterRole marks neither (the RBAC authorizer
// consults RoleBindings only for requests in their namespace); get on pods/exec is exec on 1.34
// (WebSocket exec is authorized as get, KEP-4006).
TEST(Permissions, RiskMarksFollowTheBindingsScope) {
  constexpr const char* kRole = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: power}
rules:
- {apiGroups: [apiextensions.k8s.io], resources: [customresourcedefinitions], verbs: [create]}
- {apiGroups: [""], resources: [pods/exec], verbs: [get]}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: op, namespace: ops}
---
)";
  auto risks = [&](const char* binding) {
    Bundle b = bundle_from(std::string(kRole) + binding, "ops");
    RbacPolicy policy = RbacPolicy::build(b);
    std::vector<std::string> all;
    for (const SubjectPermissions& p : summarize_permissions(b, policy)) {
      for (const PermissionGrant& g : p.grants)
        all.insert(all.end(), g.risks.begin(), g.risks.end());
    }
    std::sort(all.begin(), all.end());
    return all;
  };
  EXPECT_EQ(risks(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: power}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: power}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)"),
            (std::vector<std::string>{"changes CRDs", "execs into pods"}));
  EXPECT_EQ(risks(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: power, namespace: ops}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: power}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)"),
            std::vector<std::string>{"execs into pods"});
}

// Every grant on a built-in resource carries the catalogue's consequence unless the catalogue
// calls it harmless: reading ConfigMaps is; patching one, or a Node (kubectl taint and cordon do),
// is not.
// Nodes are cluster-scoped, so a RoleBinding of the same rules grants nothing on them, while a
// RoleBinding does grant writes to the Services of its namespace.
TEST(Permissions, CatalogueMarksEveryRightThatIsNotHarmless) {
  PolicyRule rule;
  rule.api_groups = {""};
  rule.resources = {"configmaps", "nodes", "services"};
  rule.verbs = {"get", "patch"};
  EXPECT_EQ(catalog_marks(rule, true),
            (std::vector<std::string>{"rewrites ConfigMaps", "taints nodes", "redirects traffic"}));
  EXPECT_EQ(catalog_marks(rule, false),
            (std::vector<std::string>{"rewrites ConfigMaps", "redirects traffic"}));
  rule.verbs = {"get", "list", "watch"};
  EXPECT_TRUE(catalog_marks(rule, true).empty());
  // A rule limited to one lease still takes that lease.
  PolicyRule lease;
  lease.api_groups = {"coordination.k8s.io"};
  lease.resources = {"leases"};
  lease.resource_names = {"operator-lock"};
  lease.verbs = {"update"};
  EXPECT_EQ(catalog_marks(lease, false), std::vector<std::string>{"takes leases"});
}

}  // namespace
}  // namespace footprint
