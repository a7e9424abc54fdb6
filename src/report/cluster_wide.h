// Report sections for what an install does outside its own namespaces.
#pragma once

#include "report/section.h"

namespace footprint {

struct Context;

// Aggregated APIs, PriorityClasses, cluster defaults and shared cluster objects, and each
// DaemonSet's node footprint; its JSON is the report's "clusterWide".
Section cluster_wide_section(const Context& context);

// Each workload's Pod Security level and its namespace's enforce label; its JSON is the report's
// "podSecurity".
Section pod_security_section(const Context& context);

}  // namespace footprint
