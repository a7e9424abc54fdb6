#include "model/object.h"

#include <gtest/gtest.h>

#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;

TEST(Bundle, NamespacesDefaultOnlyForNamespacedKinds) {
  Bundle b = bundle_from(
      "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: op}\n---\n"
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: other}\n---\n"
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: cr}\n",
      "dynamo-system");
  ASSERT_EQ(b.objects.size(), 3u);
  EXPECT_EQ(b.objects[0].namespace_, "dynamo-system");
  EXPECT_TRUE(b.objects[0].namespace_defaulted);
  EXPECT_EQ(b.objects[1].namespace_, "other");
  EXPECT_FALSE(b.objects[1].namespace_defaulted);
  EXPECT_EQ(b.objects[2].namespace_, "");
  EXPECT_EQ(b.objects[2].scope, Scope::kCluster);
  EXPECT_EQ(b.find("", "ServiceAccount", "dynamo-system", "op"), &b.objects[0]);
  EXPECT_EQ(b.of_kind("rbac.authorization.k8s.io", "ClusterRole").size(), 1u);
}

TEST(Bundle, CustomKindsTakeScopeFromTheirCrd) {
  Bundle b = bundle_from(
      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
      "metadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  scope: Cluster\n"
      "  names: {kind: Widget, plural: widgets}\n  versions:\n  - name: v1\n    served: true\n"
      "    storage: true\n    subresources: {status: {}}\n---\n"
      "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n---\n"
      "apiVersion: monitoring.coreos.com/v1\nkind: PodMonitor\nmetadata: {name: pm}\n");
  ASSERT_EQ(b.objects.size(), 3u);
  EXPECT_EQ(b.objects[1].scope, Scope::kCluster);
  EXPECT_EQ(b.objects[1].namespace_, "");
  EXPECT_EQ(b.crd_for("example.com", "Widget"), &b.objects[0]);
  const ResourceInfo* widgets = b.resources.find_resource("example.com", "widgets");
  ASSERT_NE(widgets, nullptr);
  EXPECT_EQ(widgets->subresources, std::vector<std::string>{"status"});
  EXPECT_EQ(b.objects[2].scope, Scope::kUnknown);
}

TEST(Bundle, LabelsAnnotationsAndGeneratedNames) {
  Bundle b = bundle_from(
      "apiVersion: batch/v1\nkind: Job\nmetadata:\n  generateName: hook-\n  labels: {app: x}\n"
      "  annotations: {helm.sh/hook: pre-install}\n");
  EXPECT_EQ(b.objects[0].name, "hook-*");
  EXPECT_EQ(b.objects[0].labels().at("app"), "x");
  EXPECT_EQ(b.objects[0].annotations().at("helm.sh/hook"), "pre-install");
  EXPECT_EQ(b.objects[0].annotation("helm.sh/hook"), "pre-install");
  EXPECT_EQ(b.objects[0].annotation("absent"), "");
  EXPECT_EQ(b.objects[0].display(), "Job default/hook-*");
}

}  // namespace
}  // namespace footprint
