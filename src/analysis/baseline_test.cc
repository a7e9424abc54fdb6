#include "analysis/baseline.h"

#include <gtest/gtest.h>

#include "analysis/fingerprint.h"

namespace footprint {
namespace {

Finding finding(std::string check, Severity severity) {
  Finding f;
  f.check = std::move(check);
  f.severity = severity;
  f.object = ObjectId{"rbac.authorization.k8s.io/v1", "ClusterRole", "", "viewer"};
  return f;
}

// A baseline report with `check` at `severity`, as `audit --format json` writes its findings.
Baseline baseline_with(const Finding& f, std::string_view severity) {
  std::string text = "{\"schemaVersion\": 1, \"inventory\": {}, \"findings\": [{\"check\": \"" +
                     f.check + "\", \"severity\": \"" + std::string(severity) +
                     "\", \"fingerprint\": \"" + fingerprint(f) + "\"}]}";
  auto parsed = parse_baseline("base.json", text);
  EXPECT_TRUE(parsed.has_value());
  return parsed.value_or(Baseline{});
}

TEST(Baseline, TheSameSeverityIsKnown) {
  AnalysisResult r;
  r.findings = {finding("rbac-wildcard", Severity::kHigh)};
  apply_baseline(r, baseline_with(r.findings[0], "high"));
  EXPECT_TRUE(r.findings[0].known);
  EXPECT_FALSE(r.findings[0].severity_before.has_value());
  BaselineCounts counts = baseline_counts(r);
  EXPECT_EQ(baseline_counts_text(counts), "0 new, 0 resolved, 1 known");
}

// A known fingerprint whose severity rose is not known: it reaches --fail-on at its new severity.
TEST(Baseline, ASeverityThatRoseIsWorseAndNotKnown) {
  AnalysisResult r;
  r.findings = {finding("rbac-wildcard", Severity::kCritical)};
  apply_baseline(r, baseline_with(r.findings[0], "medium"));
  EXPECT_FALSE(r.findings[0].known);
  EXPECT_EQ(r.findings[0].severity_before, Severity::kMedium);
  BaselineCounts counts = baseline_counts(r);
  EXPECT_EQ(counts.worse, 1u);
  EXPECT_EQ(counts.added, 0u);
  EXPECT_EQ(baseline_counts_text(counts), "0 new, 1 worse, 0 resolved, 0 known");
}

TEST(Baseline, ASeverityThatFellIsBetterAndKnown) {
  AnalysisResult r;
  r.findings = {finding("rbac-wildcard", Severity::kLow)};
  apply_baseline(r, baseline_with(r.findings[0], "critical"));
  EXPECT_TRUE(r.findings[0].known);
  EXPECT_EQ(r.findings[0].severity_before, Severity::kCritical);
  EXPECT_EQ(baseline_counts_text(baseline_counts(r)), "0 new, 1 better, 0 resolved, 1 known");
}

// A finding the baseline has and this run does not is resolved, named as the baseline gave it.
TEST(Baseline, AGoneFindingIsResolvedAsTheBaselineDescribedIt) {
  auto parsed = parse_baseline("base.json", R"({"schemaVersion": 1, "inventory": {}, "findings": [
      {"check": "crd-missing", "severity": "medium", "fingerprint": "ab",
       "object": {"apiVersion": "monitoring.coreos.com/v1", "kind": "PodMonitor",
                  "namespace": "ops", "name": "pm"},
       "source": {"file": "v1.yaml", "line": 3, "column": 1}, "message": "m"}]})");
  ASSERT_TRUE(parsed.has_value());
  AnalysisResult r;
  apply_baseline(r, *parsed);
  ASSERT_TRUE(r.resolved.has_value());
  ASSERT_EQ(r.resolved->size(), 1u);
  const ResolvedFinding& gone = r.resolved->front();
  EXPECT_EQ(gone.fingerprint, "ab");
  EXPECT_EQ(gone.finding.check, "crd-missing");
  EXPECT_EQ(gone.finding.severity, Severity::kMedium);
  EXPECT_EQ(gone.finding.object.kind, "PodMonitor");
  EXPECT_EQ(gone.finding.object.namespace_, "ops");
  EXPECT_EQ(gone.finding.object.name, "pm");
  EXPECT_EQ(gone.finding.file, "v1.yaml");
  EXPECT_EQ(gone.finding.position.line, 3u);
  EXPECT_EQ(baseline_counts_text(baseline_counts(r)), "0 new, 1 resolved, 0 known");
}

TEST(Baseline, AFindingWithoutSeverityIsRefused) {
  auto parsed = parse_baseline(
      "base.json", R"({"schemaVersion": 1, "inventory": {}, "findings": [{"fingerprint": "ab"}]})");
  ASSERT_FALSE(parsed.has_value());
  EXPECT_NE(parsed.error().message.find("has no severity"), std::string::npos);
}

}  // namespace
}  // namespace footprint
