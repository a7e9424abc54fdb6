#include "analysis/hook_findings.h"

#include <fmt/format.h>

#include "model/helm_hooks.h"

namespace footprint {

void name_hook_phases(const Bundle& bundle, std::vector<Finding>& findings) {
  for (Finding& f : findings) {
    if (f.object_index >= bundle.objects.size()) continue;
    std::string phases = later_hook_phases(bundle.objects[f.object_index]);
    if (phases.empty()) continue;
    f.message += fmt::format(
        " {} is a Helm hook ({}): installing the release does not create it; this holds when "
        "Helm runs it.",
        bundle.objects[f.object_index].display(), phases);
    if (!f.summary.empty()) f.summary += fmt::format(" ({} hook)", phases);
  }
}

}  // namespace footprint
