// The webhook backend checks: a Service that is missing or has no such port, a CA bundle nobody
// injects, and a URL outside the cluster.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/check_testing.h"
#include "analysis/context.h"
#include "analysis/models/webhook_reach.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;
using testing::with_webhook_operator;

// A backend that never answers: fail-closed webhooks on other teams' pods stop every team
// (critical), other fail-closed ones make the install not work (high), fail-open ones are skipped
// on every call (medium).
TEST(ServiceChecks, MissingPortAndNoPods) {
  Bundle b = bundle_from(with_webhook_operator(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: missing.example.com
  clientConfig: {service: {namespace: ops, name: operator-webhook-service}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]
- name: port.example.com
  clientConfig: {service: {namespace: ops, name: hooks, port: 8443}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]
  failurePolicy: Ignore
---
apiVersion: v1
kind: Service
metadata: {name: lonely, namespace: ops}
spec:
  selector: {app: nothing}
  ports: [{port: 443}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: m}
webhooks:
- name: nopods.example.com
  clientConfig: {service: {namespace: ops, name: lonely}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
)"),
                         "ops");
  auto missing = run_check(b, "webhook-service-missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].severity, Severity::kHigh);
  auto ports = run_check(b, "webhook-service-port-mismatch");
  ASSERT_EQ(ports.size(), 2u);
  EXPECT_NE(ports[0].message.find("port 8443 of Service ops/hooks, which exposes 443"),
            std::string::npos);
  EXPECT_EQ(ports[0].severity, Severity::kMedium);  // Ignore
  EXPECT_NE(ports[1].message.find("selects no pod template"), std::string::npos);
  EXPECT_EQ(ports[1].severity, Severity::kCritical);  // Fail, every team's pods
}

TEST(CaInjection, EmptyCaBundleWithoutInjector) {
  std::string webhook = R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: noca.example.com
  clientConfig: {service: {namespace: ops, name: hooks}}
  rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]
)";
  auto findings =
      run_check(bundle_from(with_webhook_operator(webhook), "ops"), "webhook-ca-not-injected");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  std::string annotated = webhook;
  annotated.replace(annotated.find("metadata: {name: v}"), 19,
                    "metadata: {name: v, annotations: {cert-manager.io/inject-ca-from: ops/cert}}");
  EXPECT_TRUE(
      run_check(bundle_from(with_webhook_operator(annotated), "ops"), "webhook-ca-not-injected")
          .empty());
}

TEST(UrlExternal, UrlClientConfig) {
  auto findings = run_check(bundle_from(with_webhook_operator(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: remote.example.com
  clientConfig: {url: "https://policy.example.com/validate"}
  rules: [{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}]
)"),
                                        "ops"),
                            "webhook-url-external");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  EXPECT_NE(findings[0].message.find("https://policy.example.com/validate"), std::string::npos);
}

}  // namespace
}  // namespace footprint
