#include "analysis/baseline.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <set>

#include "analysis/fingerprint.h"

namespace footprint {

tl::expected<Baseline, LoadError> parse_baseline(const std::string& path, std::string_view text) {
  auto fail = [&](std::string message) {
    return tl::unexpected(LoadError{path, {}, std::move(message)});
  };
  nlohmann::json report = nlohmann::json::parse(text, nullptr, false);
  if (report.is_discarded() || !report.is_object() || !report.contains("findings") ||
      !report["findings"].is_array()) {
    return fail("not a footprint JSON report (write one with `footprint audit --format json`)");
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
    auto [it, fresh] = baseline.try_emplace(finding["fingerprint"].get<std::string>(), *severity);
    if (!fresh) it->second = std::max(it->second, *severity);
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
    f.known = before != baseline.end() && f.severity <= before->second;
    f.severity_before.reset();
    if (before != baseline.end() && before->second != f.severity)
      f.severity_before = before->second;
    present.insert(std::move(id));
  }
  size_t resolved = 0;
  for (const auto& [id, severity] : baseline)
    resolved += present.count(id) == 0 ? 1 : 0;
  result.resolved = resolved;
}

BaselineCounts baseline_counts(const AnalysisResult& result) {
  BaselineCounts counts;
  counts.resolved = result.resolved.value_or(0);
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
