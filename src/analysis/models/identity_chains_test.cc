// Identity closure (identity_chains.h): one test per way an identity becomes another, each naming
// the Kubernetes source that makes the hop real. Expected chains are argued from those sources
// and from the bootstrap policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/), whose
// clusterrole-aggregation-controller may escalate, get, list, patch, update and watch
// ClusterRoles (controller_policy.go) and whose system:kube-controller-manager may create
// serviceaccounts/token (policy.go).
#include "analysis/models/identity_chains.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "model/cluster.h"
#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::cluster_role;

constexpr std::string_view kAggregator =
    "ServiceAccount kube-system/clusterrole-aggregation-controller";

// A Role in `ns` with `rules`, bound to ServiceAccount op-system/op.
std::string role_for_op(std::string_view ns, std::string_view rules) {
  return fmt::format(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {{name: op, namespace: {0}}}
rules:
{1}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {{name: op, namespace: {0}}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: Role, name: op}}
subjects: [{{kind: ServiceAccount, name: op, namespace: op-system}}]
)",
                     ns, rules);
}

// ServiceAccount op-system/admin, bound to cluster-admin, and a Deployment whose pods run as it.
constexpr const char* kAdminPods = R"(
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
apiVersion: apps/v1
kind: Deployment
metadata: {name: admin, namespace: op-system}
spec:
  selector: {matchLabels: {app: admin}}
  template:
    metadata: {labels: {app: admin}}
    spec:
      serviceAccountName: admin
      containers: [{name: c, image: registry.example/admin:1.0}]
)";

// The chains of a bundle, kept beside the bundle, policy and pods they point into.
struct Analysed {
  Analysed(const std::string& yaml, const Bundle* cluster)
      : bundle(bundle_from(yaml, "op-system")),
        policy(RbacPolicy::build(bundle, cluster)),
        pods(pod_templates(bundle)),
        chains(identity_chains(policy, bundle, pods, cluster)) {}
  Analysed(const Analysed&) = delete;
  Analysed& operator=(const Analysed&) = delete;
  Analysed(Analysed&&) = delete;
  Analysed& operator=(Analysed&&) = delete;
  ~Analysed() = default;

  Bundle bundle;
  RbacPolicy policy;
  std::vector<PodTemplate> pods;
  std::vector<IdentityChain> chains;
};

Analysed chains_of(const std::string& yaml, const Bundle* cluster = nullptr) {
  return {yaml, cluster};
}

// The chain of ServiceAccount op-system/op, or null.
const IdentityChain* of_op(const Analysed& analysed) {
  for (const IdentityChain& c : analysed.chains) {
    if (c.subject.display() == "ServiceAccount op-system/op") return &c;
  }
  return nullptr;
}

// Creating a Deployment in kube-system: the ServiceAccount admission plugin
// (plugin/pkg/admission/serviceaccount/admission.go) lets a pod name any ServiceAccount of its
// namespace, and the deployment controller creates the pod, so op runs a pod as
// clusterrole-aggregation-controller, which may rewrite every ClusterRole.
TEST(IdentityChains, CreatingWorkloadsInKubeSystemRunsAsItsControllers) {
  auto chains = chains_of(role_for_op("kube-system", R"(
- {apiGroups: [apps], resources: [deployments], verbs: [create]})"));
  const IdentityChain* c = of_op(chains);
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(c->hops.size(), 1u);
  EXPECT_EQ(c->hops[0].kind, HopKind::kCreatePods);
  EXPECT_EQ(c->hops[0].to.display(), kAggregator);
  EXPECT_FALSE(c->hops[0].cluster_wide);
  EXPECT_EQ(c->words(),
            "may create deployments.apps in namespace kube-system → a pod running as "
            "ServiceAccount kube-system/clusterrole-aggregation-controller, which may escalate "
            "and update every ClusterRole, its own included: cluster-admin");
}

// Creating pods in every namespace is creating them in kube-system too.
TEST(IdentityChains, CreatingPodsEverywhereIncludesKubeSystem) {
  auto chains = chains_of(cluster_role(R"(
- {apiGroups: [""], resources: [pods], verbs: [create]})"));
  const IdentityChain* c = of_op(chains);
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->hops[0].cluster_wide);
  EXPECT_EQ(c->hops[0].to.display(), kAggregator);
}

// Creating pods in a namespace whose ServiceAccount is bound to cluster-admin: chains go through
// the bundle's own subjects.
TEST(IdentityChains, CreatingPodsBesideAClusterAdminAccount) {
  auto chains = chains_of(std::string(kAdminPods) + "---\n" + role_for_op("op-system", R"(
- {apiGroups: [batch], resources: [jobs], verbs: [create]})"));
  const IdentityChain* c = of_op(chains);
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(c->hops.size(), 1u);
  EXPECT_EQ(c->hops[0].to.display(), "ServiceAccount op-system/admin");
  EXPECT_EQ(c->end, "is bound to ClusterRole cluster-admin: cluster-admin");
}

// TokenRequest (pkg/registry/core/serviceaccount/storage/token.go) is a create of the
// serviceaccounts/token subresource of the named account, so resourceNames limit it to those
// accounts: one naming the aggregation controller is a chain, one naming another account is not.
TEST(IdentityChains, TokenRequestFollowsResourceNames) {
  auto named = chains_of(role_for_op("kube-system", R"(
- {apiGroups: [""], resources: [serviceaccounts/token], verbs: [create],
   resourceNames: [clusterrole-aggregation-controller]})"));
  const IdentityChain* c = of_op(named);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->hops[0].kind, HopKind::kTokenRequest);
  EXPECT_EQ(c->hops[0].to.display(), kAggregator);
  auto other = chains_of(role_for_op("kube-system", R"(
- {apiGroups: [""], resources: [serviceaccounts/token], verbs: [create], resourceNames: [coredns]})"));
  EXPECT_EQ(of_op(other), nullptr);
}

// The token controller (pkg/controller/serviceaccount/tokens_controller.go) writes a token into
// every Secret of type kubernetes.io/service-account-token that names an existing account
// (Kubernetes docs: "Manually create a long-lived API token for a ServiceAccount"). The creator
// learns it only by reading the Secret back: create with get is a chain, create alone is not.
TEST(IdentityChains, TokenSecretNeedsCreateAndRead) {
  auto read = chains_of(role_for_op("kube-system", R"(
- {apiGroups: [""], resources: [secrets], verbs: [create, get]})"));
  const IdentityChain* c = of_op(read);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->hops[0].kind, HopKind::kTokenSecret);
  EXPECT_EQ(c->hops[0].to.display(), kAggregator);
  auto blind = chains_of(role_for_op("kube-system", R"(
- {apiGroups: [""], resources: [secrets], verbs: [create]})"));
  EXPECT_EQ(of_op(blind), nullptr);
}

// RequestInfo (staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go) makes exec,
// attach and ephemeralcontainers subresources of pods; a container of a pod reads the token the
// pod mounts. A pod with automountServiceAccountToken false mounts none.
TEST(IdentityChains, ExecIntoAPodRunningAsAnotherAccount) {
  auto exec = chains_of(std::string(kAdminPods) + "---\n" + role_for_op("op-system", R"(
- {apiGroups: [""], resources: [pods/exec], verbs: [create]})"));
  const IdentityChain* c = of_op(exec);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->hops[0].kind, HopKind::kExec);
  EXPECT_EQ(c->hops[0].pod_owner->name, "admin");
  auto ephemeral = chains_of(std::string(kAdminPods) + "---\n" + role_for_op("op-system", R"(
- {apiGroups: [""], resources: [pods/ephemeralcontainers], verbs: [patch]})"));
  ASSERT_NE(of_op(ephemeral), nullptr);
  EXPECT_EQ(of_op(ephemeral)->hops[0].request,
            "patch pods/ephemeralcontainers in namespace op-system");
  std::string no_token(kAdminPods);
  no_token.replace(no_token.find("serviceAccountName: admin"), 25,
                   "serviceAccountName: admin\n      automountServiceAccountToken: false");
  auto none = chains_of(no_token + "---\n" + role_for_op("op-system", R"(
- {apiGroups: [""], resources: [pods/exec], verbs: [create]})"));
  EXPECT_EQ(of_op(none), nullptr);
}

// The impersonation filter (staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation.go)
// asks impersonate on serviceaccounts in the account's namespace, on users and on groups without
// one, and refuses groups unless a user is impersonated too.
TEST(IdentityChains, Impersonation) {
  auto account = chains_of(role_for_op("kube-system", R"(
- {apiGroups: [""], resources: [serviceaccounts], verbs: [impersonate]})"));
  ASSERT_NE(of_op(account), nullptr);
  EXPECT_EQ(of_op(account)->hops[0].to.display(), kAggregator);
  // system:kube-controller-manager is a user of the bootstrap policy that may mint any token:
  // two hops.
  auto user = chains_of(cluster_role(R"(
- {apiGroups: [""], resources: [users], verbs: [impersonate],
   resourceNames: [system:kube-controller-manager]})"));
  const IdentityChain* c = of_op(user);
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(c->hops.size(), 2u);
  EXPECT_EQ(c->hops[0].to.display(), "User system:kube-controller-manager");
  EXPECT_EQ(c->hops[1].kind, HopKind::kTokenRequest);
  EXPECT_EQ(c->hops[1].to.display(), kAggregator);
  auto masters = chains_of(cluster_role(R"(
- {apiGroups: [""], resources: [users, groups], verbs: [impersonate]})"));
  ASSERT_NE(of_op(masters), nullptr);
  EXPECT_EQ(of_op(masters)->hops.size(), 1u);
  EXPECT_EQ(of_op(masters)->end, "is in group system:masters: cluster-admin");
  auto groups_only = chains_of(cluster_role(R"(
- {apiGroups: [""], resources: [groups], verbs: [impersonate]})"));
  EXPECT_EQ(of_op(groups_only), nullptr);
}

// bind and escalate end a chain: the API server lets a subject bind a role it has bind on
// (pkg/registry/rbac/rolebinding/policybased, BindingAuthorized) and write rules it does not
// hold with escalate (pkg/registry/rbac/escalation_check.go). A pod creator beside an account
// that may bind cluster-admin is cluster-admin.
TEST(IdentityChains, BindAndEscalateEndAChain) {
  constexpr const char* kBinder = R"(
apiVersion: v1
kind: ServiceAccount
metadata: {name: binder, namespace: op-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: binder}
rules:
- {apiGroups: [rbac.authorization.k8s.io], resources: [clusterroles], verbs: [bind],
   resourceNames: [cluster-admin]}
- {apiGroups: [rbac.authorization.k8s.io], resources: [clusterrolebindings], verbs: [create]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: binder}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: binder}
subjects: [{kind: ServiceAccount, name: binder, namespace: op-system}]
)";
  auto chains = chains_of(std::string(kBinder) + "---\n" + role_for_op("op-system", R"(
- {apiGroups: [""], resources: [pods], verbs: [create]})"));
  const IdentityChain* c = of_op(chains);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->hops[0].to.display(), "ServiceAccount op-system/binder");
  EXPECT_EQ(c->end, "may bind cluster-admin to itself: cluster-admin");
  // The binder itself ends no chain of its own: it is cluster-admin already.
  for (const IdentityChain& other : chains.chains)
    EXPECT_NE(other.subject.display(), "ServiceAccount op-system/binder");
}

// The first hop is the bundle's: system:kube-controller-manager mints tokens through the
// bootstrap policy's own binding (policy.go), so a bundle that only lets it read its objects adds
// no chain.
TEST(IdentityChains, TheFirstHopIsTheBundles) {
  auto chains = chains_of(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: tier-getter}
rules: [{apiGroups: [example.org], resources: [tiers], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: tier-getter}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: tier-getter}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: system:kube-controller-manager}]
)");
  EXPECT_TRUE(chains.chains.empty());
}

// A --cluster snapshot's accounts and bindings take part: team-a/deployer is bound to
// cluster-admin there, so creating pods in team-a is cluster-admin.
TEST(IdentityChains, ThroughAClusterSnapshot) {
  auto snapshot = load_cluster_text("c.yaml", R"(apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ServiceAccount
  metadata: {name: deployer, namespace: team-a}
- apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRoleBinding
  metadata: {name: deployer}
  roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
  subjects: [{kind: ServiceAccount, name: deployer, namespace: team-a}]
)");
  ASSERT_TRUE(snapshot.has_value());
  std::string bundle = role_for_op("team-a", R"(
- {apiGroups: [""], resources: [pods], verbs: [create]})");
  const IdentityChain* c = nullptr;
  auto with = chains_of(bundle, &snapshot->objects);
  c = of_op(with);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->hops[0].to.display(), "ServiceAccount team-a/deployer");
  EXPECT_EQ(of_op(chains_of(bundle)), nullptr);
}

}  // namespace
}  // namespace footprint
