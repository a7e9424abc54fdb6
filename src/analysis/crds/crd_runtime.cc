// crd-installed-at-runtime: CRDs that the install's workloads create or rewrite while running,
// which the bundle does not show.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"
#include "model/units.h"
#include "util/strings.h"

namespace footprint {

namespace {

std::string workload_list(const std::vector<const Object*>& workloads) {
  std::vector<std::string> names;
  for (const Object* o : workloads)
    names.push_back(o->display());
  return joined(names);
}

std::string command_text(const CrdInstallCommand& c) {
  return fmt::format("{}'s container {} runs `{}`", c.workload->display(), c.container, c.evidence);
}

// One finding per ServiceAccount that may write CRDs, naming the workloads that run as it and
// what their containers run; then workloads whose containers install CRDs without that right.
// The CRD names beyond the bundle's own CRDs, which are what the bundle does not show.
std::string unshipped(const Bundle& bundle, const std::vector<std::string>& names) {
  std::vector<std::string> hidden;
  for (const std::string& n : names) {
    if (!bundle.find("apiextensions.k8s.io", "CustomResourceDefinition", "", n))
      hidden.push_back(n);
  }
  if (hidden.empty()) return "";
  constexpr size_t kShown = 10;
  std::vector<std::string> shown(
      hidden.begin(), hidden.begin() + static_cast<long>(std::min(kShown, hidden.size())));
  std::string more =
      hidden.size() > kShown ? fmt::format(" and {} more", hidden.size() - kShown) : "";
  return fmt::format(" CRDs it names that the bundle does not ship ({}): {}{}.", hidden.size(),
                     joined(shown), more);
}

void run_installed_at_runtime(const Context& ctx, Findings& out) {
  const HiddenFootprint& hidden = ctx.hidden;
  std::set<const CrdInstallCommand*> reported;
  for (const CrdWriter& w : hidden.writers) {
    std::vector<std::string> parts;
    std::vector<std::string> names = w.crd_names;
    bool installs = w.creates();
    // Rewriting existing CRDs without creating any is rbac-crd-write's.
    parts.push_back(w.workloads.empty() ? std::string("no workload of the bundle runs as it")
                                        : fmt::format("{} run{} as it", workload_list(w.workloads),
                                                      w.workloads.size() == 1 ? "s" : ""));
    for (const CrdInstallCommand& c : hidden.commands) {
      if (std::find(w.workloads.begin(), w.workloads.end(), c.workload) == w.workloads.end())
        continue;
      reported.insert(&c);
      installs = true;
      parts.push_back(command_text(c));
      for (const std::string& n : c.crd_names)
        add_unique(names, n);
    }
    if (!installs) continue;
    std::string named = unshipped(ctx.bundle, names);
    Finding& f = out.add(
        *w.anchor, Severity::kMedium,
        fmt::format("{} may {} any CustomResourceDefinition (through {}); {}. {}{}",
                    w.subject.display(), joined(w.verbs), joined(w.via), joined(parts, "; "),
                    "CRDs can be installed or upgraded at run time, so the cluster-scoped "
                    "footprint is larger than this bundle shows: they become cluster-wide "
                    "APIs every tenant shares.",
                    named),
        "Install the CRDs yourself from the project's release, turn the operator's CRD "
        "management off (its flag or chart value), and drop create on "
        "customresourcedefinitions from its role.");
    f.summary =
        fmt::format("{} installs CRDs at run time, beyond this bundle", w.subject.display());
  }
  for (const CrdInstallCommand& c : hidden.commands) {
    if (reported.contains(&c)) continue;
    std::string named = unshipped(ctx.bundle, c.crd_names);
    Finding& f =
        out.add(*c.workload, Severity::kMedium,
                fmt::format("{}, which installs CRDs, though no role of the bundle lets its "
                            "ServiceAccount create them: it relies on rights granted outside the "
                            "bundle (a larger footprint than shown), or the step fails.{}",
                            command_text(c), named),
                "Install the CRDs yourself from the project's release and turn this step off.");
    f.summary =
        fmt::format("{} installs CRDs at run time, beyond this bundle", c.workload->display());
  }
}

}  // namespace

extern const Check kCrdInstalledAtRuntime{
    .id = "crd-installed-at-runtime",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kMedium,
    .impact = Impact::kOtherTeams,
    .area = Area::kCrds,
    .description =
        "A workload of the bundle may create or change CRDs at run time, beyond the bundle.",
    .run = run_installed_at_runtime,
    .rationale =
        "A workload whose account may create CRDs, or whose container runs a CRD installer, adds "
        "cluster-wide APIs every tenant shares beyond what the bundle shows. Medium.",
    .fix = "Install the CRDs yourself and turn the operator's CRD management off.",
};

}  // namespace footprint
