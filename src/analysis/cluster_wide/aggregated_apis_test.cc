// Aggregated APIs. The API server proxies a group to the APIService's spec.service (port 443
// when unset: staging/src/k8s.io/kube-aggregator/pkg/apis/apiregistration/v1/defaults.go) and
// trusts the certificate through spec.caBundle, or not at all with insecureSkipTLSVerify
// (kube-aggregator/pkg/apiserver/handler_proxy.go). While the APIService is unavailable,
// discovery of its group fails and the namespace controller cannot finish deleting namespaces
// (pkg/controller/namespace/deletion: NamespaceDeletionDiscoveryFailure).
#include "analysis/models/aggregated_apis.h"

#include <gtest/gtest.h>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

// kueue's visibility API, reduced: two versions served by one Service.
std::string bundle_text(const std::string& replicas, const std::string& service_port,
                        const std::string& tls) {
  return R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: manager, namespace: q}
spec:
  replicas: )" +
         replicas + R"(
  selector: {matchLabels: {app: manager}}
  template:
    metadata: {labels: {app: manager}}
    spec: {containers: [{name: m, image: x}]}
---
apiVersion: v1
kind: Service
metadata: {name: visibility, namespace: q}
spec:
  selector: {app: manager}
  ports: [{port: )" +
         service_port + R"(, targetPort: 8082}]
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1beta1.visibility.example.com}
spec:
  group: visibility.example.com
  version: v1beta1
  groupPriorityMinimum: 100
  versionPriority: 100
  service: {name: visibility, namespace: q}
  )" + tls +
         R"(
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1beta2.visibility.example.com}
spec:
  group: visibility.example.com
  version: v1beta2
  groupPriorityMinimum: 100
  versionPriority: 100
  service: {name: visibility, namespace: q}
  )" + tls +
         "\n";
}

TEST(AggregatedApis, WiredWithOneReplicaIsMedium) {
  Bundle b = bundle_from(bundle_text("1", "443", "insecureSkipTLSVerify: true"));
  EXPECT_TRUE(run_check(b, "aggregated-api-unreachable").empty());
  auto findings = run_check(b, "aggregated-api-availability");
  // One backend, one root cause: one finding naming both APIServices.
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  EXPECT_EQ(findings[0].object.name, "v1beta1.visibility.example.com");
  const std::string& m = findings[0].message;
  EXPECT_NE(m.find("v1beta1.visibility.example.com, v1beta2.visibility.example.com"),
            std::string::npos);
  EXPECT_NE(m.find("Deployment q/manager, 1 replica"), std::string::npos);
  EXPECT_NE(m.find("deleting any namespace hangs in Terminating"), std::string::npos);
  EXPECT_NE(m.find("insecureSkipTLSVerify"), std::string::npos);
}

TEST(AggregatedApis, TwoReplicasIsLow) {
  Bundle b = bundle_from(bundle_text("2", "443", "caBundle: LS0tCg=="));
  auto findings = run_check(b, "aggregated-api-availability");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_EQ(findings[0].message.find("insecureSkipTLSVerify"), std::string::npos);
}

TEST(AggregatedApis, PortMismatchIsUnreachable) {
  // The Service exposes 8443; spec.service.port defaults to 443.
  Bundle b = bundle_from(bundle_text("1", "8443", "insecureSkipTLSVerify: true"));
  auto findings = run_check(b, "aggregated-api-unreachable");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("Service q/visibility exposes 8443, not port 443 (the "
                                     "default)"),
            std::string::npos);
  EXPECT_NE(findings[0].remediation.find("(8443)"), std::string::npos);
  // The same APIServices are not reported twice.
  EXPECT_TRUE(run_check(b, "aggregated-api-availability").empty());
}

TEST(AggregatedApis, MissingServiceIsUnreachable) {
  Bundle b = bundle_from(R"(
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1.metrics.example.com}
spec:
  group: metrics.example.com
  version: v1
  insecureSkipTLSVerify: true
  service: {name: metrics, namespace: m, port: 6443}
)");
  auto findings = run_check(b, "aggregated-api-unreachable");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("the bundle creates no Service m/metrics"), std::string::npos);
  EXPECT_NE(findings[0].message.find("service m/metrics:6443"), std::string::npos);
}

TEST(AggregatedApis, UnverifiableCertificateIsUnreachable) {
  // Neither caBundle nor insecureSkipTLSVerify: the proxy's TLS config has no CA data, so Go
  // verifies against the system roots.
  Bundle b = bundle_from(bundle_text("1", "443", "caBundle: \"\""));
  auto findings = run_check(b, "aggregated-api-unreachable");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("no caBundle"), std::string::npos);
  EXPECT_NE(findings[0].remediation.find("cert-manager.io/inject-ca-from"), std::string::npos);
}

TEST(AggregatedApis, LocalApiServicesAreServedByTheApiServer) {
  Bundle b = bundle_from(R"(
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1.apps}
spec: {group: apps, version: v1, groupPriorityMinimum: 17800, versionPriority: 15}
)");
  EXPECT_TRUE(run_check(b, "aggregated-api-unreachable").empty());
  EXPECT_TRUE(run_check(b, "aggregated-api-availability").empty());
}

}  // namespace
}  // namespace footprint
