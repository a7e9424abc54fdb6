#include <gtest/gtest.h>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

// One finding per missing group (installing that project's CRDs is one step), naming its kinds
// (the seed's restricted mode ships PodMonitors but no monitoring.coreos.com CRDs).
TEST(CrdMissing, OneFindingPerGroupNamingItsKinds) {
  Bundle b = bundle_from(
      "apiVersion: monitoring.coreos.com/v1\nkind: PodMonitor\nmetadata: {name: a}\n---\n"
      "apiVersion: monitoring.coreos.com/v1\nkind: PodMonitor\nmetadata: {name: b}\n---\n"
      "apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: c}\n---\n"
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\n");
  auto findings = run_check(b, "crd-missing");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].object.name, "a");
  EXPECT_NE(findings[0].message.find("3 objects use kinds PodMonitor, ServiceMonitor of group "
                                     "monitoring.coreos.com"),
            std::string::npos);
  EXPECT_NE(findings[0].message.find("the cluster must already have these CRDs"),
            std::string::npos);
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  ASSERT_EQ(findings[0].affects.size(), 1u);
  EXPECT_EQ(findings[0].affects[0].second,
            (std::vector<std::string>{"PodMonitor", "ServiceMonitor"}));
}

TEST(CrdMissing, SilentWhenTheBundleShipsTheCrd) {
  Bundle b = bundle_from(
      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
      "metadata: {name: podmonitors.monitoring.coreos.com}\nspec:\n  group: monitoring.coreos.com\n"
      "  scope: Namespaced\n  names: {kind: PodMonitor, plural: podmonitors}\n  versions: "
      "[{name: v1, served: true, storage: true}]\n---\n"
      "apiVersion: monitoring.coreos.com/v1\nkind: PodMonitor\nmetadata: {name: a}\n");
  EXPECT_TRUE(run_check(b, "crd-missing").empty());
}

// https://kubernetes.io/docs/reference/using-api/deprecation-guide/: extensions/v1beta1
// Ingress was removed in v1.22; networking.k8s.io/v1 replaces it.
TEST(ApiVersionRemoved, NamesTheReleaseAndTheReplacement) {
  Bundle b = bundle_from(
      "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: a}\n---\n"
      "apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata: {name: p}\n---\n"
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ok}\n");
  auto findings = run_check(b, "api-version-removed");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_NE(findings[0].message.find("removed in Kubernetes 1.22"), std::string::npos);
  EXPECT_EQ(findings[0].remediation, "Use apiVersion networking.k8s.io/v1 for Ingress.");
  EXPECT_NE(findings[1].message.find("removed in Kubernetes 1.25"), std::string::npos);
  EXPECT_NE(findings[1].remediation.find("no replacement"), std::string::npos);
  EXPECT_EQ(findings[0].position.line, 1u);
  // Removed built-in kinds are not reported as missing CRDs too.
  EXPECT_TRUE(run_check(b, "crd-missing").empty());
}

TEST(NamespaceOnClusterScoped, PointsAtTheNamespaceField) {
  Bundle b = bundle_from(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: r\n"
      "  namespace: team-a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, "
      "namespace: team-a}\n");
  auto findings = run_check(b, "namespace-on-cluster-scoped");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].object.name, "r");
  EXPECT_EQ(findings[0].object.namespace_, "");
  EXPECT_EQ(findings[0].position.line, 5u);
}

// Kinds that still exist in another version: HorizontalPodAutoscaler autoscaling/v2beta1 was
// removed in 1.25 and CronJob batch/v1beta1 in 1.25 (deprecation guide); the kinds live on in
// autoscaling/v2 and batch/v1. MutatingAdmissionPolicy v1beta1 is served in 1.34 only when
// enabled with --runtime-config (builtin_resources.tsv marks it off by default).
TEST(ApiVersionRemoved, EveryObjectsVersionIsChecked) {
  Bundle b = bundle_from(
      "apiVersion: autoscaling/v2beta1\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\n---\n"
      "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: c}\n---\n"
      "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: ok}\n---\n"
      "apiVersion: admissionregistration.k8s.io/v1beta1\nkind: MutatingAdmissionPolicy\n"
      "metadata: {name: m}\n");
  auto findings = run_check(b, "api-version-removed");
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("removed in Kubernetes 1.25"), std::string::npos);
  EXPECT_EQ(findings[0].remediation, "Use apiVersion autoscaling/v2 for HorizontalPodAutoscaler.");
  EXPECT_EQ(findings[1].remediation, "Use apiVersion batch/v1 for CronJob.");
  EXPECT_EQ(findings[2].severity, Severity::kMedium);
  EXPECT_NE(findings[2].message.find("--runtime-config"), std::string::npos);
}

TEST(DuplicateObject, DefaultedNamespacesCollideWithExplicitOnes) {
  Bundle b = bundle_from(
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n"
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns1}\n---\n"
      "apiVersion: v1\nkind: Secret\nmetadata: {name: c, namespace: ns1}\n---\n"
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns1}\n",
      "ns1");
  auto findings = run_check(b, "duplicate-object");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].position.line, 5u);
  EXPECT_NE(findings[0].message.find("first definition is at test.yaml:1"), std::string::npos);
  EXPECT_EQ(findings[1].position.line, 13u);
}

// kubectl apply and Helm write a bundle in order, so of two definitions with the same identity
// the cluster keeps the last (the duplicate-object message says so). Every model must use that
// one: RBAC (can-i), admission, and the resource table built from CRDs.
TEST(DuplicateObject, ModelsUseTheLastDefinition) {
  Bundle b = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: op}
rules: [{apiGroups: [""], resources: [secrets], verbs: [list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: op}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: op}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: op}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: hooks}
webhooks:
- name: pods.example.com
  clientConfig: {service: {namespace: ops, name: hooks}}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: hooks}
webhooks:
- name: configmaps.example.com
  clientConfig: {service: {namespace: ops, name: hooks}}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions: [{name: v1, served: true, storage: true}]
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Cluster
  names: {kind: Widget, plural: widgets}
  versions: [{name: v1, served: true, storage: true}]
)",
                         "ops");
  RbacPolicy policy = RbacPolicy::build(b);
  Identity op = Identity::service_account("ops", "op");
  EXPECT_FALSE(policy.authorize(op, Request{"list", "", "secrets", "", "", "", ""}).allowed);
  EXPECT_TRUE(policy.authorize(op, Request{"list", "", "configmaps", "", "", "", ""}).allowed);
  Admission a = read_admission(b);
  ASSERT_EQ(a.webhooks.size(), 1u);
  EXPECT_EQ(a.webhooks[0].name, "configmaps.example.com");
  const ResourceInfo* widgets = b.resources.find_kind("example.com", "Widget");
  ASSERT_NE(widgets, nullptr);
  EXPECT_EQ(widgets->scope, Scope::kCluster);
  EXPECT_EQ(b.find("rbac.authorization.k8s.io", "ClusterRole", "", "op")->index, 1u);
  EXPECT_EQ(run_check(b, "duplicate-object").size(), 3u);
}

}  // namespace
}  // namespace footprint
