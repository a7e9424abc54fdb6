// PriorityClasses. The Priority admission plugin (plugin/pkg/admission/priority/admission.go)
// gives a pod without priorityClassName the globalDefault class's value, rejects a second
// globalDefault class, and rejects pods naming a class that does not exist; user classes may
// not exceed 1,000,000,000 (pkg/apis/scheduling/types.go HighestUserDefinablePriority, checked
// in pkg/apis/scheduling/validation). preemptionPolicy defaults to PreemptLowerPriority.
#include "analysis/cluster_wide/priority_classes.h"

#include <gtest/gtest.h>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

// kubevirt's class (kubevirt.yaml) and the Deployment that uses it.
constexpr const char* kKubevirt = R"(
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: kubevirt-cluster-critical}
value: 1000000000
globalDefault: false
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: virt-operator, namespace: kubevirt}
spec:
  selector: {matchLabels: {app: v}}
  template:
    metadata: {labels: {app: v}}
    spec:
      priorityClassName: kubevirt-cluster-critical
      containers: [{name: v, image: x}]
)";

TEST(PriorityClasses, HighestUserValuePreemptsEveryone) {
  Bundle b = bundle_from(kKubevirt);
  auto findings = run_check(b, "priority-class-preemption");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("value 1,000,000,000 and preemptionPolicy "
                                     "PreemptLowerPriority (the default)"),
            std::string::npos);
  EXPECT_NE(findings[0].message.find("Deployment kubevirt/virt-operator"), std::string::npos);
  EXPECT_TRUE(run_check(b, "priority-class-global-default").empty());
  EXPECT_TRUE(run_check(b, "priority-class-missing").empty());
}

TEST(PriorityClasses, LowerValueIsMediumAndNeverIsQuiet) {
  Bundle b = bundle_from(R"(
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: batch-high}
value: 100000
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: no-preempt}
value: 200000
preemptionPolicy: Never
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: -10
)");
  auto findings = run_check(b, "priority-class-preemption");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].object.name, "batch-high");
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  EXPECT_NE(findings[0].message.find("No pod of the bundle uses it"), std::string::npos);
}

TEST(PriorityClasses, AboveTheUserMaximumIsRejected) {
  // 2e9 is a float to go-yaml; kubectl's decoder sends the integral number 2000000000.
  Bundle b = bundle_from(R"(
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: too-high}
value: 2e9
)");
  auto findings = run_check(b, "priority-class-preemption");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("value 2,000,000,000, above 1,000,000,000"),
            std::string::npos);
  EXPECT_NE(findings[0].message.find("the API server rejects it"), std::string::npos);
}

TEST(PriorityClasses, GlobalDefaultChangesEveryTeamsPods) {
  Bundle b = bundle_from(R"(
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: everything}
value: 1000
globalDefault: true
)");
  auto findings = run_check(b, "priority-class-global-default");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("gets priority 1,000 and may preempt"), std::string::npos);
  EXPECT_NE(findings[0].message.find("Only one default may exist"), std::string::npos);
  // The same object is not reported again for preemption.
  EXPECT_TRUE(run_check(b, "priority-class-preemption").empty());
}

TEST(PriorityClasses, MissingClassRejectsPods) {
  Bundle b = bundle_from(R"(
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: a}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec:
      priorityClassName: agent-critical
      containers: [{name: a, image: x}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: node, namespace: a}
spec:
  selector: {matchLabels: {app: node}}
  template:
    metadata: {labels: {app: node}}
    spec:
      priorityClassName: system-node-critical
      containers: [{name: node, image: x}]  # a bare `n` is a YAML 1.1 boolean, no label value
)");
  auto findings = run_check(b, "priority-class-missing");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].object.name, "agent");
  EXPECT_NE(findings[0].message.find("agent-critical"), std::string::npos);
  // system-node-critical exists in every cluster, with value 2,000,001,000.
  auto uses = priority_classes(b, pod_templates(b));
  ASSERT_EQ(uses.size(), 2u);
  EXPECT_EQ(uses[1].name, "system-node-critical");
  EXPECT_TRUE(uses[1].system);
  EXPECT_EQ(uses[1].value, 2'000'001'000);
}

}  // namespace
}  // namespace footprint
