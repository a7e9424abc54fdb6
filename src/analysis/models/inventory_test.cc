#include "analysis/models/inventory.h"

#include <gtest/gtest.h>

#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;

// The seed counts "8 webhooks (4 mutating + 4 validating)" inside 2 configuration objects.
TEST(Inventory, CountsWebhooksOneByOne) {
  std::string text =
      "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\n"
      "metadata: {name: m}\nwebhooks: [{name: a.x}, {name: b.x}, {name: c.x}, {name: d.x}]\n---\n"
      "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n"
      "metadata: {name: v}\nwebhooks: [{name: a.x}, {name: b.x}, {name: c.x}, {name: d.x}]\n";
  Inventory inv = take_inventory(bundle_from(text));
  EXPECT_EQ(inv.webhooks(), 8u);
  EXPECT_EQ(inv.mutating_webhooks, 4u);
  EXPECT_EQ(inv.validating_webhooks, 4u);
  EXPECT_EQ(inv.mutating_configurations, 1u);
  EXPECT_EQ(inv.validating_configurations, 1u);
  EXPECT_EQ(inv.cluster_scoped, 2u);
}

// With --cluster, a kind whose CRD only the cluster has is counted in the scope that CRD gives
// it, not as unknown.
TEST(Inventory, ScopeFromAKnownTable) {
  Bundle b = bundle_from(
      "apiVersion: monitoring.coreos.com/v1\nkind: PodMonitor\nmetadata: {name: p, namespace: "
      "ops}\n",
      "rel");
  EXPECT_EQ(take_inventory(b).unknown_scope, 1u);
  ResourceTable known = b.resources;
  ResourceInfo monitor;
  monitor.group = "monitoring.coreos.com";
  monitor.versions = {"v1"};
  monitor.kind = "PodMonitor";
  monitor.resource = "podmonitors";
  monitor.scope = Scope::kNamespaced;
  known.add(monitor);
  Inventory inv = take_inventory(b, &known);
  EXPECT_EQ(inv.unknown_scope, 0u);
  EXPECT_EQ(inv.namespaced, 1u);
}

TEST(Inventory, KindsByScopeAndNamespaces) {
  Inventory inv = take_inventory(bundle_from(
      "apiVersion: v1\nkind: Namespace\nmetadata: {name: ops}\n---\n"
      "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: a, namespace: ops}\n---\n"
      "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: b}\n---\n"
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: c}\n---\n"
      "apiVersion: monitoring.coreos.com/v1\nkind: PodMonitor\nmetadata: {name: p, namespace: "
      "ops}\n",
      "rel"));
  EXPECT_EQ(inv.objects, 5u);
  EXPECT_EQ(inv.cluster_scoped, 2u);
  EXPECT_EQ(inv.namespaced, 2u);
  EXPECT_EQ(inv.unknown_scope, 1u);
  ASSERT_EQ(inv.kinds.size(), 4u);
  EXPECT_EQ(inv.kinds[0].key, "ClusterRole");
  EXPECT_EQ(inv.kinds[3].key, "ServiceAccount");
  EXPECT_EQ(inv.kinds[3].namespaced, 2u);
  ASSERT_EQ(inv.namespaces.size(), 2u);
  EXPECT_EQ(inv.namespaces[0].name, "ops");
  EXPECT_TRUE(inv.namespaces[0].created);
  EXPECT_EQ(inv.namespaces[0].objects, 2u);  // the Namespace object itself is cluster-scoped
  EXPECT_EQ(inv.namespaces[1].name, "rel");
  EXPECT_TRUE(inv.namespaces[1].release);
  EXPECT_FALSE(inv.namespaces[1].created);
}

TEST(Inventory, KindsSharedByTwoGroupsAreQualified) {
  Inventory inv = take_inventory(
      bundle_from("apiVersion: v1\nkind: Event\nmetadata: {name: a}\n---\n"
                  "apiVersion: events.k8s.io/v1\nkind: Event\nmetadata: {name: b}\n"));
  ASSERT_EQ(inv.kinds.size(), 2u);
  EXPECT_EQ(inv.kinds[0].key, "Event");
  EXPECT_EQ(inv.kinds[1].key, "Event.events.k8s.io");
}

}  // namespace
}  // namespace footprint
