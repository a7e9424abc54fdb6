#include "analysis/analyze.h"

#include <gtest/gtest.h>

#include "analysis/config.h"
#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;

constexpr const char* kTwoProblems =
    "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: a\n"
    "  namespace: x\n  annotations:\n    footprint.dev/ignore: namespace-on-cluster-scoped -- "
    "kept for kustomize\n---\n"
    "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: b, "
    "namespace: x}\n---\n"
    "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: old}\n";

TEST(Analyze, WorstFirstThenInputOrder) {
  Bundle b = bundle_from(kTwoProblems);
  AnalysisResult r = analyze(b, Config{});
  ASSERT_EQ(r.findings.size(), 3u);
  EXPECT_EQ(r.findings[0].check, "api-version-removed");
  EXPECT_EQ(r.findings[1].object.name, "a");
  EXPECT_EQ(r.findings[2].object.name, "b");
}

// Of two critical findings on one webhook, the one that breaks pod creation from the moment of
// install (its Service does not exist) comes before the one about what happens whenever the
// backend goes down.
TEST(Analyze, WhatBreaksOnInstallFirstWithinASeverity) {
  Bundle b = bundle_from(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: pods}
webhooks:
- name: mpod.example.com
  clientConfig: {service: {namespace: ops, name: gone}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
  failurePolicy: Fail
  sideEffects: None
  admissionReviewVersions: [v1]
)",
                         "ops");
  AnalysisResult r = analyze(b, Config{});
  ASSERT_GE(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].check, "webhook-service-missing");
  EXPECT_EQ(r.findings[0].severity, Severity::kCritical);
  EXPECT_EQ(r.findings[1].severity, Severity::kCritical);
  EXPECT_NE(r.findings[1].check, "webhook-service-missing");
}

TEST(Analyze, AnnotationSuppressesWithReasonAndIsCounted) {
  Bundle b = bundle_from(kTwoProblems);
  AnalysisResult r = analyze(b, Config{});
  EXPECT_EQ(r.suppressed, 1u);
  EXPECT_TRUE(r.findings[1].suppressed);
  EXPECT_EQ(r.findings[1].suppression_reason, "kept for kustomize");
  EXPECT_EQ(r.findings[1].suppressed_by, "footprint.dev/ignore");
  EXPECT_FALSE(r.findings[2].suppressed);
}

TEST(Analyze, ConfigSuppressesByCheckKindAndNameGlob) {
  auto config = parse_config(".footprint.yaml",
                             "failOn: high\nignore:\n- check: namespace-on-cluster-scoped\n"
                             "  kind: ClusterRole\n  name: b*\n  reason: legacy\n");
  ASSERT_TRUE(config.has_value()) << config.error().to_string();
  EXPECT_EQ(config->fail_on, Severity::kHigh);
  AnalysisResult r = analyze(bundle_from(kTwoProblems), *config);
  EXPECT_EQ(r.suppressed, 2u);
  EXPECT_EQ(r.findings[2].suppressed_by, ".footprint.yaml:3");
  EXPECT_FALSE(r.findings[0].suppressed);
}

TEST(Analyze, UnknownCheckInAnnotationIsANote) {
  Bundle b = bundle_from(
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n"
      "    footprint.dev/ignore: no-such-check\n");
  AnalysisResult r = analyze(b, Config{});
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("unknown check \"no-such-check\""), std::string::npos);
}

TEST(Config, ErrorsNameTheLine) {
  auto unknown = parse_config("c.yaml", "ignore:\n- check: nope\n  reason: x\n");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().to_string(),
            "c.yaml:2:10: unknown check \"nope\"; `footprint checks` lists them");
  auto no_reason = parse_config("c.yaml", "ignore:\n- check: duplicate-object\n");
  ASSERT_FALSE(no_reason.has_value());
  EXPECT_NE(no_reason.error().message.find("needs a reason"), std::string::npos);
  auto typo = parse_config("c.yaml", "failon: high\n");
  ASSERT_FALSE(typo.has_value());
  EXPECT_EQ(typo.error().position.line, 1u);
  auto bad_severity = parse_config("c.yaml", "failOn: severe\n");
  ASSERT_FALSE(bad_severity.has_value());
}

TEST(Config, EmptyFileIsFine) {
  auto config = parse_config("c.yaml", "# nothing yet\n");
  ASSERT_TRUE(config.has_value());
  EXPECT_TRUE(config->ignore.empty());
}

}  // namespace
}  // namespace footprint
