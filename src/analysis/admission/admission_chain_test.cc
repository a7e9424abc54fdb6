// admission-chain-pods against the cluster snapshot of tests/data/cluster/ (each object there is
// commented with why it is there).
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/analyze.h"
#include "analysis/check_testing.h"
#include "analysis/context.h"
#include "model/cluster.h"

namespace footprint {
namespace {

using testing::affects;
using testing::ClusterChecks;
using testing::run_check;

// The vendor's fail-closed pod injector already sees pod creation everywhere; the bundle adds
// its own fail-closed one. Mutating webhooks run in series: 10 s + 10 s = 20 s worst case, and
// two backends can each stop pods: high. Other teams' namespaces are the snapshot's 11 less
// dynamo-system (the install's own) and the cluster's own kube-system, kube-public and
// kube-node-lease: default, monitoring, team-a, team-b, team-c, vendor-mesh, widgets (7).
TEST_F(ClusterChecks, AdmissionChainOnPods) {
  std::vector<Finding> f = run_check(bundle, "admission-chain-pods", {}, &cluster);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kHigh);
  EXPECT_EQ(affects(f[0], "cluster webhooks"),
            std::vector<std::string>{"sidecar.mesh.example.com"});
  EXPECT_EQ(affects(f[0], "bundle webhooks"), std::vector<std::string>{"pods.dynamo.example.com"});
  EXPECT_EQ(affects(f[0], "namespaces").size(), 7u);
  EXPECT_NE(f[0].message.find("worst case to 20 s"), std::string::npos) << f[0].message;
}

}  // namespace
}  // namespace footprint
