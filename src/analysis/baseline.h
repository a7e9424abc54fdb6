// --baseline: a previous `--format json` report, whose findings a CI gate already knows.
#pragma once

#include <map>
#include <string>
#include <tl/expected.hpp>

#include "analysis/analyze.h"
#include "load/loader.h"

namespace footprint {

// The report's findings by fingerprint, with what the report says of each (check, severity,
// object, source, message); the highest severity should a fingerprint repeat.
using Baseline = std::map<std::string, Finding>;

// An error names the file when it is not an `audit --format json` report of a schema version this
// footprint reads (another command's report has other findings), or one written before reports
// carried fingerprints.
tl::expected<Baseline, LoadError> load_baseline(const std::string& path);
tl::expected<Baseline, LoadError> parse_baseline(const std::string& path, std::string_view text);

// Marks the findings the baseline has at the same or a higher severity as known, those whose
// severity differs with Finding::severity_before (a finding whose severity rose is "worse": not
// known, so it reaches --fail-on at its new severity), and lists the baseline's findings that
// are gone (AnalysisResult::resolved).
void apply_baseline(AnalysisResult& result, const Baseline& baseline);

// The counts a report opens with: "N new, W worse, B better, M resolved, K known". Suppressed
// findings are in none; better findings are also known.
struct BaselineCounts {
  size_t added = 0;
  size_t worse = 0;
  size_t better = 0;
  size_t resolved = 0;
  size_t known = 0;
};
BaselineCounts baseline_counts(const AnalysisResult& result);
// "3 new, 1 worse, 2 resolved, 13 known": worse and better only when there are some.
std::string baseline_counts_text(const BaselineCounts& counts);

}  // namespace footprint
