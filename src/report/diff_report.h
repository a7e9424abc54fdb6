// The upgrade review of `footprint diff` as text, Markdown, JSON (schema in docs/diff.md) or
// HTML (html_diff.cc).
#pragma once

#include <string>

#include "analysis/diff/diff.h"
#include "report/report.h"

namespace footprint {

// `old_name` and `new_name` label the two sides (the inputs as given).
std::string render_diff(const UpgradeDiff& diff, const std::string& old_name,
                        const std::string& new_name, Format format, const ReportOptions& options);

// The review's page: changes worst first, each with its fix, then the findings delta.
std::string render_diff_html(const UpgradeDiff& diff, const std::string& old_name,
                             const std::string& new_name);

// Pieces every format shares.
// "Changes: 1 critical, 2 high. Findings: 2 new, 0 resolved, 7 unchanged."
std::string diff_counts_line(const UpgradeDiff& diff);
// What the upgrade adds to an air-gapped mirror ("" when no image changes and no sizes).
std::string mirror_line(const UpgradeDiff& diff);
// "check: Kind ns/name: summary", a new or resolved finding in one line, without its severity.
std::string diff_finding_text(const Finding& f);

}  // namespace footprint
