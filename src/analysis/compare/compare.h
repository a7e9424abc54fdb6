// Side-by-side comparison of install modes: the same chart rendered with different values, or
// different rendered bundles (e.g. a cluster-wide and a namespace-restricted install).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/compare/decision_table.h"
#include "model/cluster.h"
#include "model/object.h"

namespace footprint {

struct ModeInput {
  std::string name;
  std::unique_ptr<Bundle> bundle;  // null when the mode could not be rendered or read
  std::string error;               // helm's error, or the load errors, when it could not
};

struct ComparisonRow {
  std::string group;  // "Kinds", "Webhooks", "Permissions", ...
  std::string label;
  std::vector<std::string> values;  // one per mode
  bool differs = false;
};

struct Comparison {
  std::vector<std::string> modes;
  DecisionTable decisions;          // what a reviewer decides on; reports lead with it
  std::vector<ComparisonRow> rows;  // the detail the decisions rest on
  // Each mode's analysis, suppressions of the configuration applied (empty for a mode that could
  // not be read), so that --fail-on judges modes as audit judges an install.
  std::vector<AnalysisResult> analyses;
};

// The decision table (decision_table.h), then the detail rows: kinds counted per scope, webhooks
// (counted one by one, and each with its namespace scope), cluster-scoped objects, cluster-wide
// rights per ServiceAccount, CRDs shipped and required, who injects each CA, and the findings
// present in some modes only. With `cluster` (--cluster), every mode is judged against that
// cluster. `config` suppresses findings as in audit: a suppressed finding is no mode's worst and
// no row of "Findings in some modes only".
Comparison compare_modes(const std::vector<ModeInput>& modes, const Config& config = {},
                         const Cluster* cluster = nullptr);

}  // namespace footprint
