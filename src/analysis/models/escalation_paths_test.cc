// The paths of Kubernetes' "Role Based Access Control Good Practices" (escalation_paths.h) on the
// hand-written bundles of tests/data/rbac-paths/. Each verdict is argued from that page or from
// the API server source named beside it, never from footprint's output.
#include "analysis/models/escalation_paths.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "analysis/check_testing.h"
#include "load/loader.h"

namespace footprint {
namespace {

using testing::run_check;

Bundle fixture(const char* name) {
  std::string path = FOOTPRINT_SOURCE_DIR;
  path += "/tests/data/rbac-paths/";
  path += name;
  auto loaded = load_inputs({path}, LoadOptions{});
  EXPECT_TRUE(loaded.has_value()) << path;
  if (!loaded) return Bundle{};
  return build_bundle(std::move(*loaded), BundleOptions{"op-system"});
}

// The subject each finding is about, for findings of one check.
std::vector<std::string> subjects(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) {
    for (const auto& [kind, items] : f.affects) {
      if (kind == "subjects") out.insert(out.end(), items.begin(), items.end());
    }
  }
  return out;
}

const Finding* about(const std::vector<Finding>& findings, std::string_view subject) {
  for (const Finding& f : findings) {
    for (const auto& [kind, items] : f.affects) {
      if (kind == "subjects" && std::find(items.begin(), items.end(), subject) != items.end())
        return &f;
    }
  }
  return nullptr;
}

bool says(const Finding* f, std::string_view text) {
  return f && f->message.find(text) != std::string::npos;
}

// Every path names a registered check, and every item of the page's two lists ("Privilege
// escalation risks": eleven items, "Denial of service risks": one, counted on the page) is either
// a path or listed as uncovered with its reason.
TEST(EscalationPaths, CoverEveryItemOfTheGoodPracticesPage) {
  std::set<std::string_view> items;
  for (const EscalationPath& p : escalation_paths()) {
    EXPECT_NE(find_check(p.check), nullptr) << p.id;
    EXPECT_FALSE(p.steps.empty()) << p.id;
    if (!p.docs_item.empty()) items.insert(p.docs_item);
  }
  for (const UncoveredPractice& u : uncovered_practices())
    items.insert(u.docs_item);
  std::set<std::string_view> page = {"Listing secrets",
                                     "Workload creation",
                                     "Persistent volume creation",
                                     "Access to proxy subresource of Nodes",
                                     "Escalate verb",
                                     "Bind verb",
                                     "Impersonate verb",
                                     "CSRs and certificate issuing",
                                     "Token request",
                                     "Control admission webhooks",
                                     "Namespace modification",
                                     "Object creation denial-of-service"};
  EXPECT_EQ(items, page);
}

// "Persistent volume creation": create persistentvolumes through the ClusterRoleBinding is one
// high finding; the RoleBinding of the same ClusterRole grants nothing on a cluster-scoped
// resource (the RBAC authorizer matches a RoleBinding only to requests in its namespace,
// plugin/pkg/auth/authorizer/rbac/rbac.go).
TEST(EscalationPaths, PersistentVolumeCreateOnlyThroughAClusterRoleBinding) {
  auto findings =
      run_check(fixture("persistent-volume-create.yaml"), "rbac-persistent-volume-create");
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
  Bundle b = fixture("certificate-signing.yaml");
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
  auto findings = run_check(fixture("apiservice-write.yaml"), "rbac-apiservice-write");
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
  auto findings = run_check(fixture("namespace-write.yaml"), "rbac-namespace-write");
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
  auto findings = run_check(fixture("network-policy-write.yaml"), "rbac-network-policy-write");
  ASSERT_EQ(findings.size(), 2u);
  ASSERT_NE(about(findings, "ServiceAccount op-system/everywhere"), nullptr);
  ASSERT_NE(about(findings, "ServiceAccount op-system/other-team"), nullptr);
  EXPECT_EQ(about(findings, "ServiceAccount op-system/everywhere")->severity, Severity::kHigh);
  EXPECT_EQ(about(findings, "ServiceAccount op-system/other-team")->severity, Severity::kMedium);
  EXPECT_EQ(about(findings, "ServiceAccount op-system/own"), nullptr);
}

// Deleting every team's Deployments and their claims' data cluster-wide is high, one finding for
// the subject's two rules; deleting events stays low; deleting its own Deployments is not
// reported.
TEST(EscalationPaths, DestructiveDeleteRatesWorkloadsAboveEvents) {
  auto findings = run_check(fixture("destructive-delete.yaml"), "rbac-destructive-delete");
  ASSERT_EQ(findings.size(), 2u);
  const Finding* reaper = about(findings, "ServiceAccount op-system/reaper");
  const Finding* pruner = about(findings, "ServiceAccount op-system/pruner");
  ASSERT_TRUE(reaper && pruner);
  EXPECT_EQ(reaper->severity, Severity::kHigh);
  EXPECT_TRUE(says(reaper, "delete deployments.apps"));
  EXPECT_TRUE(says(reaper, "deletecollection persistentvolumeclaims"));
  EXPECT_EQ(pruner->severity, Severity::kLow);
  EXPECT_EQ(about(findings, "ServiceAccount op-system/own-reaper"), nullptr);
}

// Writing bindings: the API server lets a writer bind a role it has bind on
// (BindingAuthorized), or whose every rule it holds (ConfirmNoEscalation), in
// pkg/registry/rbac/clusterrolebinding/policybased/storage.go. bind on cluster-admin with
// create clusterrolebindings is critical; create clusterrolebindings alone binds none of the
// built-in roles (high: it still hands its own rights to anyone); edit held in another team's
// namespace with create rolebindings there binds edit (not admin, which adds roles): medium.
TEST(EscalationPaths, BindingWriteNamesTheStrongestRoleItMayBind) {
  auto findings = run_check(fixture("binding-write.yaml"), "rbac-binding-write");
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

// pods/ephemeralcontainers is exec by another name: medium in another team's namespace, as
// rbac-pod-exec rates exec there. create serviceaccounts/token cluster-wide mints a token for
// kube-system's clusterrole-aggregation-controller, which the bootstrap policy lets escalate
// any ClusterRole (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go):
// critical.
TEST(EscalationPaths, EphemeralContainersAreExecAndTokensEverywhereAreCritical) {
  Bundle b = fixture("ephemeral-and-tokens.yaml");
  auto exec = run_check(b, "rbac-pod-exec");
  ASSERT_EQ(exec.size(), 1u);
  EXPECT_EQ(exec[0].severity, Severity::kMedium);
  EXPECT_TRUE(says(&exec[0], "patch pods/ephemeralcontainers"));
  auto escalation = run_check(b, "rbac-privilege-escalation");
  ASSERT_EQ(escalation.size(), 1u);
  EXPECT_EQ(escalation[0].severity, Severity::kCritical);
  EXPECT_TRUE(says(&escalation[0], "kube-system/clusterrole-aggregation-controller"));
}

// pkg/registry/rbac/escalation_check.go: BindingAuthorized lets a subject with bind on a role
// bind it, so bind on every ClusterRole plus creating ClusterRoleBindings is binding
// cluster-admin: one root cause, one critical (rbac-binding-write's); the bind right itself stays
// a high finding of rbac-privilege-escalation. EscalationAllowed lets a subject with escalate
// write any rule into a role it may update, so escalate with update on every ClusterRole reaches
// cluster-admin through the ClusterRole bound to it, without writing a binding. A subject holding
// both paths becomes cluster-admin through RBAC writes either way: the policybased storage of
// ClusterRoleBindings (pkg/registry/rbac/clusterrolebinding/policybased/storage.go) and of
// ClusterRoles (clusterrole/policybased/storage.go) are two doors to the same consequence, so
// its one critical is rbac-binding-write's, which names the second path, and
// rbac-privilege-escalation keeps its rights at high (cluster-wide) without a second critical.
TEST(EscalationPaths, BindWithBindingWritesIsOneCriticalAndEscalateWithUpdateIsATakeover) {
  Bundle b = fixture("bind-or-escalate.yaml");
  auto bindings = run_check(b, "rbac-binding-write");
  ASSERT_EQ(bindings.size(), 2u);
  const Finding* binds = about(bindings, "ServiceAccount op-system/binder");
  const Finding* both_binds = about(bindings, "ServiceAccount op-system/both");
  ASSERT_TRUE(binds && both_binds);
  EXPECT_EQ(binds->severity, Severity::kCritical);
  EXPECT_TRUE(says(binds, "ClusterRole cluster-admin cluster-wide"));
  EXPECT_FALSE(says(binds, "escalate"));
  EXPECT_EQ(both_binds->severity, Severity::kCritical);
  EXPECT_TRUE(says(both_binds, "ClusterRole cluster-admin cluster-wide"));
  EXPECT_TRUE(says(both_binds,
                   "It may also escalate and update every ClusterRole, through "
                   "ClusterRole both (through ClusterRoleBinding both)"));
  auto escalation = run_check(b, "rbac-privilege-escalation");
  ASSERT_EQ(escalation.size(), 3u);
  const Finding* binder = about(escalation, "ServiceAccount op-system/binder");
  const Finding* rewriter = about(escalation, "ServiceAccount op-system/rewriter");
  const Finding* both = about(escalation, "ServiceAccount op-system/both");
  ASSERT_TRUE(binder && rewriter && both);
  EXPECT_EQ(binder->severity, Severity::kHigh);
  EXPECT_EQ(rewriter->severity, Severity::kCritical);
  EXPECT_TRUE(says(rewriter, "writing every right into a ClusterRole bound to it"));
  EXPECT_EQ(both->severity, Severity::kHigh);
  EXPECT_TRUE(says(both, "rated with its binding writes in rbac-binding-write"));
  // One critical per subject over both checks.
  size_t criticals = 0;
  for (const auto* findings : {&bindings, &escalation}) {
    for (const Finding& f : *findings) {
      if (f.severity == Severity::kCritical && says(&f, "ServiceAccount op-system/both"))
        ++criticals;
    }
  }
  EXPECT_EQ(criticals, 1u);
}

}  // namespace
}  // namespace footprint
