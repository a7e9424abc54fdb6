// webhook-network-policy-blocks against the cluster snapshot of tests/data/cluster/, and per
// --provider on a bundle of its own: the NetworkPolicies that keep the API server from a webhook's
// pods.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/analyze.h"
#include "analysis/check_testing.h"
#include "analysis/context.h"
#include "analysis/models/control_plane.h"
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

// A webhook of the bundle behind a NetworkPolicy of the bundle that admits ingress only from
// `peer`; where the calls come from depends on the control plane (--provider).
std::vector<Finding> blocked_on(Provider provider, std::string_view peer) {
  Bundle b = testing::bundle_from(fmt::format(R"(apiVersion: apps/v1
kind: Deployment
metadata: {{name: hook, namespace: ops}}
spec:
  selector: {{matchLabels: {{app: hook}}}}
  template:
    metadata: {{labels: {{app: hook}}}}
    spec:
      containers: [{{name: server, image: example.com/hook:1, ports: [{{containerPort: 9443}}]}}]
---
apiVersion: v1
kind: Service
metadata: {{name: hook, namespace: ops}}
spec:
  selector: {{app: hook}}
  ports: [{{port: 443, targetPort: 9443}}]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {{name: only, namespace: ops}}
spec:
  podSelector: {{matchLabels: {{app: hook}}}}
  ingress: [{{from: [{}]}}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {{name: hook}}
webhooks:
- name: pods.hook.example.com
  failurePolicy: Fail
  sideEffects: None
  admissionReviewVersions: [v1]
  clientConfig: {{service: {{name: hook, namespace: ops, port: 443}}, caBundle: Cg==}}
  rules:
  - {{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}}
)",
                                              peer));
  Context ctx(b);
  ctx.provider = provider;
  return testing::run_check_on(ctx, "webhook-network-policy-blocks");
}

// On AKS and GKE the API server's webhook calls arrive through the konnectivity-agent pods of
// kube-system, labelled app on AKS and k8s-app on GKE (tigera/operator PR#5212); elsewhere the
// API server is no pod, and a pod peer does not admit it.
TEST(WebhookNetworkPolicyProviders, KonnectivityAgentIsTheSourceOnAksAndGke) {
  constexpr std::string_view kGkeAgent =
      "{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: kube-system}}, "
      "podSelector: {matchLabels: {k8s-app: konnectivity-agent}}}";
  constexpr std::string_view kAksAgent =
      "{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: kube-system}}, "
      "podSelector: {matchLabels: {app: konnectivity-agent}}}";
  EXPECT_TRUE(blocked_on(Provider::kGke, kGkeAgent).empty());
  EXPECT_TRUE(blocked_on(Provider::kGkePrivate, kGkeAgent).empty());
  EXPECT_TRUE(blocked_on(Provider::kAks, kAksAgent).empty());
  EXPECT_EQ(blocked_on(Provider::kAks, kGkeAgent).size(), 1u);  // AKS labels its agent app
  EXPECT_EQ(blocked_on(Provider::kGeneric, kGkeAgent).size(), 1u);
  EXPECT_EQ(blocked_on(Provider::kEks, kAksAgent).size(), 1u);
  std::vector<Finding> f = blocked_on(Provider::kAks, "{podSelector: {}}");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].remediation.find("konnectivity-agent"), std::string::npos) << f[0].remediation;
}

// OpenShift's OVN-Kubernetes admits the host-network API server as the namespace group
// policy-group.network.openshift.io/host-network (Red Hat OCP 4.16 networking, "Network policy").
TEST(WebhookNetworkPolicyProviders, HostNetworkPolicyGroupIsTheSourceOnOpenShift) {
  constexpr std::string_view kGroup =
      "{namespaceSelector: {matchLabels: {policy-group.network.openshift.io/host-network: "
      "\"\"}}}";
  EXPECT_TRUE(blocked_on(Provider::kOpenshift, kGroup).empty());
  EXPECT_EQ(blocked_on(Provider::kGeneric, kGroup).size(), 1u);
  std::vector<Finding> f = blocked_on(Provider::kOpenshift, "{podSelector: {}}");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].remediation.find("policy-group.network.openshift.io/host-network"),
            std::string::npos)
      << f[0].remediation;
}

}  // namespace
}  // namespace footprint
