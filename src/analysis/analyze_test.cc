#include "analysis/analyze.h"

#include <gtest/gtest.h>

#include "analysis/config.h"
#include "analysis/fingerprint.h"
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

// The input cannot suppress its own findings: the annotation's request is reported with the
// finding, which stays in the counts.
TEST(Analyze, AnnotationAsksButSuppressesNothingByDefault) {
  Bundle b = bundle_from(kTwoProblems);
  AnalysisResult r = analyze(b, Config{});
  EXPECT_EQ(r.suppressed, 0u);
  EXPECT_EQ(r.suppression_requests, 1u);
  EXPECT_FALSE(r.findings[1].suppressed);
  EXPECT_EQ(r.findings[1].suppression_request, "kept for kustomize");
  EXPECT_FALSE(r.findings[2].suppression_request.has_value());
}

TEST(Analyze, TrustedAnnotationSuppressesWithReasonAndIsCounted) {
  Bundle b = bundle_from(kTwoProblems);
  Config config;
  config.trust_annotations = true;
  AnalysisResult r = analyze(b, config);
  EXPECT_EQ(r.suppressed, 1u);
  EXPECT_EQ(r.suppression_requests, 0u);
  EXPECT_TRUE(r.findings[1].suppressed);
  EXPECT_EQ(r.findings[1].suppression_reason, "kept for kustomize");
  EXPECT_EQ(r.findings[1].suppressed_by, "footprint.dev/ignore");
  EXPECT_FALSE(r.findings[2].suppressed);
}

// cluster-admin for every authenticated user: rbac-broad-group-binding is critical. Trusting
// annotations does not let the chart waive it; only an ignore entry of the user's own
// configuration does.
TEST(Analyze, OnlyTheConfigWaivesACriticalFinding) {
  Bundle b = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: vendor-binding
  annotations: {footprint.dev/ignore: "* -- reviewed"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: Group, name: "system:authenticated", apiGroup: rbac.authorization.k8s.io}]
)");
  Config trusting;
  trusting.trust_annotations = true;
  AnalysisResult trusted = analyze(b, trusting);
  size_t critical = 0;
  for (const Finding& f : trusted.findings) {
    if (f.severity != Severity::kCritical) continue;
    ++critical;
    EXPECT_FALSE(f.suppressed) << f.check;
    EXPECT_EQ(f.suppression_request, "reviewed") << f.check;
  }
  ASSERT_GT(critical, 0u);
  auto config = parse_config(".footprint.yaml",
                             "trustAnnotations: true\nignore:\n- check: \"*\"\n"
                             "  name: vendor-binding\n  reason: approved by the platform team\n");
  ASSERT_TRUE(config.has_value()) << config.error().to_string();
  EXPECT_TRUE(config->trust_annotations);
  AnalysisResult waived = analyze(b, *config);
  for (const Finding& f : waived.findings) {
    EXPECT_TRUE(f.suppressed) << f.check;
    EXPECT_FALSE(f.suppression_request.has_value()) << f.check;
  }
}

TEST(Analyze, ConfigSuppressesByCheckKindAndNameGlob) {
  auto config = parse_config(".footprint.yaml",
                             "failOn: high\nignore:\n- check: namespace-on-cluster-scoped\n"
                             "  kind: ClusterRole\n  name: b*\n  reason: legacy\n");
  ASSERT_TRUE(config.has_value()) << config.error().to_string();
  EXPECT_EQ(config->fail_on, Severity::kHigh);
  AnalysisResult r = analyze(bundle_from(kTwoProblems), *config);
  EXPECT_EQ(r.suppressed, 1u);
  EXPECT_EQ(r.findings[2].suppressed_by, ".footprint.yaml:3");
  EXPECT_FALSE(r.findings[0].suppressed);
}

constexpr const char* kWaiverOnB =
    "ignore:\n- check: namespace-on-cluster-scoped\n  name: b\n  reason: legacy\n"
    "  owner: alice\n  ticket: OPS-1\n  expires: 2026-03-31\n";

TEST(Waivers, HoldThroughTheExpiryDayAndLapseTheDayAfter) {
  auto config = parse_config(".footprint.yaml", kWaiverOnB);
  ASSERT_TRUE(config.has_value()) << config.error().to_string();
  config->today = "2026-03-31";
  AnalysisResult holding = analyze(bundle_from(kTwoProblems), *config);
  EXPECT_TRUE(holding.findings[2].suppressed);
  EXPECT_TRUE(holding.waiver_issues.empty());

  config->today = "2026-04-01";
  AnalysisResult lapsed = analyze(bundle_from(kTwoProblems), *config);
  EXPECT_FALSE(lapsed.findings[2].suppressed);  // reported again, so --fail-on sees it
  EXPECT_EQ(lapsed.suppressed, 0u);
  ASSERT_EQ(lapsed.waiver_issues.size(), 1u);
  const WaiverIssue& issue = lapsed.waiver_issues[0];
  EXPECT_TRUE(issue.expired);
  EXPECT_EQ(issue.findings, 1u);
  EXPECT_EQ(issue.rule.owner, "alice");
  EXPECT_EQ(issue.at, ".footprint.yaml:2");
}

TEST(Waivers, NoDateMeansNothingExpires) {
  auto config = parse_config(".footprint.yaml", kWaiverOnB);
  ASSERT_TRUE(config.has_value());
  EXPECT_TRUE(analyze(bundle_from(kTwoProblems), *config).findings[2].suppressed);
}

TEST(Waivers, OneMatchingNothingIsStale) {
  auto config = parse_config(".footprint.yaml",
                             "ignore:\n- check: crd-missing\n  reason: operator installed\n");
  ASSERT_TRUE(config.has_value());
  AnalysisResult r = analyze(bundle_from(kTwoProblems), *config);
  ASSERT_EQ(r.waiver_issues.size(), 1u);
  EXPECT_FALSE(r.waiver_issues[0].expired);
  EXPECT_EQ(r.waiver_issues[0].findings, 0u);
}

TEST(Waivers, AFingerprintWaivesThatFindingAlone) {
  Bundle b = bundle_from(kTwoProblems);
  std::string id = fingerprint(analyze(b, Config{}).findings[2]);
  auto config = parse_config(
      "c.yaml", "ignore:\n- check: \"*\"\n  fingerprint: " + id + "\n  reason: vendor chart\n");
  ASSERT_TRUE(config.has_value()) << config.error().to_string();
  AnalysisResult r = analyze(b, *config);
  EXPECT_TRUE(r.findings[2].suppressed);
  EXPECT_FALSE(r.findings[0].suppressed);
  EXPECT_EQ(r.suppressed, 1u);
}

TEST(Config, WaiverDatesAndFingerprintsAreValidated) {
  EXPECT_TRUE(valid_date("2028-02-29"));   // a leap year
  EXPECT_FALSE(valid_date("2026-02-29"));  // not one
  EXPECT_FALSE(valid_date("2100-02-29"));  // divisible by 100, not by 400
  EXPECT_TRUE(valid_date("2000-02-29"));
  EXPECT_FALSE(valid_date("2026-04-31"));
  EXPECT_FALSE(valid_date("2026-6-1"));
  EXPECT_FALSE(valid_date("2026-13-01"));
  auto bad_date = parse_config(
      "c.yaml", "ignore:\n- check: duplicate-object\n  reason: x\n  expires: 31/12/2026\n");
  ASSERT_FALSE(bad_date.has_value());
  EXPECT_EQ(bad_date.error().to_string(),
            "c.yaml:4:12: expires must be a date as YYYY-MM-DD, not \"31/12/2026\"");
  auto bad_fingerprint = parse_config(
      "c.yaml", "ignore:\n- check: duplicate-object\n  reason: x\n  fingerprint: abc\n");
  ASSERT_FALSE(bad_fingerprint.has_value());
  EXPECT_EQ(bad_fingerprint.error().position.line, 4u);
}

TEST(Analyze, UnknownCheckInAnnotationIsANote) {
  Bundle b = bundle_from(
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n"
      "    footprint.dev/ignore: no-such-check -- reviewed\n");
  AnalysisResult r = analyze(b, Config{});
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("unknown check \"no-such-check\""), std::string::npos);
  // At the annotation's line (6), where the ID is to be corrected, not the object's first line.
  EXPECT_NE(r.notes[0].find(":6: footprint.dev/ignore"), std::string::npos) << r.notes[0];
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
  auto quoted_trust = parse_config("c.yaml", "trustAnnotations: \"yes\"\n");
  ASSERT_FALSE(quoted_trust.has_value());
  EXPECT_EQ(quoted_trust.error().to_string(),
            "c.yaml:1:19: trustAnnotations must be true or false, not \"yes\"");
}

TEST(Config, EmptyFileIsFine) {
  auto config = parse_config("c.yaml", "# nothing yet\n");
  ASSERT_TRUE(config.has_value());
  EXPECT_TRUE(config->ignore.empty());
}

}  // namespace
}  // namespace footprint
