// workload-replaced-at-once: Recreate and maxUnavailable 100% rollouts.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;
using testing::says;

// The Deployment controller's Recreate strategy scales the old ReplicaSet to zero and waits for
// its pods to terminate before it scales up the new one (pkg/controller/deployment/recreate.go,
// rolloutRecreate); a percentage maxUnavailable is scaled to the replica count, rounding down
// (intstr.GetScaledValueFromIntOrPercent), so 100% allows every pod down. The default (25%, and
// RollingUpdate) and OnDelete replace nothing at once.
TEST(WorkloadReplacedAtOnce, RecreateAndFullUnavailability) {
  auto deployment = [](std::string_view strategy) {
    return fmt::format(R"(apiVersion: apps/v1
kind: Deployment
metadata: {{name: op, namespace: ops}}
spec:
  selector: {{matchLabels: {{app: op}}}}
  strategy: {}
  template:
    metadata: {{labels: {{app: op}}}}
    spec: {{containers: [{{name: c, image: "op:1.0"}}]}}
)",
                       strategy);
  };
  auto recreate =
      run_check(bundle_from(deployment("{type: Recreate}")), "workload-replaced-at-once");
  ASSERT_EQ(recreate.size(), 1u);
  EXPECT_EQ(recreate[0].severity, Severity::kLow);
  EXPECT_TRUE(says(recreate[0], "its strategy is Recreate"));
  EXPECT_EQ(run_check(bundle_from(deployment("{rollingUpdate: {maxUnavailable: \"100%\"}}")),
                      "workload-replaced-at-once")
                .size(),
            1u);
  EXPECT_TRUE(run_check(bundle_from(deployment("{rollingUpdate: {maxUnavailable: \"25%\"}}")),
                        "workload-replaced-at-once")
                  .empty());
  EXPECT_TRUE(run_check(bundle_from(deployment("{}")), "workload-replaced-at-once").empty());

  std::string daemonset = R"(apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: ops}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: "100%"}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: c, image: "agent:1.0"}]}
)";
  auto agent = run_check(bundle_from(daemonset), "workload-replaced-at-once");
  ASSERT_EQ(agent.size(), 1u);
  EXPECT_EQ(agent[0].severity, Severity::kMedium);
  EXPECT_TRUE(says(agent[0], "stops on every node together"));
}

// A Recreate operator that serves a fail-closed webhook on pods in every namespace: while no pod
// runs, the API server rejects other teams' pod creation (failurePolicy Fail). Medium.
TEST(WorkloadReplacedAtOnce, FailClosedWebhookBackendStopsOtherTeams) {
  Bundle b = bundle_from(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: op, namespace: ops}
spec:
  selector: {matchLabels: {app: op}}
  strategy: {type: Recreate}
  template:
    metadata: {labels: {app: op}}
    spec: {containers: [{name: c, image: "op:1.0"}]}
---
apiVersion: v1
kind: Service
metadata: {name: op-webhook, namespace: ops}
spec:
  selector: {app: op}
  ports: [{port: 443, targetPort: 9443}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: op}
webhooks:
- name: pods.op.example.com
  clientConfig: {service: {name: op-webhook, namespace: ops}}
  rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
  failurePolicy: Fail
  sideEffects: None
  admissionReviewVersions: [v1]
)",
                         "ops");
  auto f = run_check(b, "workload-replaced-at-once");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kMedium);
  EXPECT_TRUE(says(f[0], "pods.op.example.com"));
  EXPECT_TRUE(says(f[0], "other teams' included"));
}

}  // namespace
}  // namespace footprint
