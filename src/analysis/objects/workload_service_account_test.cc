#include <gtest/gtest.h>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

// plugin/pkg/admission/serviceaccount/admission.go: a pod whose serviceAccountName does not
// exist in its namespace is rejected ("error looking up service account"); the ServiceAccount
// controller (pkg/controller/serviceaccount/serviceaccounts_controller.go) creates only
// "default" in each namespace. An empty serviceAccountName falls back to the deprecated
// serviceAccount field (pkg/apis/core/v1/conversion.go).
TEST(WorkloadServiceAccount, MissingAccountsOnlyAndTheDeprecatedField) {
  Bundle b = bundle_from(R"(apiVersion: v1
kind: ServiceAccount
metadata: {name: operator, namespace: ops}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: good, namespace: ops}
spec:
  template:
    spec: {serviceAccountName: operator, containers: [{name: c, image: x:1}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: typo, namespace: ops}
spec:
  template:
    spec:
      serviceAccountName: operater
      containers: [{name: c, image: x:1}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: old-field, namespace: ops}
spec:
  schedule: "@daily"
  jobTemplate:
    spec:
      template:
        spec: {serviceAccount: cleaner, containers: [{name: c, image: x:1}]}
---
apiVersion: v1
kind: Pod
metadata: {name: uses-default, namespace: ops}
spec: {serviceAccountName: default, containers: [{name: c, image: x:1}]}
---
apiVersion: v1
kind: Pod
metadata: {name: elsewhere, namespace: team-a}
spec: {serviceAccountName: operator, containers: [{name: c, image: x:1}]}
)",
                         "ops");
  auto findings = run_check(b, "workload-service-account-missing");
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_EQ(findings[0].object.name, "typo");
  EXPECT_EQ(findings[0].position.line, 18u);  // the serviceAccountName line
  EXPECT_NE(findings[0].message.find("ops/operater"), std::string::npos) << findings[0].message;
  EXPECT_EQ(findings[1].object.name, "old-field");
  EXPECT_NE(findings[1].message.find("ops/cleaner"), std::string::npos);
  // An account of the same name in another namespace does not count: accounts are namespaced.
  EXPECT_EQ(findings[2].object.name, "elsewhere");
  EXPECT_NE(findings[2].message.find("team-a/operator"), std::string::npos);
}

}  // namespace
}  // namespace footprint
