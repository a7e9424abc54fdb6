// The report's first screen: what the install creates, and its worst risks in plain words,
// each pointing at its numbered finding. Text, Markdown and JSON render the same overview.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "report/report.h"

namespace footprint {

struct OverviewRisk {
  size_t number;  // the finding's number in the report (1-based, suppressed ones not counted)
  Severity severity;
  std::string check;
  std::string text;  // the finding's one-line summary
};

struct Overview {
  std::vector<std::string> creates;
  std::vector<OverviewRisk> risks;  // worst first
  std::array<size_t, 5> counts{};   // unsuppressed findings per severity
  size_t total = 0;
  // What the input's footprint.dev/ignore annotations asked for, and what they were granted:
  // "The chart asks to suppress 2 of them: ..." under the counts; empty when none asked.
  std::string input_suppressions;
};

Overview make_overview(const Report& report);

// "1 critical, 4 high, 2 low", or "none".
std::string counts_text(const Overview& overview);

}  // namespace footprint
