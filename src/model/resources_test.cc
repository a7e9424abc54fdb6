#include "model/resources.h"

#include <gtest/gtest.h>

namespace footprint {
namespace {

// Scopes and subresources below are those the Kubernetes API reference lists for v1.34
// (https://kubernetes.io/docs/reference/kubernetes-api/), e.g. "Pod ... namespaced" and the
// pods/exec, pods/eviction, deployments/scale endpoints.
TEST(Resources, BuiltinScopes) {
  const ResourceTable& t = ResourceTable::builtin();
  struct Case {
    const char* group;
    const char* kind;
    const char* resource;
    Scope scope;
  } cases[] = {
      {"", "Pod", "pods", Scope::kNamespaced},
      {"", "Namespace", "namespaces", Scope::kCluster},
      {"", "Node", "nodes", Scope::kCluster},
      {"", "PersistentVolume", "persistentvolumes", Scope::kCluster},
      {"", "Secret", "secrets", Scope::kNamespaced},
      {"apps", "Deployment", "deployments", Scope::kNamespaced},
      {"rbac.authorization.k8s.io", "ClusterRole", "clusterroles", Scope::kCluster},
      {"rbac.authorization.k8s.io", "RoleBinding", "rolebindings", Scope::kNamespaced},
      {"admissionregistration.k8s.io", "MutatingWebhookConfiguration",
       "mutatingwebhookconfigurations", Scope::kCluster},
      {"apiextensions.k8s.io", "CustomResourceDefinition", "customresourcedefinitions",
       Scope::kCluster},
      {"coordination.k8s.io", "Lease", "leases", Scope::kNamespaced},
      {"storage.k8s.io", "StorageClass", "storageclasses", Scope::kCluster},
      {"scheduling.k8s.io", "PriorityClass", "priorityclasses", Scope::kCluster},
      {"policy", "PodDisruptionBudget", "poddisruptionbudgets", Scope::kNamespaced},
      {"resource.k8s.io", "ResourceClaim", "resourceclaims", Scope::kNamespaced},
  };
  for (const Case& c : cases) {
    const ResourceInfo* info = t.find_kind(c.group, c.kind);
    ASSERT_NE(info, nullptr) << c.kind;
    EXPECT_EQ(info->scope, c.scope) << c.kind;
    EXPECT_EQ(info->resource, c.resource) << c.kind;
    EXPECT_TRUE(info->builtin);
    EXPECT_EQ(t.find_resource(c.group, c.resource), info);
  }
}

TEST(Resources, SubresourcesAndGroups) {
  const ResourceTable& t = ResourceTable::builtin();
  const ResourceInfo* pods = t.find_resource("", "pods");
  ASSERT_NE(pods, nullptr);
  for (const char* sub :
       {"exec", "attach", "eviction", "log", "portforward", "status", "binding"}) {
    EXPECT_NE(std::find(pods->subresources.begin(), pods->subresources.end(), sub),
              pods->subresources.end())
        << sub;
  }
  const ResourceInfo* sa = t.find_resource("", "serviceaccounts");
  EXPECT_EQ(sa->subresources, std::vector<std::string>{"token"});
  // Event exists in two groups.
  EXPECT_NE(t.find_kind("", "Event"), nullptr);
  EXPECT_NE(t.find_kind("events.k8s.io", "Event"), nullptr);
  EXPECT_EQ(t.find_kind("", "Deployment"), nullptr);
  EXPECT_TRUE(t.is_builtin_group("apps"));
  EXPECT_TRUE(t.is_builtin_group(""));
  EXPECT_FALSE(t.is_builtin_group("monitoring.coreos.com"));
  EXPECT_TRUE(t.is_builtin_group("extensions"));
  EXPECT_EQ(t.find_kind("autoscaling", "HorizontalPodAutoscaler")->versions.front(), "v2");
}

// https://kubernetes.io/docs/reference/using-api/deprecation-guide/
TEST(Resources, RemovedVersions) {
  const ResourceTable& t = ResourceTable::builtin();
  const RemovedVersion* ingress = t.find_removed("extensions", "v1beta1", "Ingress");
  ASSERT_NE(ingress, nullptr);
  EXPECT_EQ(ingress->removed_in, "1.22");
  EXPECT_EQ(t.find_removed("policy", "v1beta1", "PodSecurityPolicy")->removed_in, "1.25");
  EXPECT_EQ(t.find_removed("batch", "v1beta1", "CronJob")->removed_in, "1.25");
  EXPECT_EQ(t.find_removed("apps", "v1", "Deployment"), nullptr);
}

TEST(Resources, SplitApiVersion) {
  EXPECT_EQ(split_api_version("v1").group, "");
  EXPECT_EQ(split_api_version("v1").version, "v1");
  EXPECT_EQ(split_api_version("apps/v1").group, "apps");
  EXPECT_EQ(split_api_version("rbac.authorization.k8s.io/v1").version, "v1");
}

TEST(Resources, ParseTable) {
  ResourceTable t = parse_resource_table(
      "# comment\ngroup\tversions\tkind\tresource\tscope\tsubresources\n"
      "core\tv1\tThing\tthings\tCluster\ta,b\nx.io\tv2,v1beta1*\tWidget\twidgets\tNamespaced\t-\n"
      "# removed: x.io/v1alpha1 Widget (removed in 1.30)\n");
  ASSERT_EQ(t.all().size(), 2u);
  EXPECT_EQ(t.find_kind("", "Thing")->subresources, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(t.find_kind("x.io", "Widget")->versions, (std::vector<std::string>{"v2", "v1beta1"}));
  EXPECT_EQ(t.find_removed("x.io", "v1alpha1", "Widget")->removed_in, "1.30");
}

}  // namespace
}  // namespace footprint
