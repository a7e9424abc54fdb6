#include "model/object.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

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

// Objects are made in ranges of 1,024 on several threads. Of 3,000 ConfigMaps, the 1,501st has a
// wrong field type and is set aside, and the last (2999 % 7 == 10 % 7) redefines the 11th:
// indexes, the replacement
// and the lookups are those of input order.
TEST(Bundle, ObjectsMadeAtOnceKeepInputOrder) {
  std::string text;
  for (int i = 0; i < 3000; ++i) {
    std::string name = i == 2999 ? "cm-10" : fmt::format("cm-{}", i);
    std::string labels = i == 1500 ? ", labels: [a]" : "";
    text += fmt::format(
        "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: {}, namespace: ns-{}{}}}\n"
        "data: {{k: v}}\n",
        name, i % 7, labels);
  }
  LoadOptions options;
  options.jobs = 4;
  auto loaded = load_texts({{"test.yaml", text}}, options);
  ASSERT_TRUE(loaded.has_value());
  Bundle b = build_bundle(std::move(*loaded), BundleOptions{});
  ASSERT_EQ(b.objects.size(), 2999u);
  ASSERT_EQ(b.input.invalid_documents.size(), 1u);
  EXPECT_EQ(b.input.invalid_documents[0].position.line, 1500u * 5 + 4);  // five lines each
  for (uint32_t i = 0; i < b.objects.size(); ++i) {
    ASSERT_EQ(b.objects[i].index, i);
    // Past the one set aside, object i was document i + 1.
    if (i < 2998) {
      EXPECT_EQ(b.objects[i].name, fmt::format("cm-{}", i < 1500 ? i : i + 1));
    }
  }
  EXPECT_EQ(b.objects[3].namespace_, "ns-3");
  EXPECT_EQ(b.objects[10].replaced_by, 2998u);
  EXPECT_EQ(b.find("", "ConfigMap", "ns-3", "cm-10"), &b.objects[2998]);
  EXPECT_EQ(b.find("", "ConfigMap", "ns-3", "cm-1501"), &b.objects[1500]);  // 1501 % 7 == 3
  // Every object but the replaced one, in input order.
  const std::vector<uint32_t>& all = b.of_kind("", "ConfigMap");
  ASSERT_EQ(all.size(), 2998u);
  EXPECT_EQ(all[10], 11u);
  EXPECT_EQ(all.back(), 2998u);
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
}

}  // namespace
}  // namespace footprint
