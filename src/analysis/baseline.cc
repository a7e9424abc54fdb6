#include "analysis/baseline.h"

#include <nlohmann/json.hpp>

#include "analysis/fingerprint.h"

namespace footprint {

tl::expected<std::set<std::string>, LoadError> parse_baseline(const std::string& path,
                                                              std::string_view text) {
  auto fail = [&](std::string message) {
    return tl::unexpected(LoadError{path, {}, std::move(message)});
  };
  nlohmann::json report = nlohmann::json::parse(text, nullptr, false);
  if (report.is_discarded() || !report.is_object() || !report.contains("findings") ||
      !report["findings"].is_array()) {
    return fail("not a footprint JSON report (write one with `footprint audit --format json`)");
  }
  std::set<std::string> fingerprints;
  for (const nlohmann::json& finding : report["findings"]) {
    if (!finding.is_object() || !finding.contains("fingerprint") ||
        !finding["fingerprint"].is_string()) {
      return fail(
          "a finding has no fingerprint: the report predates fingerprints; write it "
          "again with this footprint");
    }
    fingerprints.insert(finding["fingerprint"].get<std::string>());
  }
  return fingerprints;
}

tl::expected<std::set<std::string>, LoadError> load_baseline(const std::string& path) {
  auto text = read_text_file(path);
  if (!text) return tl::unexpected(LoadError{path, {}, "cannot read: " + text.error()});
  return parse_baseline(path, *text);
}

void apply_baseline(AnalysisResult& result, const std::set<std::string>& baseline) {
  std::set<std::string> present;
  for (Finding& f : result.findings) {
    std::string id = fingerprint(f);
    f.known = baseline.count(id) > 0;
    present.insert(std::move(id));
  }
  size_t resolved = 0;
  for (const std::string& id : baseline)
    resolved += present.count(id) == 0 ? 1 : 0;
  result.resolved = resolved;
}

BaselineCounts baseline_counts(const AnalysisResult& result) {
  BaselineCounts counts;
  counts.resolved = result.resolved.value_or(0);
  for (const Finding& f : result.findings) {
    if (f.suppressed) continue;
    ++(f.known ? counts.known : counts.added);
  }
  return counts;
}

}  // namespace footprint
