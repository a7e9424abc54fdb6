// webhook-network-policy-blocks against the cluster snapshot of tests/data/cluster/: the
// NetworkPolicies that keep the API server from a webhook's pods.
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

// dynamo-system's NetworkPolicy selects every pod ({}) and admits ingress only from pods of the
// namespace. The API server is no pod there, so its calls to the webhook on target port 9443
// are dropped; the webhook is fail-closed and has no selector, so pod creation fails in every
// namespace: critical.
TEST_F(ClusterChecks, NetworkPolicyBlackholesWebhook) {
  std::vector<Finding> f = run_check(bundle, "webhook-network-policy-blocks", {}, &cluster);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kCritical);
  EXPECT_NE(f[0].message.find("dynamo-system/same-namespace-only"), std::string::npos);
  EXPECT_NE(f[0].message.find("port 9443"), std::string::npos) << f[0].message;
  EXPECT_EQ(affects(f[0], "webhooks"), std::vector<std::string>{"pods.dynamo.example.com"});
  EXPECT_TRUE(run_check(bundle, "webhook-network-policy-blocks", {}, nullptr).empty());
}

// An ipBlock peer may hold the API server's address, and a rule on another port does not
// admit the webhook's: only the first is no finding.
TEST_F(ClusterChecks, NetworkPolicyRulesThatAdmitTheApiServer) {
  auto with_rule = [&](const std::string& rule) {
    return load_cluster_text("c.yaml", R"(apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: np, namespace: dynamo-system}
spec:
  podSelector: {matchLabels: {app: operator}}
  ingress:
)" + rule);
  };
  auto ip_block = with_rule("  - from: [{ipBlock: {cidr: 10.0.0.0/8}}]\n");
  ASSERT_TRUE(ip_block.has_value());
  EXPECT_TRUE(run_check(bundle, "webhook-network-policy-blocks", {}, &*ip_block).empty());
  auto other_port = with_rule("  - ports: [{port: 8080}]\n");
  ASSERT_TRUE(other_port.has_value());
  EXPECT_EQ(run_check(bundle, "webhook-network-policy-blocks", {}, &*other_port).size(), 1u);
  auto right_port = with_rule("  - ports: [{port: 9443}]\n");
  ASSERT_TRUE(right_port.has_value());
  EXPECT_TRUE(run_check(bundle, "webhook-network-policy-blocks", {}, &*right_port).empty());
}

}  // namespace
}  // namespace footprint
