// `audit` of one OLM bundle without --install-mode: every install mode the bundle supports,
// rendered and analysed, side by side as `compare` shows modes.
#pragma once

#include <optional>
#include <string>

#include "cli/common.h"

namespace footprint {

struct OlmModesRun {
  const BundleArgs& bundle_args;
  const PolicyArgs& policy;
  const Config& config;
  Format format;
  std::string output_path;
  const ColorOption& color;
  std::string cluster_path;
};

// True when `args` names one OLM bundle and no --install-mode: audit_olm_modes() runs then.
bool audits_olm_modes(const BundleArgs& args);
// The exit code of the comparison.
int audit_olm_modes(const OlmModesRun& run);

}  // namespace footprint
