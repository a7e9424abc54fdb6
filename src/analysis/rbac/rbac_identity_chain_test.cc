// rbac-identity-chain on hand-written bundles, and the folding of chains into the findings that
// already report their first step. The hops are pinned with their Kubernetes sources in
// models/identity_chains_test.cc; the verdicts here follow from them: the ServiceAccount
// admission plugin (plugin/pkg/admission/serviceaccount/admission.go) lets a pod run as any
// ServiceAccount of its namespace, and the bootstrap policy's clusterrole-aggregation-controller
// may escalate and update every ClusterRole (bootstrappolicy/controller_policy.go).
#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::about;
using testing::bundle_from;
using testing::cluster_role;
using testing::run_check;
using testing::says;

// ServiceAccount op-system/admin bound to cluster-admin, and ServiceAccount op-system/op that may
// create Jobs in op-system only.
constexpr const char* kBesideAdmin = R"(
apiVersion: v1
kind: ServiceAccount
metadata: {name: admin, namespace: op-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: admin}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: ServiceAccount, name: admin, namespace: op-system}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: op, namespace: op-system}
rules:
- {apiGroups: [batch], resources: [jobs], verbs: [create]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: op, namespace: op-system}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: op}
subjects: [{kind: ServiceAccount, name: op, namespace: op-system}]
)";

// Creating Jobs in its own namespace is low-key on its own (no other check reports it), but the
// namespace holds a cluster-admin account: critical, once, naming the chain.
TEST(RbacIdentityChain, PodsBesideAClusterAdminAccount) {
  auto findings = run_check(bundle_from(kBesideAdmin, "op-system"), "rbac-identity-chain");
  ASSERT_EQ(findings.size(), 1u);
  const Finding* f = about(findings, "ServiceAccount op-system/op");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kCritical);
  EXPECT_TRUE(says(*f,
                   "may create jobs.batch in namespace op-system → a pod running as "
                   "ServiceAccount op-system/admin, which is bound to ClusterRole "
                   "cluster-admin: cluster-admin"));
}

// Creating pods in every namespace is already rbac-workload-create-cluster-wide's finding: it
// becomes critical with the chain through kube-system, and this check stays silent.
TEST(RbacIdentityChain, FoldsIntoTheFindingOfTheFirstStep) {
  Bundle b = bundle_from(cluster_role(R"(
- {apiGroups: [""], resources: [pods], verbs: [create]})"),
                         "op-system");
  EXPECT_TRUE(run_check(b, "rbac-identity-chain").empty());
  auto wide = run_check(b, "rbac-workload-create-cluster-wide");
  ASSERT_EQ(wide.size(), 1u);
  EXPECT_EQ(wide[0].severity, Severity::kCritical);
  EXPECT_TRUE(says(wide[0], "ServiceAccount kube-system/clusterrole-aggregation-controller"));
}

// Creating and reading Secrets in kube-system is token minting there: rbac-kube-system-grant's
// finding (it reports reading Secrets there) is critical, like creating pods there.
TEST(RbacIdentityChain, TokenSecretsInKubeSystemAreCritical) {
  Bundle b = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: op, namespace: kube-system}
rules:
- {apiGroups: [""], resources: [secrets], verbs: [create, get]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: op, namespace: kube-system}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: op}
subjects: [{kind: ServiceAccount, name: op, namespace: op-system}]
)",
                         "op-system");
  EXPECT_TRUE(run_check(b, "rbac-identity-chain").empty());
  auto grant = run_check(b, "rbac-kube-system-grant");
  ASSERT_EQ(grant.size(), 1u);
  EXPECT_EQ(grant[0].severity, Severity::kCritical);
  EXPECT_TRUE(says(grant[0],
                   "a token Secret the token controller fills for ServiceAccount "
                   "kube-system/clusterrole-aggregation-controller"));
}

}  // namespace
}  // namespace footprint
