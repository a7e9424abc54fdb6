// webhook-port-unreachable, webhook-host-network-kubelet-port and webhook-aks-admissions-enforcer,
// each rule with its source (../shared/research/delivery-paths.md, section 2).
#include <gtest/gtest.h>

#include "analysis/check_testing.h"
#include "analysis/context.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check_on;

// A webhook server on container port 9443 named "https", behind Service port 443 with the
// named targetPort; the webhook is fail-closed on every namespace's pod creation.
std::string webhook_bundle(std::string_view container_port = "9443",
                           std::string_view host_network = "false",
                           std::string_view annotations = "{}") {
  return fmt::format(R"(apiVersion: apps/v1
kind: Deployment
metadata: {{name: hook, namespace: ops}}
spec:
  selector: {{matchLabels: {{app: hook}}}}
  template:
    metadata: {{labels: {{app: hook}}}}
    spec:
      hostNetwork: {}
      containers:
      - name: server
        image: example.com/hook:1
        ports: [{{name: https, containerPort: {}}}]
---
apiVersion: v1
kind: Service
metadata: {{name: hook, namespace: ops}}
spec:
  selector: {{app: hook}}
  ports: [{{port: 443, targetPort: https}}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {{name: hook, annotations: {}}}
webhooks:
- name: pods.hook.example.com
  failurePolicy: Fail
  sideEffects: None
  admissionReviewVersions: [v1]
  clientConfig: {{service: {{name: hook, namespace: ops, port: 443}}, caBundle: Cg==}}
  rules:
  - {{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}}
)",
                     host_network, container_port, annotations);
}

std::vector<Finding> run_on(const Bundle& bundle, Provider provider, std::string_view id) {
  Context ctx(bundle);
  ctx.provider = provider;
  return run_check_on(ctx, id);
}

// GKE private clusters: the master firewall rule opens tcp:443 and tcp:10250 only, and the API
// server dials the pod's targetPort (kubernetes/kubernetes#79739; cloud.google.com/service-mesh
// private-cluster-open-port). The named targetPort resolves to containerPort 9443.
TEST(WebhookReachability, GkePrivateCannotReachANamedTargetPort) {
  Bundle b = bundle_from(webhook_bundle());
  auto f = run_on(b, Provider::kGkePrivate, "webhook-port-unreachable");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kCritical);
  EXPECT_NE(f[0].message.find("port 9443 (https)"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].remediation.find("--allow tcp:9443"), std::string::npos);
  // Generic and EKS (cluster security group: all traffic from itself) reach every port.
  EXPECT_TRUE(run_on(b, Provider::kGeneric, "webhook-port-unreachable").empty());
  EXPECT_TRUE(run_on(b, Provider::kEks, "webhook-port-unreachable").empty());
  // 10250 is open on GKE private (cert-manager/cert-manager#1883 moved its webhook there).
  Bundle kubelet_port = bundle_from(webhook_bundle("10250"));
  EXPECT_TRUE(run_on(kubelet_port, Provider::kGkePrivate, "webhook-port-unreachable").empty());
}

// terraform-aws-eks's node security group: 443, 10250 and the recommended webhook ports 4443,
// 6443, 8443, 9443, 10251.
TEST(WebhookReachability, EksCustomSecurityGroupListsItsPorts) {
  EXPECT_TRUE(run_on(bundle_from(webhook_bundle("9443")), Provider::kEksCustomSg,
                     "webhook-port-unreachable")
                  .empty());
  auto f = run_on(bundle_from(webhook_bundle("7443")), Provider::kEksCustomSg,
                  "webhook-port-unreachable");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].remediation.find("node security group: TCP 7443 from the cluster security group"),
            std::string::npos);
}

// An APIService's backend pod port is subject to the same rule (gatekeeper PR#499; kubernetes
// #79739 is about the aggregator's routing to endpoints).
TEST(WebhookReachability, AnApiServiceOnAnUnreachablePort) {
  std::string text = webhook_bundle() + R"(---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1.metrics.example.com}
spec:
  group: metrics.example.com
  version: v1
  service: {name: hook, namespace: ops, port: 443}
  groupPriorityMinimum: 100
  versionPriority: 100
)";
  Bundle b = bundle_from(text);
  auto f = run_on(b, Provider::kGkePrivate, "webhook-port-unreachable");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[1].severity, Severity::kHigh);
  EXPECT_NE(f[1].message.find("APIService v1.metrics.example.com"), std::string::npos);
}

// The kubelet listens on 10250 on the node; a hostNetwork pod cannot bind it
// (cert-manager/cert-manager#3237; cert-manager compatibility.md: securePort 10260).
TEST(WebhookReachability, HostNetworkOnTheKubeletPort) {
  auto f = run_on(bundle_from(webhook_bundle("10250", "true")), Provider::kGeneric,
                  "webhook-host-network-kubelet-port");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].remediation.find("10260"), std::string::npos);
  EXPECT_TRUE(run_on(bundle_from(webhook_bundle("10250", "false")), Provider::kGeneric,
                     "webhook-host-network-kubelet-port")
                  .empty());
}

// Azure/AKS#4002: the admissions enforcer rewrites namespaceSelector unless the configuration is
// annotated admissions.enforcer/disabled: "true".
TEST(WebhookReachability, AksAdmissionsEnforcer) {
  auto f = run_on(bundle_from(webhook_bundle()), Provider::kAks, "webhook-aks-admissions-enforcer");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("kubernetes.azure.com/managedby"), std::string::npos);
  EXPECT_NE(f[0].message.find("fix webhooks"), std::string::npos);
  EXPECT_TRUE(
      run_on(bundle_from(webhook_bundle()), Provider::kGeneric, "webhook-aks-admissions-enforcer")
          .empty());
  EXPECT_TRUE(run_on(bundle_from(webhook_bundle("9443", "false",
                                                "{admissions.enforcer/disabled: \"true\"}")),
                     Provider::kAks, "webhook-aks-admissions-enforcer")
                  .empty());
}

}  // namespace
}  // namespace footprint
