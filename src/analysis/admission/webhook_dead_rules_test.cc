// webhook-matches-nothing: rules that no served resource matches, asked of the admission matcher.
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

// Deployments are served only in group apps (the built-in resource table, from the API
// server's discovery), so a rule for deployments in the core group matches no request: the API
// server never calls the webhook (rules.go compares group, version and resource). Its failure
// policy, missing Service and empty caBundle then cost nothing, and only the dead rule is
// reported.
TEST(MatchesNothing, RulesInTheWrongGroupAreReportedAndNothingElse) {
  Bundle b = bundle_from(with_webhook_operator(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: dead}
webhooks:
- name: vdeploy.example.com
  clientConfig: {service: {namespace: ops, name: gone}}
  failurePolicy: Fail
  rules: [{operations: [CREATE, UPDATE], apiGroups: [""], apiVersions: [v1], resources: [deployments]}]
  sideEffects: None
  admissionReviewVersions: [v1]
)"),
                         "ops");
  auto dead = run_check(b, "webhook-matches-nothing");
  ASSERT_EQ(dead.size(), 1u);
  EXPECT_EQ(dead[0].severity, Severity::kMedium);
  EXPECT_NE(dead[0].message.find("deployments is served in group apps"), std::string::npos)
      << dead[0].message;
  for (const char* id :
       {"webhook-fail-closed", "webhook-kube-system", "webhook-intercepts-shared-resources",
        "webhook-self-deadlock", "webhook-added-latency", "webhook-service-missing",
        "webhook-ca-not-injected"}) {
    EXPECT_TRUE(run_check(b, id).empty()) << id;
  }
  // The same webhook with the right group is called, and its missing Service is reported.
  Bundle fixed = bundle_from(with_webhook_operator(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: live}
webhooks:
- name: vdeploy.example.com
  clientConfig: {service: {namespace: ops, name: gone}}
  rules: [{operations: [CREATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments]}]
  sideEffects: None
  admissionReviewVersions: [v1]
)"),
                             "ops");
  EXPECT_TRUE(run_check(fixed, "webhook-matches-nothing").empty());
  EXPECT_EQ(run_check(fixed, "webhook-service-missing").size(), 1u);
  // The right group with a scope that excludes the resource (scope Cluster matches only
  // cluster-scoped resources, RuleWithOperations reference), or a version nobody serves: the
  // hint names that, not the group the rule already has.
  auto hint = [](const char* rule) {
    auto found = run_check(bundle_from(with_webhook_operator(fmt::format(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {{name: v}}
webhooks:
- name: v.example.com
  clientConfig: {{service: {{namespace: ops, name: hooks}}}}
  rules: [{}]
)",
                                                                         rule)),
                                       "ops"),
                           "webhook-matches-nothing");
    return found.size() == 1 ? found[0].message : std::string();
  };
  std::string scope = hint(
      R"({operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods], scope: Cluster})");
  EXPECT_NE(scope.find("pods is namespaced, so scope Cluster excludes it"), std::string::npos)
      << scope;
  EXPECT_EQ(scope.find("served in group"), std::string::npos);
  std::string version = hint(
      R"({operations: [CREATE], apiGroups: [apps], apiVersions: [v2], resources: [deployments]})");
  EXPECT_NE(version.find("deployments is served in version v1"), std::string::npos) << version;
  // Knative's release manifests ship webhooks without rules, which its webhook controller fills
  // in at run time (knative.dev/pkg webhook/resourcesemantics reconciler): the backend still
  // matters.
  Bundle placeholder = bundle_from(with_webhook_operator(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: filled-later}
webhooks:
- name: config.example.com
  clientConfig: {service: {namespace: ops, name: gone}}
  sideEffects: None
  admissionReviewVersions: [v1]
)"),
                                   "ops");
  // As written it matches nothing (no rule matches any request), so it is reported, but low and
  // saying its rules may come at run time (trial item N-W16).
  auto placeholder_findings = run_check(placeholder, "webhook-matches-nothing");
  ASSERT_EQ(placeholder_findings.size(), 1u);
  EXPECT_EQ(placeholder_findings[0].severity, Severity::kLow);
  EXPECT_NE(placeholder_findings[0].message.find("fill the rules in at run time"),
            std::string::npos);
  EXPECT_EQ(run_check(placeholder, "webhook-service-missing").size(), 1u);
}

}  // namespace
}  // namespace footprint
