// Runs every registered check over a bundle and applies suppressions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/check.h"
#include "analysis/config.h"
#include "analysis/finding.h"
#include "model/object.h"

namespace footprint {

constexpr const char* kIgnoreAnnotation = "footprint.dev/ignore";
// The schemaVersion of the JSON reports (report/json.cc), which --baseline reads back.
constexpr int kJsonSchemaVersion = 1;

// A waiver of the configuration file that needs its owner: expired (it waives nothing any more,
// so what it matched is reported again), or stale (it matches no finding).
struct WaiverIssue {
  IgnoreRule rule;
  std::string at;  // "path:line"
  bool expired = false;
  size_t findings = 0;  // the findings it matches
  // Of those, the ones another waiver or a trusted annotation suppresses: not reported.
  size_t suppressed_otherwise = 0;
};

// A finding of the --baseline report that this run no longer has: its check, severity, object,
// source and message as that report gave them, and its fingerprint.
struct ResolvedFinding {
  std::string fingerprint;
  Finding finding;
};

struct AnalysisResult {
  // Worst first, then in input order. Suppressed findings stay in the list, marked.
  std::vector<Finding> findings;
  size_t suppressed = 0;
  // Findings a footprint.dev/ignore annotation of the input asks to suppress, reported all the
  // same (Finding::suppression_request).
  size_t suppression_requests = 0;
  // Set when compared with a --baseline report (apply_baseline): its findings this run no
  // longer has, as that report gave them. Findings it has are marked Finding::known.
  std::optional<std::vector<ResolvedFinding>> resolved;
  std::vector<std::string> notes;          // e.g. an ignore annotation naming an unknown check
  std::vector<WaiverIssue> waiver_issues;  // in the configuration file's order
};

struct Context;
struct ImageSizes;

// Runs every check over prepared models, or only those of `area`; callers that render sections
// from the same models build the Context once.
AnalysisResult analyze(const Context& context, const Config& config,
                       std::optional<Area> area = std::nullopt);
// Builds the models itself. `image_sizes`, when a command knows them, lets image-very-large
// judge the images.
AnalysisResult analyze(const Bundle& bundle, const Config& config,
                       const ImageSizes* image_sizes = nullptr);

}  // namespace footprint
