#include "load/skipped.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

namespace footprint {

std::string_view unit_name(Skipped::Unit unit) {
  switch (unit) {
    case Skipped::Unit::kFile:
      return "file";
    case Skipped::Unit::kFolder:
      return "folder";
    case Skipped::Unit::kDocument:
      return "document";
    case Skipped::Unit::kObject:
      return "object";
  }
  return "file";
}

std::string skipped_summary(const std::vector<Skipped>& skipped) {
  std::array<size_t, 4> per_unit{};
  std::vector<std::pair<std::string_view, size_t>> per_reason;
  for (const Skipped& s : skipped) {
    ++per_unit[static_cast<size_t>(s.unit)];
    auto found = std::find_if(per_reason.begin(), per_reason.end(),
                              [&](const auto& r) { return r.first == s.reason; });
    if (found == per_reason.end()) {
      per_reason.emplace_back(s.reason, 1);
    } else {
      ++found->second;
    }
  }
  std::string out;
  for (size_t u = 0; u < per_unit.size(); ++u) {
    if (per_unit[u] == 0) continue;
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}{}", per_unit[u], unit_name(static_cast<Skipped::Unit>(u)),
                       per_unit[u] == 1 ? "" : "s");
  }
  out += " (";
  for (size_t i = 0; i < per_reason.size(); ++i) {
    if (i > 0) out += "; ";
    out += fmt::format("{} {}", per_reason[i].second, per_reason[i].first);
  }
  return out + ")";
}

}  // namespace footprint
