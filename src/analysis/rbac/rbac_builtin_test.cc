// rbac-builtin-replaced: roles and bindings of the API server's bootstrap policy.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analysis/check_testing.h"
#include "analysis/models/rbac_models.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

// The bootstrap policy (builtin_rbac.yaml, from Kubernetes 1.34) binds cluster-admin to the group
// system:masters through the ClusterRoleBinding cluster-admin, and edit is an aggregated role.
// A bundle that ships objects of those names replaces them for everyone: critical.
TEST(BuiltinReplaced, RolesAndBindingsOfTheBootstrapPolicy) {
  Bundle b = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: cluster-admin}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: edit}
rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: editor-of-widgets}
rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
)",
                         "ops");
  auto findings = run_check(b, "rbac-builtin-replaced");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  EXPECT_NE(findings[0].message.find("where the built-in one binds cluster-admin to Group "
                                     "system:masters"),
            std::string::npos);
  EXPECT_NE(findings[1].message.find("every role aggregated into it"), std::string::npos);
}

}  // namespace
}  // namespace footprint
