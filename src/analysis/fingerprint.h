// A finding's fingerprint: what the finding is about, not where it was found or how it is
// worded, so a later report (a chart bump that moves lines, reorders documents, reformats YAML)
// matches it; --baseline and the waivers' `fingerprint` use it.
#pragma once

#include <string>

#include "analysis/finding.h"

namespace footprint {

// 32 hex digits of the SHA-256 of the check ID, the object's API group (not its version), kind,
// namespace and name (or Finding::about in their place), and Finding::key.
std::string fingerprint(const Finding& finding);

}  // namespace footprint
