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

// The API server refuses a CRD with a field of the wrong type, so its kind stays unknown; the
// objects after it keep their places.
TEST(Bundle, ACrdSetAsideForAWrongFieldTypeDefinesNoKind) {
  Bundle b = bundle_from(
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: before}\n---\n"
      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
      "metadata: {name: widgets.example.com, labels: [x]}\nspec:\n  group: example.com\n"
      "  scope: Cluster\n  names: {kind: Widget, plural: widgets}\n  versions:\n"
      "  - {name: v1, served: true, storage: true}\n---\n"
      "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n");
  ASSERT_EQ(b.objects.size(), 2u);
  ASSERT_EQ(b.input.invalid_documents.size(), 1u);
  EXPECT_EQ(b.input.invalid_documents[0].position.line, 7u);  // the CRD's metadata line
  EXPECT_EQ(b.objects[1].kind, "Widget");
  EXPECT_EQ(b.objects[1].index, 1u);
  EXPECT_EQ(b.objects[1].scope, Scope::kUnknown);
  EXPECT_EQ(b.crd_for("example.com", "Widget"), nullptr);
}

// Objects set aside in several blocks of the parallel pass, and in two neighbouring ones: the
// rest keep input order and consecutive indices, on one thread and on four.
TEST(Bundle, ObjectsWithWrongFieldTypesAreSetAsideAcrossBlocks) {
  std::string text;
  std::vector<std::string> kept;
  size_t wrong = 0;
  for (int i = 0; i < 3000; ++i) {
    bool bad = i % 700 == 3 || i == 1023 || i == 1024;
    text += fmt::format("---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: cm-{}{}}}\n", i,
                        bad ? ", labels: [x]" : "");
    if (bad) {
      ++wrong;
    } else {
      kept.push_back(fmt::format("cm-{}", i));
    }
  }
  ASSERT_EQ(wrong, 7u);  // 3, 703, 1023, 1024, 1403, 2103, 2803
  for (unsigned jobs : {1u, 4u}) {
    LoadOptions options;
    options.jobs = jobs;
    options.keep_valid_documents = true;
    auto loaded = load_texts({{"test.yaml", text}}, options);
    ASSERT_TRUE(loaded.has_value());
    Bundle b = build_bundle(std::move(*loaded), BundleOptions{});
    EXPECT_EQ(b.input.invalid_documents.size(), wrong);
    ASSERT_EQ(b.objects.size(), kept.size());
    for (uint32_t i = 0; i < b.objects.size(); ++i) {
      ASSERT_EQ(b.objects[i].name, kept[i]) << i;
      ASSERT_EQ(b.objects[i].index, i);
      ASSERT_EQ(b.find("", "ConfigMap", "default", kept[i]), &b.objects[i]);
    }
  }
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

// More objects than one block of the parallel passes, on one thread and on four.
TEST(Bundle, ALaterDefinitionReplacesAnEarlierOneOnAnyNumberOfThreads) {
  std::string text;
  for (int i = 0; i < 3000; ++i)
    text += fmt::format(
        "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: cm-{}, namespace: a}}\n", i);
  text +=
      "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-5, namespace: a}\n"     // 3000
      "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-5, namespace: a}\n"     // 3001
      "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-2500, namespace: a}\n"  // 3002
      "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-5, namespace: b}\n"     // 3003
      "---\napiVersion: v1\nkind: Secret\nmetadata: {name: cm-5, namespace: a}\n";       // 3004
  for (unsigned jobs : {1u, 4u}) {
    LoadOptions options;
    options.jobs = jobs;
    auto loaded = load_texts({{"test.yaml", text}}, options);
    ASSERT_TRUE(loaded.has_value());
    Bundle b = build_bundle(std::move(*loaded), BundleOptions{});
    ASSERT_EQ(b.objects.size(), 3005u);
    EXPECT_EQ(b.objects[5].replaced_by, 3000u);
    EXPECT_EQ(b.objects[3000].replaced_by, 3001u);
    EXPECT_EQ(b.objects[2500].replaced_by, 3002u);
    for (uint32_t i : {0u, 4u, 6u, 2999u, 3001u, 3002u, 3003u, 3004u})
      EXPECT_FALSE(b.objects[i].replaced()) << i;
    EXPECT_EQ(b.find("", "ConfigMap", "a", "cm-5"), &b.objects[3001]);
    EXPECT_EQ(b.find("", "ConfigMap", "a", "cm-2500"), &b.objects[3002]);
    EXPECT_EQ(b.find("", "ConfigMap", "a", "cm-2999"), &b.objects[2999]);
    EXPECT_EQ(b.find("", "ConfigMap", "b", "cm-5"), &b.objects[3003]);
    EXPECT_EQ(b.find("", "Secret", "a", "cm-5"), &b.objects[3004]);
    EXPECT_EQ(b.find("", "ConfigMap", "a", "cm-3000"), nullptr);
    EXPECT_EQ(b.find("apps", "ConfigMap", "a", "cm-5"), nullptr);
    // 3000 names in a, one in b; each once, the last definition, in input order.
    const std::vector<uint32_t>& config_maps = b.of_kind("", "ConfigMap");
    ASSERT_EQ(config_maps.size(), 3001u);
    EXPECT_TRUE(std::is_sorted(config_maps.begin(), config_maps.end()));
    EXPECT_EQ(std::count(config_maps.begin(), config_maps.end(), 5u), 0);
    EXPECT_EQ(std::count(config_maps.begin(), config_maps.end(), 3000u), 0);
    EXPECT_EQ(std::count(config_maps.begin(), config_maps.end(), 2500u), 0);
    EXPECT_EQ(config_maps.back(), 3003u);
    EXPECT_EQ(b.of_kind("", "Secret"), std::vector<uint32_t>{3004});
  }
  EXPECT_EQ(Bundle{}.find("", "ConfigMap", "a", "cm-5"), nullptr);
}

// Objects are made in ranges of 1,024 on several threads. Of 3,000 ConfigMaps, the 1,501st has a
// wrong field type and is set aside, and the last (2999 % 7 == 10 % 7) redefines the 11th:
// indexes, the replacement and the lookups are those of input order.
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
