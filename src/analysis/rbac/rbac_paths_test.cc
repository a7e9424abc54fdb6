// The checks of Kubernetes' "Role Based Access Control Good Practices" paths (rbac_paths.cc) on
// the hand-written bundles of tests/data/rbac-paths/. Each verdict is argued from that page or
// from the API server source named beside it, never from footprint's output.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "analysis/check_testing.h"
#include "analysis/models/escalation_paths.h"
#include "load/loader.h"

namespace footprint {
namespace {

using testing::about;
using testing::rbac_paths_fixture;
using testing::run_check;
using testing::says;
using testing::subjects;

// "Persistent volume creation": create persistentvolumes through the ClusterRoleBinding is one
// high finding; the RoleBinding of the same ClusterRole grants nothing on a cluster-scoped
// resource (the RBAC authorizer matches a RoleBinding only to requests in its namespace,
// plugin/pkg/auth/authorizer/rbac/rbac.go).
TEST(EscalationPaths, PersistentVolumeCreateOnlyThroughAClusterRoleBinding) {
  auto findings = run_check(rbac_paths_fixture("persistent-volume-create.yaml"),
                            "rbac-persistent-volume-create");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_EQ(subjects(findings), std::vector<std::string>{"ServiceAccount op-system/provisioner"});
  EXPECT_TRUE(says(&findings[0], "hostPath"));
  // PersistentVolumes are cluster-scoped: no "in every namespace".
  EXPECT_FALSE(says(&findings[0], "in every namespace"));
}

// "CSRs and certificate issuing": create, update on the approval subresource and approve on the
// kube-apiserver-client signer. The approval admission plugin asks approve on the signer's name,
// then on "kubernetes.io/*" (plugin/pkg/admission/certificates/util.go), so the domain wildcard
// counts too. The kubelet-serving approver cannot approve client certificates. Critical: the
// CertificateSubjectRestriction plugin refuses only system:masters
// (plugin/pkg/admission/certificates/subjectrestriction/admission.go), and the bootstrap policy
// lets system:kube-controller-manager create any ServiceAccount's token, which the engine
// confirms.
TEST(EscalationPaths, CertificateSigningNeedsAllThreeRightsOnTheClientSigner) {
  Bundle b = rbac_paths_fixture("certificate-signing.yaml");
  auto findings = run_check(b, "rbac-certificate-signing");
  ASSERT_EQ(findings.size(), 2u);
  for (const Finding& f : findings)
    EXPECT_EQ(f.severity, Severity::kCritical);
  EXPECT_NE(about(findings, "ServiceAccount op-system/issuer"), nullptr);
  EXPECT_NE(about(findings, "ServiceAccount op-system/domain-approver"), nullptr);
  EXPECT_EQ(about(findings, "ServiceAccount op-system/serving-approver"), nullptr);
  EXPECT_TRUE(says(about(findings, "ServiceAccount op-system/issuer"), "but system:masters"));
  Context ctx(b);
  Request token = resource_request("create", "", "serviceaccounts", "kube-system", "token");
  EXPECT_TRUE(
      ctx.rbac.authorize(Identity::named_user("system:kube-controller-manager"), token).allowed);
}

// APIService writes on any name are high; limited by resourceNames to the operator's own, they
// cannot repoint another group's API.
TEST(EscalationPaths, ApiServiceWriteOnAnyName) {
  auto findings = run_check(rbac_paths_fixture("apiservice-write.yaml"), "rbac-apiservice-write");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_EQ(subjects(findings),
            std::vector<std::string>{"ServiceAccount op-system/any-apiservice"});
  EXPECT_TRUE(says(&findings[0], "metrics.k8s.io"));
}

// "Namespace modification": patch namespaces cluster-wide relabels any namespace (high); through
// a RoleBinding it reaches that namespace's own object, since RequestInfo gives a request on one
// Namespace the namespace it names (staging/src/k8s.io/apiserver/pkg/endpoints/request/
// requestinfo.go): medium in another team's, low in the operator's own.
TEST(EscalationPaths, NamespaceWriteBySeverityOfScope) {
  auto findings = run_check(rbac_paths_fixture("namespace-write.yaml"), "rbac-namespace-write");
  ASSERT_EQ(findings.size(), 3u);
  const Finding* wide = about(findings, "ServiceAccount op-system/labeller");
  const Finding* other = about(findings, "ServiceAccount op-system/default-labeller");
  const Finding* own = about(findings, "ServiceAccount op-system/own-labeller");
  ASSERT_TRUE(wide && other && own);
  EXPECT_EQ(wide->severity, Severity::kHigh);
  EXPECT_EQ(other->severity, Severity::kMedium);
  EXPECT_EQ(own->severity, Severity::kLow);
  EXPECT_TRUE(says(wide, "Pod Security"));
}

// Rewriting or deleting NetworkPolicies: high everywhere, medium in another team's namespace,
// nothing in the operator's own.
TEST(EscalationPaths, NetworkPolicyWriteOutsideTheOperatorsNamespace) {
  auto findings =
      run_check(rbac_paths_fixture("network-policy-write.yaml"), "rbac-network-policy-write");
  ASSERT_EQ(findings.size(), 2u);
  ASSERT_NE(about(findings, "ServiceAccount op-system/everywhere"), nullptr);
  ASSERT_NE(about(findings, "ServiceAccount op-system/other-team"), nullptr);
  EXPECT_EQ(about(findings, "ServiceAccount op-system/everywhere")->severity, Severity::kHigh);
  EXPECT_EQ(about(findings, "ServiceAccount op-system/other-team")->severity, Severity::kMedium);
  EXPECT_EQ(about(findings, "ServiceAccount op-system/own"), nullptr);
}

// Writing bindings: the API server lets a writer bind a role it has bind on
// (BindingAuthorized), or whose every rule it holds (ConfirmNoEscalation), in
// pkg/registry/rbac/clusterrolebinding/policybased/storage.go. bind on cluster-admin with
// create clusterrolebindings is critical; create clusterrolebindings alone binds none of the
// built-in roles (high: it still hands its own rights to anyone); edit held in another team's
// namespace with create rolebindings there binds edit (not admin, which adds roles): medium.
TEST(EscalationPaths, BindingWriteNamesTheStrongestRoleItMayBind) {
  auto findings = run_check(rbac_paths_fixture("binding-write.yaml"), "rbac-binding-write");
  ASSERT_EQ(findings.size(), 3u);
  const Finding* maker = about(findings, "ServiceAccount op-system/admin-maker");
  const Finding* writer = about(findings, "ServiceAccount op-system/binding-writer");
  const Finding* editor = about(findings, "ServiceAccount op-system/team-editor");
  ASSERT_TRUE(maker && writer && editor);
  EXPECT_EQ(maker->severity, Severity::kCritical);
  EXPECT_TRUE(says(maker, "ClusterRole cluster-admin cluster-wide"));
  EXPECT_EQ(writer->severity, Severity::kHigh);
  EXPECT_TRUE(says(writer, "none of the built-in roles"));
  EXPECT_EQ(editor->severity, Severity::kMedium);
  EXPECT_TRUE(says(editor, "ClusterRole edit in namespace default"));
}

}  // namespace
}  // namespace footprint
