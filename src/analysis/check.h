// A check: a stable ID, the severities it reports, what its findings reach, a one-line
// description, and a function over the whole bundle and the models of its Context
// (analysis/context.h), since checks relate objects to each other.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "analysis/finding.h"

namespace footprint {

struct Context;

// What a check is about; each area's checks live in the folder of its name under src/analysis/
// (kClusterWide in cluster_wide/), which check_registry_test.cc enforces.
enum class Area : uint8_t {
  kObjects,
  kRbac,
  kAdmission,
  kCrds,
  kAirgap,
  kClusterWide,
  kNodes,
  kPodSecurity,
};
// "objects", "rbac", "admission", "crds", "airgap", "cluster-wide", "nodes", "pod-security": the
// names users see in `footprint checks`, SARIF and JUnit.
std::string_view area_name(Area area);

// Defined with designated initialisers, so that no field lands in another's place.
struct Check {
  std::string_view id;  // kebab-case, stable: users suppress and filter by it
  // The range of severities it reports; where in it a finding lands follows from its
  // consequence (docs/checks.md states the rule per check).
  Severity min_severity;
  Severity max_severity;
  Impact impact;
  Area area;
  std::string_view description;
  void (*run)(const Context& context, Findings& out);
  // For docs/checks.md and SARIF help: why the check matters and how its severity is decided,
  // and the usual fix (each finding carries its own, more precise one).
  std::string_view rationale;
  std::string_view fix;
  // Its findings break something from the moment of install (a request rejected, an apply
  // refused, a pod that never starts), rather than a right that may be misused or a failure
  // that waits for a backend to go down. Among findings of one severity these come first.
  bool breaks_on_install = false;
};
// "high", or "low to critical" for a check whose findings range over several severities.
std::string severity_range(const Check& check);

// Every check, in the order of check_list.inc.
std::span<const Check* const> all_checks();
const Check* find_check(std::string_view id);

}  // namespace footprint
