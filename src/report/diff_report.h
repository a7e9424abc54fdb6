// The upgrade review of `footprint diff` as text, Markdown or JSON (schema in docs/diff.md).
#pragma once

#include <string>

#include "analysis/diff/diff.h"
#include "report/report.h"

namespace footprint {

// `old_name` and `new_name` label the two sides (the inputs as given).
std::string render_diff(const UpgradeDiff& diff, const std::string& old_name,
                        const std::string& new_name, Format format, const ReportOptions& options);

}  // namespace footprint
