// webhook-port-unreachable, webhook-host-network-kubelet-port and webhook-aks-admissions-enforcer,
// each rule with its source (../shared/research/delivery-paths.md, section 2).
#include <gtest/gtest.h>

#include <algorithm>

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

// EKS with an overlay CNI (Calico or Cilium overlay, Weave): the control plane is on the VPC and
// the pods on the overlay, so no pod IP is reachable and webhooks must run with hostNetwork
// (cert-manager docs installation/compatibility.md, AWS EKS: webhook.hostNetwork=true and a
// securePort off the kubelet's 10250; kedacore/charts#468).
TEST(WebhookReachability, EksOverlayReachesOnlyHostNetworkBackends) {
  auto f = run_on(bundle_from(webhook_bundle("9443")), Provider::kEksOverlay,
                  "webhook-port-unreachable");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kCritical);
  EXPECT_NE(f[0].message.find("reaches no pod IP"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].remediation.find("hostNetwork: true"), std::string::npos) << f[0].remediation;
  EXPECT_NE(f[0].remediation.find("10260"), std::string::npos);
  // Any port of the node is reachable (the cluster security group), 9443 as well as 443.
  EXPECT_TRUE(run_on(bundle_from(webhook_bundle("9443", "true")), Provider::kEksOverlay,
                     "webhook-port-unreachable")
                  .empty());
  // EKS on the VPC CNI reaches pod IPs.
  EXPECT_TRUE(
      run_on(bundle_from(webhook_bundle("9443")), Provider::kEks, "webhook-port-unreachable")
          .empty());
}

// A CRD conversion webhook is called like an admission webhook: the Service's port (443 when
// unset, apiextensions.k8s.io/v1 ServiceReference) to the pod's targetPort, and it has no
// failurePolicy: a conversion that cannot be called fails the request with "conversion webhook
// for <group>/<version>, Kind=<kind> failed: ..." (apiextensions-apiserver
// pkg/apiserver/conversion/webhook_converter.go; minio/operator#561 shows one in the wild).
// Conversion only happens between versions, so a CRD with one version never calls it.
TEST(WebhookReachability, ConversionWebhookPodPort) {
  auto with_crd = [](std::string_view versions) {
    return webhook_bundle() + fmt::format(R"(---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: widgets.example.com}}
spec:
  group: example.com
  names: {{kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}}
  scope: Namespaced
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig: {{service: {{name: hook, namespace: ops, path: /convert}}, caBundle: Cg==}}
  versions:
{})",
                                          versions);
  };
  constexpr std::string_view kTwo =
      "  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}\n"
      "  - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}\n";
  Bundle two = bundle_from(with_crd(kTwo));
  std::vector<Finding> f = run_on(two, Provider::kGkePrivate, "webhook-port-unreachable");
  auto crd = std::find_if(f.begin(), f.end(), [](const Finding& x) {
    return x.object.kind == "CustomResourceDefinition";
  });
  ASSERT_NE(crd, f.end());
  EXPECT_EQ(crd->severity, Severity::kHigh);
  EXPECT_NE(crd->message.find("port 9443 (https)"), std::string::npos) << crd->message;
  EXPECT_NE(crd->message.find("conversion webhook for example.com/v1, Kind=Widget failed"),
            std::string::npos)
      << crd->message;
  EXPECT_NE(crd->remediation.find("--allow tcp:9443"), std::string::npos);
  EXPECT_EQ(run_on(two, Provider::kEksOverlay, "webhook-port-unreachable").size(), 2u);
  EXPECT_TRUE(run_on(two, Provider::kGeneric, "webhook-port-unreachable").empty());
  Bundle one = bundle_from(with_crd(
      "  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}\n"));
  EXPECT_EQ(run_on(one, Provider::kGkePrivate, "webhook-port-unreachable").size(), 1u);
}

}  // namespace
}  // namespace footprint
