// Findings about a Helm hook that installing does not run (a pre-upgrade Job, a post-delete
// ClusterRole) are still true, but for that phase: analyze() says which.
#pragma once

#include <vector>

#include "analysis/finding.h"
#include "model/object.h"

namespace footprint {

// Names the phase in each finding about such a hook: its message ends with it, its summary
// carries it.
void name_hook_phases(const Bundle& bundle, std::vector<Finding>& findings);

}  // namespace footprint
