// crd-not-installed: APIs the bundle needs whose CRDs it does not ship.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analysis/check_testing.h"
#include "analysis/models/crd_models.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

// A bundle that ships example.com's CRD and whose roles also name widgets of
// extra.example.com: the group is owned only because it shares the domain example.com, and only
// a role names it. Projects discover such APIs and switch modes by whether they are served
// (Calico's components look up projectcalico.org, served by its API server or by CRDs, and run
// differently without it), so installing them on footprint's advice changes the product: not
// reported. A webhook on the same group means the operator expects requests for it: high.
TEST(CrdNotInstalled, RolesAloneOnADomainGroupAreNotReported) {
  std::string crd = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions: [{name: v1, served: true, storage: true}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: op}
rules: [{apiGroups: [extra.example.com], resources: [gadgets], verbs: [get, list, watch]}]
)";
  EXPECT_TRUE(run_check(bundle_from(crd), "crd-not-installed").empty());
  std::string webhook = crd + R"(---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: gadgets.extra.example.com
  clientConfig: {service: {namespace: ops, name: hooks}}
  rules: [{operations: [CREATE], apiGroups: [extra.example.com], apiVersions: [v1], resources: [gadgets]}]
)";
  auto used = run_check(bundle_from(webhook), "crd-not-installed");
  ASSERT_EQ(used.size(), 1u);
  EXPECT_EQ(used[0].severity, Severity::kHigh);
  // Shared Kubernetes domains never make a group the install's own.
  std::string shared = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: workloads.kueue.x-k8s.io}
spec:
  group: kueue.x-k8s.io
  scope: Namespaced
  names: {kind: Workload, plural: workloads}
  versions: [{name: v1beta1, served: true, storage: true}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: op}
rules: [{apiGroups: [jobset.x-k8s.io], resources: [jobsets, jobsets/status], verbs: [get, update]}]
)";
  EXPECT_TRUE(run_check(bundle_from(shared), "crd-not-installed").empty());
}

}  // namespace
}  // namespace footprint
