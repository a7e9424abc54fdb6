#include "analysis/baseline.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "analysis/fingerprint.h"

namespace footprint {

namespace {

std::string string_at(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

uint32_t number_at(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_number_unsigned() ? it->get<uint32_t>() : 0;
}

// What a report's finding says of itself, for naming it once it is resolved; a member the report
// lacks or gives another type stays empty.
Finding described_finding(const nlohmann::json& finding) {
  Finding f;
  f.check = string_at(finding, "check");
  f.message = string_at(finding, "message");
  if (auto object = finding.find("object"); object != finding.end() && object->is_object()) {
    f.object = ObjectId{string_at(*object, "apiVersion"), string_at(*object, "kind"),
                        string_at(*object, "namespace"), string_at(*object, "name")};
  }
  if (auto source = finding.find("source"); source != finding.end() && source->is_object()) {
    f.file = string_at(*source, "file");
    f.position.line = number_at(*source, "line");
    f.position.column = number_at(*source, "column");
  }
  return f;
}

}  // namespace

tl::expected<Baseline, LoadError> parse_baseline(const std::string& path, std::string_view text) {
  auto fail = [&](std::string message) {
    return tl::unexpected(LoadError{path, {}, std::move(message)});
  };
  nlohmann::json report = nlohmann::json::parse(text, nullptr, false);
  if (report.is_discarded() || !report.is_object() || !report.contains("findings") ||
      !report["findings"].is_array()) {
    return fail("not a footprint JSON report (write one with `footprint audit --format json`)");
  }
  const nlohmann::json* version =
      report.contains("schemaVersion") ? &report["schemaVersion"] : nullptr;
  if (!version || *version != kJsonSchemaVersion) {
    return fail(fmt::format(
        "the report has schemaVersion {}, and this footprint reads version {}: write the "
        "baseline again with this footprint (`footprint audit --format json`)",
        version ? version->dump() : "none", kJsonSchemaVersion));
  }
  // images and airgap print the same envelope with their own checks only, and no inventory:
  // against such a report every other finding would pass for new.
  if (!report.contains("inventory")) {
    return fail(
        "not an audit report (footprint images and airgap reports hold only their own "
        "checks' findings): write the baseline with `footprint audit --format json`");
  }
  Baseline baseline;
  for (const nlohmann::json& finding : report["findings"]) {
    if (!finding.is_object() || !finding.contains("fingerprint") ||
        !finding["fingerprint"].is_string()) {
      return fail(
          "a finding has no fingerprint: the report predates fingerprints; write it "
          "again with this footprint");
    }
    std::optional<Severity> severity;
    if (finding.contains("severity") && finding["severity"].is_string())
      severity = parse_severity(finding["severity"].get<std::string>());
    if (!severity) {
      return fail(
          fmt::format("the finding {} has no severity (info, low, medium, high or "
                      "critical)",
                      finding["fingerprint"].get<std::string>()));
    }
    Finding described = described_finding(finding);
    described.severity = *severity;
    auto [it, fresh] =
        baseline.try_emplace(finding["fingerprint"].get<std::string>(), std::move(described));
    if (!fresh) it->second.severity = std::max(it->second.severity, *severity);
  }
  return baseline;
}

tl::expected<Baseline, LoadError> load_baseline(const std::string& path) {
  auto text = read_text_file(path);
  if (!text) return tl::unexpected(LoadError{path, {}, "cannot read: " + text.error()});
  return parse_baseline(path, *text);
}

void apply_baseline(AnalysisResult& result, const Baseline& baseline) {
  std::set<std::string> present;
  for (Finding& f : result.findings) {
    std::string id = fingerprint(f);
    auto before = baseline.find(id);
    f.known = before != baseline.end() && f.severity <= before->second.severity;
    f.severity_before.reset();
    if (before != baseline.end() && before->second.severity != f.severity)
      f.severity_before = before->second.severity;
    present.insert(std::move(id));
  }
  std::vector<ResolvedFinding> resolved;
  for (const auto& [id, finding] : baseline) {
    if (!present.contains(id)) resolved.push_back({id, finding});
  }
  // Worst first, as findings are listed.
  std::stable_sort(resolved.begin(), resolved.end(),
                   [](const ResolvedFinding& a, const ResolvedFinding& b) {
                     return a.finding.severity > b.finding.severity;
                   });
  result.resolved = std::move(resolved);
}

BaselineCounts baseline_counts(const AnalysisResult& result) {
  BaselineCounts counts;
  counts.resolved = result.resolved ? result.resolved->size() : 0;
  for (const Finding& f : result.findings) {
    if (f.suppressed) continue;
    if (f.severity_before && !f.known) {
      ++counts.worse;
      continue;
    }
    if (f.severity_before) ++counts.better;
    ++(f.known ? counts.known : counts.added);
  }
  return counts;
}

std::string baseline_counts_text(const BaselineCounts& counts) {
  std::string out = fmt::format("{} new", counts.added);
  if (counts.worse) out += fmt::format(", {} worse", counts.worse);
  if (counts.better) out += fmt::format(", {} better", counts.better);
  return out + fmt::format(", {} resolved, {} known", counts.resolved, counts.known);
}

}  // namespace footprint
