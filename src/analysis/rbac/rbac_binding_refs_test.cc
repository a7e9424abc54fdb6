// Binding references (rbac_binding_refs.cc) on the hand-written bundles of
// tests/data/rbac-traps/: each verdict argued from the Kubernetes source named beside it.
#include <gtest/gtest.h>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::rbac_traps_fixture;
using testing::run_check;

// Accounts Kubernetes creates are never missing. The bootstrap policy
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go) binds
// system:controller:NAME to kube-system/NAME, and the controller manager creates each account
// before running its controller (staging/src/k8s.io/controller-manager/pkg/clientbuilder/
// client_builder_dynamic.go, getOrCreateServiceAccount); the ServiceAccount controller creates
// default everywhere. Left: kube-dns (an add-on's account) and a controller's name outside
// kube-system, both low (a namespace the bundle neither creates nor releases into).
TEST(BindingMissingSubject, AccountsKubernetesCreatesAreNeverMissing) {
  auto findings =
      run_check(rbac_traps_fixture("kubernetes-accounts.yaml"), "rbac-binding-missing-subject");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_NE(findings[0].message.find("ServiceAccount kube-system/kube-dns"), std::string::npos);
  EXPECT_NE(findings[1].message.find("ServiceAccount team-a/namespace-controller"),
            std::string::npos);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_EQ(findings[1].severity, Severity::kLow);
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

// The ServiceAccount controller creates "default" in every namespace, so a binding to it always
// has a subject.
TEST(BindingMissingSubject, DefaultAccountAlwaysExists) {
  Bundle b = bundle_from(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: x, "
      "namespace: team}\nroleRef: {kind: ClusterRole, name: view}\nsubjects:\n"
      "- {kind: ServiceAccount, name: default, namespace: team}\n");
  EXPECT_TRUE(run_check(b, "rbac-binding-missing-subject").empty());
}

}  // namespace
}  // namespace footprint
