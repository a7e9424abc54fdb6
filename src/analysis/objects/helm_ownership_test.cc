// helm-ownership-conflict against the cluster snapshot of tests/data/cluster/: objects another
// Helm release owns.
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/analyze.h"
#include "analysis/check_testing.h"
#include "analysis/context.h"
#include "model/cluster.h"

namespace footprint {
namespace {

using testing::ClusterChecks;
using testing::run_check;

// Helm adopts an existing object only with app.kubernetes.io/managed-by=Helm and its own
// meta.helm.sh/release-name and release-namespace (helm pkg/action/validate.go,
// checkOwnership). metrics-reader belongs to other-operator, widgets.example.com to
// widget-operator: two owners, two findings, both high. The Namespace dynamo-system exists
// without Helm's metadata but the bundle does not create it, so it is no conflict.
TEST_F(ClusterChecks, HelmOwnershipConflictsPerOwner) {
  std::vector<Finding> f = run_check(bundle, "helm-ownership-conflict", {}, &cluster);
  ASSERT_EQ(f.size(), 2u);
  std::vector<std::string> owners;
  for (const Finding& finding : f) {
    EXPECT_EQ(finding.severity, Severity::kHigh);
    owners.push_back(finding.summary);
  }
  std::sort(owners.begin(), owners.end());
  EXPECT_NE(owners[0].find("other-operator"), std::string::npos) << owners[0];
  EXPECT_NE(owners[1].find("widget-operator"), std::string::npos) << owners[1];
  EXPECT_TRUE(run_check(bundle, "helm-ownership-conflict", {}, nullptr).empty());
}

// The same object owned by this very release (upgrade) is no conflict.
TEST_F(ClusterChecks, OwnReleaseIsNoConflict) {
  auto snapshot = load_cluster_text("c.yaml", R"(apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: metrics-reader
  labels: {app.kubernetes.io/managed-by: Helm}
  annotations: {meta.helm.sh/release-name: dynamo, meta.helm.sh/release-namespace: dynamo-system}
)");
  ASSERT_TRUE(snapshot.has_value());
  EXPECT_TRUE(run_check(bundle, "helm-ownership-conflict", {}, &*snapshot).empty());
}

}  // namespace
}  // namespace footprint
