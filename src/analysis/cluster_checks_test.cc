// Checks against a cluster snapshot, on the hand-written fixtures of tests/data/cluster/
// (snapshot.yaml, bundle.yaml; each object there is commented with why it is there).
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/analyze.h"
#include "analysis/check_testing.h"
#include "analysis/context.h"
#include "model/cluster.h"

namespace footprint {
namespace {

const std::string kData = std::string(FOOTPRINT_SOURCE_DIR) + "/tests/data/cluster/";

Bundle fixture_bundle() {
  auto loaded = load_inputs({kData + "bundle.yaml"}, LoadOptions{});
  EXPECT_TRUE(loaded.has_value());
  return build_bundle(std::move(*loaded), BundleOptions{"dynamo-system"});
}

Cluster fixture_cluster() {
  auto loaded = load_cluster(kData + "snapshot.yaml", 1);
  EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().front().to_string());
  return std::move(*loaded);
}

std::vector<Finding> run_with(const Bundle& bundle, const Cluster* cluster, std::string_view id) {
  const Check* check = find_check(id);
  EXPECT_NE(check, nullptr) << id;
  Findings out(bundle);
  if (check) {
    out.set_check(check->id, check->impact);
    check->run(Context(bundle, {}, {}, cluster), out);
  }
  return std::move(out.list());
}

const std::vector<std::string>& affects(const Finding& f, std::string_view kind) {
  static const std::vector<std::string> kNone;
  for (const auto& [k, items] : f.affects) {
    if (k == kind) return items;
  }
  return kNone;
}

class ClusterChecks : public ::testing::Test {
 protected:
  Bundle bundle = fixture_bundle();
  Cluster cluster = fixture_cluster();
};

// The PodMonitor needs prometheus-operator's CRD; the snapshot has it (installed by
// kube-prometheus-stack), so only the bundle alone reports it missing.
TEST_F(ClusterChecks, ExistingCrdsSatisfyCrdMissing) {
  EXPECT_EQ(run_with(bundle, nullptr, "crd-missing").size(), 1u);
  EXPECT_TRUE(run_with(bundle, &cluster, "crd-missing").empty());
}

// widgets.example.com has status.storedVersions [v1alpha1, v1]; the bundle's copy lists only
// v1. "Versions may not be removed from spec.versions while they exist in this list"
// (CustomResourceDefinitionStatus.storedVersions; enforced by
// apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go), so the update is
// rejected: high, and the current owner is named.
TEST_F(ClusterChecks, DroppedStoredVersionIsRejected) {
  std::vector<Finding> f = run_with(bundle, &cluster, "crd-cluster-change");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kHigh);
  EXPECT_EQ(f[0].object.name, "widgets.example.com");
  EXPECT_NE(f[0].message.find("drops version v1alpha1"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("Helm release widget-operator in namespace widgets"),
            std::string::npos);
  EXPECT_TRUE(run_with(bundle, nullptr, "crd-cluster-change").empty());
}

// Only served versions dropped (nothing stored in them): the update succeeds, clients of the
// dropped version break: medium. A scope change of an established CRD is rejected (immutable).
TEST_F(ClusterChecks, ServedVersionDroppedAndScopeChanged) {
  auto snapshot = load_cluster_text("c.yaml", R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  scope: Namespaced
  versions:
  - {name: v1beta1, served: true, storage: false}
  - {name: v1, served: true, storage: true}
status: {storedVersions: [v1]}
)");
  ASSERT_TRUE(snapshot.has_value());
  auto crd = [](std::string_view scope) {
    return testing::bundle_from(std::string(R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  scope: )") + std::string(scope) +
                                R"(
  versions:
  - {name: v1, served: true, storage: true}
)");
  };
  Bundle same_scope = crd("Namespaced");
  std::vector<Finding> f = run_with(same_scope, &*snapshot, "crd-cluster-change");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kMedium);
  EXPECT_EQ(affects(f[0], "changes"), std::vector<std::string>{"no longer serves v1beta1"});
  Bundle cluster_scope = crd("Cluster");
  f = run_with(cluster_scope, &*snapshot, "crd-cluster-change");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kHigh);
  EXPECT_NE(f[0].message.find("spec.scope from Namespaced to Cluster"), std::string::npos);
}

// Helm adopts an existing object only with app.kubernetes.io/managed-by=Helm and its own
// meta.helm.sh/release-name and release-namespace (helm pkg/action/validate.go,
// checkOwnership). metrics-reader belongs to other-operator, widgets.example.com to
// widget-operator: two owners, two findings, both high. The Namespace dynamo-system exists
// without Helm's metadata but the bundle does not create it, so it is no conflict.
TEST_F(ClusterChecks, HelmOwnershipConflictsPerOwner) {
  std::vector<Finding> f = run_with(bundle, &cluster, "helm-ownership-conflict");
  ASSERT_EQ(f.size(), 2u);
  std::vector<std::string> owners;
  for (const Finding& finding : f) {
    EXPECT_EQ(finding.severity, Severity::kHigh);
    owners.push_back(finding.summary);
  }
  std::sort(owners.begin(), owners.end());
  EXPECT_NE(owners[0].find("other-operator"), std::string::npos) << owners[0];
  EXPECT_NE(owners[1].find("widget-operator"), std::string::npos) << owners[1];
  EXPECT_TRUE(run_with(bundle, nullptr, "helm-ownership-conflict").empty());
}

// The same object owned by this very release (upgrade) is no conflict.
TEST_F(ClusterChecks, OwnReleaseIsNoConflict) {
  auto snapshot = load_cluster_text("c.yaml", R"(apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: metrics-reader
  labels: {app.kubernetes.io/managed-by: Helm}
  annotations: {meta.helm.sh/release-name: dynamo, meta.helm.sh/release-namespace: dynamo-system}
)");
  ASSERT_TRUE(snapshot.has_value());
  EXPECT_TRUE(run_with(bundle, &*snapshot, "helm-ownership-conflict").empty());
}

// dynamo-system's NetworkPolicy selects every pod ({}) and admits ingress only from pods of the
// namespace. The API server is no pod there, so its calls to the webhook on target port 9443
// are dropped; the webhook is fail-closed and has no selector, so pod creation fails in every
// namespace: critical.
TEST_F(ClusterChecks, NetworkPolicyBlackholesWebhook) {
  std::vector<Finding> f = run_with(bundle, &cluster, "webhook-network-policy-blocks");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kCritical);
  EXPECT_NE(f[0].message.find("dynamo-system/same-namespace-only"), std::string::npos);
  EXPECT_NE(f[0].message.find("port 9443"), std::string::npos) << f[0].message;
  EXPECT_EQ(affects(f[0], "webhooks"), std::vector<std::string>{"pods.dynamo.example.com"});
  EXPECT_TRUE(run_with(bundle, nullptr, "webhook-network-policy-blocks").empty());
}

// An ipBlock peer may hold the API server's address, and a rule on another port does not
// admit the webhook's: only the first is no finding.
TEST_F(ClusterChecks, NetworkPolicyRulesThatAdmitTheApiServer) {
  auto with_rule = [&](const std::string& rule) {
    return load_cluster_text("c.yaml", R"(apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: np, namespace: dynamo-system}
spec:
  podSelector: {matchLabels: {app: operator}}
  ingress:
)" + rule);
  };
  auto ip_block = with_rule("  - from: [{ipBlock: {cidr: 10.0.0.0/8}}]\n");
  ASSERT_TRUE(ip_block.has_value());
  EXPECT_TRUE(run_with(bundle, &*ip_block, "webhook-network-policy-blocks").empty());
  auto other_port = with_rule("  - ports: [{port: 8080}]\n");
  ASSERT_TRUE(other_port.has_value());
  EXPECT_EQ(run_with(bundle, &*other_port, "webhook-network-policy-blocks").size(), 1u);
  auto right_port = with_rule("  - ports: [{port: 9443}]\n");
  ASSERT_TRUE(right_port.has_value());
  EXPECT_TRUE(run_with(bundle, &*right_port, "webhook-network-policy-blocks").empty());
}

// The vendor's fail-closed pod injector already sees pod creation everywhere; the bundle adds
// its own fail-closed one. Mutating webhooks run in series: 10 s + 10 s = 20 s worst case, and
// two backends can each stop pods: high. Other teams' namespaces are the snapshot's 11 less
// dynamo-system (the install's own) and the cluster's own kube-system, kube-public and
// kube-node-lease: default, monitoring, team-a, team-b, team-c, vendor-mesh, widgets (7).
TEST_F(ClusterChecks, AdmissionChainOnPods) {
  std::vector<Finding> f = run_with(bundle, &cluster, "admission-chain-pods");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kHigh);
  EXPECT_EQ(affects(f[0], "cluster webhooks"),
            std::vector<std::string>{"sidecar.mesh.example.com"});
  EXPECT_EQ(affects(f[0], "bundle webhooks"), std::vector<std::string>{"pods.dynamo.example.com"});
  EXPECT_EQ(affects(f[0], "namespaces").size(), 7u);
  EXPECT_NE(f[0].message.find("worst case to 20 s"), std::string::npos) << f[0].message;
}

// team-a-devs is bound to the built-in edit role in team-a; the bundle's widgets-editor is
// labelled aggregate-to-edit, so they gain its rights there (and admins through admin, which
// aggregates edit: the bootstrap policy labels edit aggregate-to-admin).
TEST_F(ClusterChecks, AggregationNamesTheClustersSubjects) {
  std::vector<Finding> f = run_with(bundle, &cluster, "rbac-aggregates-to-default-roles");
  ASSERT_EQ(f.size(), 1u);
  std::vector<std::string> gained = affects(f[0], "gained by");
  ASSERT_FALSE(gained.empty());
  EXPECT_NE(
      std::find(gained.begin(), gained.end(),
                "Group team-a-devs in team-a (RoleBinding team-a/developers-edit, role edit)"),
      gained.end());
  EXPECT_TRUE(affects(run_with(bundle, nullptr, "rbac-aggregates-to-default-roles")[0], "gained by")
                  .empty());
}

}  // namespace
}  // namespace footprint
