#include "analysis/compare/compare.h"

#include <gtest/gtest.h>

#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;

constexpr const char* kClusterWide = R"(
apiVersion: v1
kind: ServiceAccount
metadata: {name: op, namespace: ops}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: op}
rules: [{apiGroups: [""], resources: [secrets], verbs: [list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: op}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: op}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: m}
webhooks:
- name: mpod.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
)";

constexpr const char* kRestrictedInstall = R"(
apiVersion: v1
kind: ServiceAccount
metadata: {name: op, namespace: ops}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: op, namespace: team-a}
rules: [{apiGroups: [""], resources: [secrets], verbs: [list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: op, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: op}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: m}
webhooks:
- name: mpod.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: team-a}}
)";

const ComparisonRow* row(const Comparison& c, std::string_view group, std::string_view label) {
  for (const ComparisonRow& r : c.rows) {
    if (r.group == group && r.label == label) return &r;
  }
  return nullptr;
}

std::vector<ModeInput> two_modes() {
  std::vector<ModeInput> modes(2);
  modes[0].name = "cluster";
  modes[0].bundle = std::make_unique<Bundle>(bundle_from(kClusterWide, "ops"));
  modes[1].name = "restricted";
  modes[1].bundle = std::make_unique<Bundle>(bundle_from(kRestrictedInstall, "ops"));
  return modes;
}

TEST(Compare, KindsScopeAndRightsSideBySide) {
  Comparison c = compare_modes(two_modes());
  ASSERT_EQ(c.modes, (std::vector<std::string>{"cluster", "restricted"}));
  const ComparisonRow* cluster_roles = row(c, "Kinds", "ClusterRole");
  ASSERT_NE(cluster_roles, nullptr);
  EXPECT_EQ(cluster_roles->values, (std::vector<std::string>{"1", "-"}));
  EXPECT_TRUE(cluster_roles->differs);
  const ComparisonRow* sa = row(c, "Kinds", "ServiceAccount");
  EXPECT_FALSE(sa->differs);
  const ComparisonRow* scope = row(c, "Webhook scope", "M mpod.example.com");
  ASSERT_NE(scope, nullptr);
  EXPECT_EQ(scope->values,
            (std::vector<std::string>{"none, Fail", "kubernetes.io/metadata.name=team-a, Fail"}));
  const ComparisonRow* rights = row(c, "Cluster-wide rights", "ServiceAccount ops/op");
  ASSERT_NE(rights, nullptr);
  EXPECT_EQ(rights->values,
            (std::vector<std::string>{"1 rule: reads secrets", "none; namespaced in team-a"}));
  EXPECT_NE(row(c, "Findings in some modes only", "rbac-secrets-cluster-wide: ClusterRole op"),
            nullptr);
  EXPECT_EQ(row(c, "Render", "result"), nullptr);
}

// A mode that failed to render shows its error and does not make every row "differ".
TEST(Compare, FailedModeKeepsItsColumn) {
  std::vector<ModeInput> modes = two_modes();
  modes.emplace_back();
  modes.back().name = "broken";
  modes.back().error = "VALIDATION ERROR: incompatible values";
  Comparison c = compare_modes(modes);
  const ComparisonRow* render = row(c, "Render", "result");
  ASSERT_NE(render, nullptr);
  EXPECT_EQ(render->values[2], "VALIDATION ERROR: incompatible values");
  const ComparisonRow* sa = row(c, "Kinds", "ServiceAccount");
  EXPECT_EQ(sa->values, (std::vector<std::string>{"1", "1", ""}));
  EXPECT_FALSE(sa->differs);
}

// A bound ClusterRole with "*" verbs on configmaps in one rule and "*" everywhere in another has
// two rbac-wildcard findings, medium and high; the row shows the worst and the count.
TEST(Compare, FindingRowShowsWorstSeverity) {
  std::vector<ModeInput> modes(2);
  modes[0].name = "wide";
  modes[0].bundle = std::make_unique<Bundle>(bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: op}
rules:
- {apiGroups: [""], resources: [configmaps], verbs: ["*"]}
- {apiGroups: ["*"], resources: ["*"], verbs: ["*"]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: op}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: op}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)",
                                                         "ops"));
  modes[1].name = "none";
  modes[1].bundle = std::make_unique<Bundle>(bundle_from(R"(
apiVersion: v1
kind: ServiceAccount
metadata: {name: op, namespace: ops}
)",
                                                         "ops"));
  Comparison c = compare_modes(modes);
  const ComparisonRow* wildcard =
      row(c, "Findings in some modes only", "rbac-wildcard: ClusterRole op");
  ASSERT_NE(wildcard, nullptr);
  // "*" on every resource of every group, bound cluster-wide, is cluster-admin: one finding for
  // the role, critical.
  EXPECT_EQ(wildcard->values, (std::vector<std::string>{"critical", "-"}));
}

}  // namespace
}  // namespace footprint
