// Write access to cluster configuration: webhook configurations and CRDs.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analysis/check_testing.h"
#include "analysis/models/rbac_models.h"

namespace footprint {
namespace {

using testing::affects;
using testing::bundle_from;
using testing::cluster_role;
using testing::run_check;
using testing::says;

// Each rule's resourceNames belong to that rule: the finding lists the names of every rule, not
// the first rule's for all. A ValidatingAdmissionPolicy with its binding rejects requests in the
// API server itself, so creating them is as strong as writing any webhook configuration (high).
TEST(WebhookConfigWrite, NamesOfEveryRuleAndAdmissionPolicies) {
  constexpr const char* kBinding = R"(
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: hooks}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: hooks}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)";
  auto own = run_check(bundle_from(std::string(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: hooks}
rules:
- {apiGroups: [admissionregistration.k8s.io], resources: [mutatingwebhookconfigurations], resourceNames: [op-mutating], verbs: [update]}
- {apiGroups: [admissionregistration.k8s.io], resources: [validatingwebhookconfigurations], resourceNames: [op-validating], verbs: [update]}
)") + kBinding,
                                   "ops"),
                       "rbac-webhook-config-write");
  ASSERT_EQ(own.size(), 1u);
  EXPECT_EQ(own[0].severity, Severity::kLow);
  EXPECT_NE(own[0].message.find("only [op-mutating, op-validating]"), std::string::npos)
      << own[0].message;
  auto policies = run_check(bundle_from(std::string(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: hooks}
rules:
- {apiGroups: [admissionregistration.k8s.io], resources: [validatingadmissionpolicies, validatingadmissionpolicybindings], verbs: [create]}
)") + kBinding,
                                        "ops"),
                            "rbac-webhook-config-write");
  ASSERT_EQ(policies.size(), 1u);
  EXPECT_EQ(policies[0].severity, Severity::kHigh);
  EXPECT_NE(policies[0].summary.find("admission policy"), std::string::npos);
}

// update limited by resourceNames rewrites only the CRDs named (the authorizer compares names by
// equality, ResourceNameMatches in rbac's evaluation helpers), so the finding lists them instead
// of claiming any CRD. Gateway API's gateway.networking.k8s.io CRDs are shared by every
// controller that implements it: rewriting them is medium and named. A create rule without names
// lets it create any CRD, but rewrite only the named ones.
TEST(CrdWrite, NamedCrdsAreListedAndOtherProjectsFlagged) {
  std::string crd = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
---)";
  std::string own = crd + cluster_role(R"(- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  resourceNames: [widgets.example.com]
  verbs: [get, update, patch])");
  auto mine = run_check(bundle_from(own), "rbac-crd-write");
  ASSERT_EQ(mine.size(), 1u);
  EXPECT_EQ(mine[0].severity, Severity::kLow);
  EXPECT_TRUE(says(mine[0], "it may rewrite only the CRD widgets.example.com"));

  std::string shared = crd + cluster_role(R"(- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  verbs: [get, list, watch, create]
- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  resourceNames: [widgets.example.com, gateways.gateway.networking.k8s.io]
  verbs: [update])");
  auto both = run_check(bundle_from(shared), "rbac-crd-write");
  ASSERT_EQ(both.size(), 1u);
  EXPECT_EQ(both[0].severity, Severity::kMedium);
  EXPECT_FALSE(says(both[0], "rewrite any"));
  EXPECT_TRUE(says(both[0], "it may create any CustomResourceDefinition, and rewrite the 2 CRDs"));
  EXPECT_EQ(affects(both[0], "other projects' CRDs"),
            std::vector<std::string>{"gateways.gateway.networking.k8s.io"});
}

}  // namespace
}  // namespace footprint
