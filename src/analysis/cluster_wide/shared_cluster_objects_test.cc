// Cluster objects the install shares with every team: RuntimeClasses, CSIDrivers and mutating
// admission policies bound to shared resources.
#include <gtest/gtest.h>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

TEST(ClusterObjectShared, RuntimeClassAndCsiDriver) {
  Bundle b = bundle_from(R"(
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: nvidia}
handler: nvidia
scheduling: {nodeSelector: {nvidia.com/gpu.present: "true"}}
---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: ebs.csi.aws.com}
spec: {attachRequired: true, podInfoOnMount: false}
)");
  auto findings = run_check(b, "cluster-object-shared");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_NE(findings[0].message.find("runs with handler nvidia, is placed on nodes labelled "
                                     "nvidia.com/gpu.present=true"),
            std::string::npos);
  EXPECT_NE(findings[1].message.find("attachRequired: true, podInfoOnMount: false"),
            std::string::npos);
}

// A MutatingAdmissionPolicy acts only through a binding (admission model); bound without
// selectors it rewrites every namespace's pods.
TEST(MutatingPolicySharedResources, BoundPolicyOnPods) {
  std::string policy = R"(
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: add-sidecar}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
  failurePolicy: Fail
  reinvocationPolicy: Never
  mutations: [{patchType: ApplyConfiguration, applyConfiguration: {expression: "Object{}"}}]
)";
  Bundle unbound = bundle_from(policy);
  EXPECT_TRUE(run_check(unbound, "mutating-policy-shared-resources").empty());
  Bundle bound = bundle_from(policy + R"(
---
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicyBinding
metadata: {name: add-sidecar}
spec: {policyName: add-sidecar}
)");
  auto findings = run_check(bound, "mutating-policy-shared-resources");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("other-team"), std::string::npos);
  EXPECT_NE(findings[0].message.find("kube-system"), std::string::npos);
  Bundle opt_in = bundle_from(policy + R"(
---
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicyBinding
metadata: {name: add-sidecar}
spec:
  policyName: add-sidecar
  matchResources: {namespaceSelector: {matchLabels: {sidecar: enabled}}}
)");
  EXPECT_TRUE(run_check(opt_in, "mutating-policy-shared-resources").empty());
}

}  // namespace
}  // namespace footprint
