// crd-missing: other projects' APIs the install's objects use without their CRDs, which the
// API server rejects until those projects are installed.
#include <fmt/format.h>

#include "analysis/context.h"
#include "analysis/models/ownership.h"
#include "model/units.h"

namespace footprint {

namespace {

void run_crd_missing(const Context& ctx, Findings& out) {
  for (const MissingCrd& m : ctx.missing_crds) {
    if (ctx.own.owns(m.group)) continue;  // crd-not-installed's
    // Kinds whose CRDs the cluster already has (--cluster) are satisfied, as when another
    // release installed prometheus-operator's CRDs.
    std::vector<std::string> kinds;
    for (const auto& [k, n] : m.kinds) {
      if (!ctx.cluster || !ctx.cluster->serves(m.group, k)) kinds.push_back(k);
    }
    if (kinds.empty()) continue;
    const std::string& kind = kinds.front();
    const Object* first = nullptr;
    size_t count = 0;
    for (const Object& obj : ctx.bundle.objects) {
      if (obj.group != m.group || obj.scope != Scope::kUnknown || !contains(kinds, obj.kind))
        continue;
      if (!first) first = &obj;
      ++count;
    }
    Finding& f = out.add(
        *first, Severity::kMedium,
        fmt::format("{} use{} kind{} {} of group {}, another project's API that the "
                    "bundle ships no CustomResourceDefinition for: the cluster must already have "
                    "these CRDs. Without them the install fails with \"no matches for kind {} in "
                    "version {}\".",
                    count_of(count, "object"), count == 1 ? "s" : "", kinds.size() == 1 ? "" : "s",
                    fmt::join(kinds, ", "), m.group, kind, first->api_version),
        fmt::format("Install the CRDs of group {} before this bundle (from the project that owns "
                    "that API), or turn these objects off in the chart's values.",
                    m.group));
    about_shared(f, m.group);  // one finding per API group
    f.summary =
        fmt::format("Needs the CRDs of {} ({}) in the cluster first", m.group, some_of(kinds, 2));
    f.affects.emplace_back("kinds", std::move(kinds));
  }
}

}  // namespace

extern const Check kCrdMissing{
    .id = "crd-missing",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kMedium,
    .impact = Impact::kInstall,
    .area = Area::kObjects,
    .description =
        "Objects use kinds of another project's API whose CRDs the bundle does not ship.",
    .run = run_crd_missing,
    .rationale =
        "Objects whose kind belongs to another project's API (a PodMonitor of prometheus-operator) "
        "apply only where that project's CRDs are installed; otherwise kubectl and Helm fail with "
        "\"no matches for kind\". Medium: a prerequisite to check, not a fault of the bundle. The "
        "install's own API is crd-not-installed's.",
    .fix = "Install that project's CRDs first, or turn the objects off in the chart's values.",
    .breaks_on_install = true,
};

}  // namespace footprint
