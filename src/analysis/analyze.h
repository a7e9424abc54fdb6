// Runs every registered check over a bundle and applies suppressions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/config.h"
#include "analysis/finding.h"
#include "analysis/rbac/rbac.h"
#include "model/object.h"

namespace footprint {

constexpr const char* kIgnoreAnnotation = "footprint.dev/ignore";

struct AnalysisResult {
  // Worst first, then in input order. Suppressed findings stay in the list, marked.
  std::vector<Finding> findings;
  size_t suppressed = 0;
  std::vector<std::string> notes;  // e.g. an ignore annotation naming an unknown check
};

struct Context;
struct ImageSizes;

// Runs every check over prepared models, or only those of `area` (e.g. "airgap"); callers that
// render sections from the same models build the Context once.
AnalysisResult analyze(const Context& context, const Config& config, std::string_view area = {});
// Builds the models itself. `image_sizes`, when a command knows them, lets image-very-large
// judge the images.
AnalysisResult analyze(const Bundle& bundle, const Config& config,
                       const ImageSizes* image_sizes = nullptr);

}  // namespace footprint
