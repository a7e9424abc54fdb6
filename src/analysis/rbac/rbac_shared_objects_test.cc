// rbac-shared-object-write on hand-written bundles. Each verdict follows from what Kubernetes does
// with the right (named beside it), not from footprint's output.
#include <gtest/gtest.h>

#include <string>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::about;
using testing::bundle_from;
using testing::run_check;
using testing::says;

constexpr const char* kSharedAccount = R"(
apiVersion: v1
kind: ServiceAccount
metadata: {name: op, namespace: ops}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: op}
rules:
- {apiGroups: [""], resources: [nodes], verbs: [patch]}
- {apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get, update]}
- {apiGroups: [""], resources: [configmaps, services], verbs: [get, update]}
- {apiGroups: [""], resources: [pods], verbs: [get, list, watch]}
)";

std::string binding(const char* kind, const char* ns) {
  std::string meta = ns ? std::string("{name: op, namespace: ") + ns + "}" : "{name: op}";
  return std::string("---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ") + kind +
         "\nmetadata: " + meta +
         "\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: op}\n"
         "subjects: [{kind: ServiceAccount, name: op, namespace: ops}]\n";
}

// Cluster-wide, patching Nodes (kubectl taint and cordon patch the Node object), taking leases
// (kube-system holds kube-controller-manager's and kube-scheduler's) and rewriting ConfigMaps
// (kube-system/coredns) and Services are one high finding for the subject; reading pods is not
// part of it.
TEST(SharedObjectWrite, ClusterWideWritesAreOneHighFinding) {
  auto findings = run_check(
      bundle_from(std::string(kSharedAccount) + binding("ClusterRoleBinding", nullptr), "ops"),
      "rbac-shared-object-write");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(about(findings, "ServiceAccount ops/op"), nullptr);
  for (const char* right : {"patch nodes", "update leases", "update configmaps", "update services"})
    EXPECT_TRUE(says(&findings[0], right)) << right;
  EXPECT_FALSE(says(&findings[0], "list pods"));
}

// In the operator's own namespace these rights are its business; Nodes are cluster-scoped, so a
// RoleBinding grants nothing on them (the RBAC authorizer consults RoleBindings only for requests
// in their namespace).
TEST(SharedObjectWrite, OwnNamespaceIsNotReported) {
  auto findings =
      run_check(bundle_from(std::string(kSharedAccount) + binding("RoleBinding", "ops"), "ops"),
                "rbac-shared-object-write");
  EXPECT_TRUE(findings.empty());
}

// In another team's namespace (default, which the install does not own) the same rights reach
// that team only: medium, for redirecting its Services and rewriting its ConfigMaps.
TEST(SharedObjectWrite, AnotherTeamsNamespaceIsMedium) {
  auto findings =
      run_check(bundle_from(std::string(kSharedAccount) + binding("RoleBinding", "default"), "ops"),
                "rbac-shared-object-write");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  EXPECT_FALSE(says(&findings[0], "patch nodes"));
}

// ConfigMap updates through a RoleBinding in kube-system are rbac-kube-system-grant's finding;
// its leases (kube-controller-manager's) are this check's, at the cluster-wide severity.
TEST(SharedObjectWrite, KubeSystemConfigMapsAreLeftToKubeSystemGrant) {
  Bundle b =
      bundle_from(std::string(kSharedAccount) + binding("RoleBinding", "kube-system"), "ops");
  auto findings = run_check(b, "rbac-shared-object-write");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_TRUE(says(&findings[0], "update leases"));
  EXPECT_FALSE(says(&findings[0], "update configmaps"));
  EXPECT_EQ(run_check(b, "rbac-kube-system-grant").size(), 1u);
}

// Deleting a CRD deletes every object of its type (the apiextensions-apiserver's
// customresourcecleanup finalizer): high for any CRD, low when resourceNames limits it to the
// operator's own.
TEST(SharedObjectWrite, DeletingCrds) {
  auto run = [](const char* names) {
    std::string role = std::string(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: op}
rules:
- {apiGroups: [apiextensions.k8s.io], resources: [customresourcedefinitions], verbs: [delete])") +
                       names + "}\n";
    return run_check(bundle_from(role + binding("ClusterRoleBinding", nullptr), "ops"),
                     "rbac-shared-object-write");
  };
  auto any = run("");
  ASSERT_EQ(any.size(), 1u);
  EXPECT_EQ(any[0].severity, Severity::kHigh);
  auto own = run(", resourceNames: [widgets.example.com]");
  ASSERT_EQ(own.size(), 1u);
  EXPECT_EQ(own[0].severity, Severity::kLow);
}

// A rule limited by resourceNames to the operator's own lease takes only that lease, never
// kube-controller-manager's: not reported, even cluster-wide.
TEST(SharedObjectWrite, NamedLeasesAreNotReported) {
  std::string role = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: op}
rules:
- {apiGroups: [coordination.k8s.io], resources: [leases], resourceNames: [op-lock], verbs: [update]}
)";
  EXPECT_TRUE(run_check(bundle_from(role + binding("ClusterRoleBinding", nullptr), "ops"),
                        "rbac-shared-object-write")
                  .empty());
}

}  // namespace
}  // namespace footprint
