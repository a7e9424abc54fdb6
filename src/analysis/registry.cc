#include <array>
#include <string>

#include "analysis/check.h"

namespace footprint {

// NOLINTNEXTLINE(bugprone-macro-parentheses): a declarator cannot be parenthesized.
#define FOOTPRINT_CHECK(name) extern const Check name;
#include "analysis/check_list.inc"
#undef FOOTPRINT_CHECK

namespace {
#define FOOTPRINT_CHECK(name) &(name),
constexpr const Check* kAllChecks[] = {
#include "analysis/check_list.inc"
};
#undef FOOTPRINT_CHECK
}  // namespace

std::span<const Check* const> all_checks() {
  return kAllChecks;
}

std::string_view area_name(Area area) {
  switch (area) {
    case Area::kObjects:
      return "objects";
    case Area::kRbac:
      return "rbac";
    case Area::kAdmission:
      return "admission";
    case Area::kCrds:
      return "crds";
    case Area::kAirgap:
      return "airgap";
    case Area::kClusterWide:
      return "cluster-wide";
    case Area::kNodes:
      return "nodes";
    case Area::kPodSecurity:
      return "pod-security";
  }
  return "";
}

std::string severity_range(const Check& check) {
  std::string out(severity_name(check.min_severity));
  if (check.max_severity != check.min_severity)
    out += " to " + std::string(severity_name(check.max_severity));
  return out;
}

const Check* find_check(std::string_view id) {
  for (const Check* check : kAllChecks) {
    if (check->id == id) return check;
  }
  return nullptr;
}

}  // namespace footprint
