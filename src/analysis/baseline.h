// --baseline: a previous `--format json` report, whose findings a CI gate already knows.
#pragma once

#include <set>
#include <string>
#include <tl/expected.hpp>

#include "analysis/analyze.h"
#include "load/loader.h"

namespace footprint {

// The fingerprints of the report's findings. An error names the file when it is not a JSON
// report, or one written before reports carried fingerprints.
tl::expected<std::set<std::string>, LoadError> load_baseline(const std::string& path);
tl::expected<std::set<std::string>, LoadError> parse_baseline(const std::string& path,
                                                              std::string_view text);

// Marks the findings the baseline has as known and counts the baseline's findings that are gone.
void apply_baseline(AnalysisResult& result, const std::set<std::string>& baseline);

// The counts a report opens with: "N new, M resolved, K known". Suppressed findings are in none.
struct BaselineCounts {
  size_t added = 0;
  size_t resolved = 0;
  size_t known = 0;
};
BaselineCounts baseline_counts(const AnalysisResult& result);

}  // namespace footprint
