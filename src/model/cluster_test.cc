// Reading a cluster snapshot, and the engines fed with it: namespaces with their labels, RBAC
// where the cluster's bindings stand beside the bundle's, and the admission chain in the order
// the API server calls it.
#include "model/cluster.h"

#include <gtest/gtest.h>

#include "model/admission.h"
#include "model/rbac.h"
#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;

constexpr const char* kSnapshot = R"(apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Namespace
  metadata: {name: team-a, labels: {team: a}}
- apiVersion: v1
  kind: Namespace
  metadata: {name: kube-system}
- apiVersion: v1
  kind: Secret
  metadata: {name: token, namespace: team-a}
  data: {token: c2VjcmV0}
- apiVersion: rbac.authorization.k8s.io/v1
  kind: RoleBinding
  metadata: {name: devs, namespace: team-a}
  roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}
  subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: team-a-devs}]
- apiVersion: admissionregistration.k8s.io/v1
  kind: MutatingWebhookConfiguration
  metadata: {name: zz-vendor}
  webhooks:
  - name: vendor.example.com
    clientConfig: {url: "https://vendor.example.com"}
    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
- apiVersion: apiextensions.k8s.io/v1
  kind: CustomResourceDefinition
  metadata: {name: podmonitors.monitoring.coreos.com}
  spec:
    group: monitoring.coreos.com
    names: {kind: PodMonitor, plural: podmonitors}
    scope: Namespaced
    versions: [{name: v1, served: true, storage: true}]
)";

Cluster snapshot() {
  auto loaded = load_cluster_text("cluster.yaml", kSnapshot);
  EXPECT_TRUE(loaded.has_value());
  return std::move(*loaded);
}

TEST(Cluster, SecretsAreDroppedWhenLoading) {
  Cluster c = snapshot();
  EXPECT_EQ(c.secrets_dropped, 1u);
  EXPECT_EQ(c.objects.find("", "Secret", "team-a", "token"), nullptr);
  EXPECT_NE(c.objects.find("", "Namespace", "", "team-a"), nullptr);
}

TEST(Cluster, ServesItsCrdsByKindAndPlural) {
  Cluster c = snapshot();
  EXPECT_TRUE(c.serves("monitoring.coreos.com", "PodMonitor"));
  EXPECT_TRUE(c.serves("monitoring.coreos.com", "podmonitors"));
  EXPECT_FALSE(c.serves("monitoring.coreos.com", "ServiceMonitor"));
  EXPECT_FALSE(c.serves("", "pods"));  // built in, not a CRD
}

// The API server sets kubernetes.io/metadata.name on every namespace (NamespaceDefaultLabelName,
// since 1.21), so selectors may match it even when a snapshot omits it.
TEST(Cluster, NamespacesKeepTheirLabelsAndJoinTheBundles) {
  Cluster c = snapshot();
  Bundle b =
      bundle_from("apiVersion: v1\nkind: Namespace\nmetadata: {name: op-system}\n", "op-system");
  std::vector<ClusterNamespace> ns = cluster_namespaces(c, b);
  ASSERT_EQ(ns.size(), 3u);
  EXPECT_EQ(ns[0].name, "kube-system");
  EXPECT_TRUE(ns[0].system);
  EXPECT_EQ(ns[1].name, "op-system");
  EXPECT_TRUE(ns[1].operator_owned);
  EXPECT_EQ(ns[2].name, "team-a");
  EXPECT_EQ(ns[2].labels.at("team"), "a");
  EXPECT_EQ(ns[2].labels.at(kNamespaceNameLabel), "team-a");
  EXPECT_FALSE(ns[2].operator_owned);
}

// A ClusterRole of the bundle labelled aggregate-to-edit joins the built-in edit role
// (clusterrole_aggregation_controller), so the cluster's RoleBinding of edit to a group grants
// it in that namespace, and nowhere else.
TEST(Cluster, ClusterBindingsReachTheBundlesAggregatedRules) {
  Cluster c = snapshot();
  Bundle b = bundle_from(R"(apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: widgets-edit
  labels: {rbac.authorization.k8s.io/aggregate-to-edit: "true"}
rules: [{apiGroups: [example.com], resources: [widgets], verbs: [create]}]
)");
  RbacPolicy policy = RbacPolicy::build(b, &c.objects);
  Identity dev{"alice", {"team-a-devs", "system:authenticated"}};
  Request in_a{"create", "example.com", "widgets", "", "", "team-a", ""};
  Request in_b{"create", "example.com", "widgets", "", "", "team-b", ""};
  Decision d = policy.authorize(dev, in_a);
  EXPECT_TRUE(d.allowed);
  ASSERT_NE(d.binding, nullptr);
  EXPECT_TRUE(d.binding->in_cluster);
  EXPECT_FALSE(policy.authorize(dev, in_b).allowed);
  // Without the snapshot nobody is bound to edit in team-a.
  EXPECT_FALSE(RbacPolicy::build(b).authorize(dev, in_a).allowed);
}

// Webhooks are called configuration by configuration in name order
// (apiserver/pkg/admission/configuration/mutating_webhook_manager.go sorts by name), whichever
// side they come from.
TEST(Cluster, AdmissionChainMergesInNameOrder) {
  Cluster c = snapshot();
  Bundle b = bundle_from(R"(apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: aa-operator}
webhooks:
- name: op.example.com
  clientConfig: {url: "https://op.example.com"}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
)");
  Admission chain = read_admission(b, &c.objects);
  ASSERT_EQ(chain.webhooks.size(), 2u);
  EXPECT_EQ(chain.webhooks[0].name, "op.example.com");
  EXPECT_FALSE(chain.webhooks[0].in_cluster);
  EXPECT_EQ(chain.webhooks[1].name, "vendor.example.com");
  EXPECT_TRUE(chain.webhooks[1].in_cluster);
  EXPECT_EQ(read_admission(b).webhooks.size(), 1u);
}

TEST(Cluster, SnapshotCommandListsEveryKindItReads) {
  std::string command = snapshot_command();
  EXPECT_TRUE(command.starts_with("kubectl get namespaces,customresourcedefinitions,"));
  EXPECT_TRUE(command.ends_with(" -A -o yaml > cluster.yaml"));
  EXPECT_EQ(command.find("secrets"), std::string::npos);
}

}  // namespace
}  // namespace footprint
