#include "analysis/diff/diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/context.h"
#include "analysis/fingerprint.h"

namespace footprint {

namespace {

int area_rank(std::string_view area) {
  constexpr std::string_view kOrder[] = {"crds", "rbac", "admission", "footprint", "images"};
  for (size_t i = 0; i < std::size(kOrder); ++i)
    if (kOrder[i] == area) return static_cast<int>(i);
  return static_cast<int>(std::size(kOrder));
}

}  // namespace

std::string location_of(const Context& context, const Object& object) {
  if (!object.helm_source.empty()) return object.helm_source;
  return fmt::format("{}:{}", context.bundle.file_of(object), object.position.line);
}

FindingsDelta diff_findings(const DiffSide& old_side, const DiffSide& new_side) {
  FindingsDelta delta;
  std::map<std::string, Severity> before;  // the highest, should a fingerprint repeat
  for (const Finding& f : old_side.analysis.findings) {
    if (f.suppressed) continue;
    auto [it, fresh] = before.try_emplace(fingerprint(f), f.severity);
    if (!fresh) it->second = std::max(it->second, f.severity);
  }
  std::map<std::string, bool> seen;
  for (const Finding& f : new_side.analysis.findings) {
    if (f.suppressed) continue;
    std::string key = fingerprint(f);
    auto old = before.find(key);
    if (old == before.end()) {
      delta.added.push_back(f);
    } else if (f.severity != old->second) {
      Finding changed = f;
      changed.severity_before = old->second;
      (f.severity > old->second ? delta.worse : delta.better).push_back(std::move(changed));
    } else if (!seen[key]) {
      ++delta.unchanged;
    }
    seen[key] = true;
  }
  for (const Finding& f : old_side.analysis.findings)
    if (!f.suppressed && !seen.contains(fingerprint(f))) delta.resolved.push_back(f);
  return delta;
}

UpgradeDiff diff_upgrade(const DiffSide& old_side, const DiffSide& new_side) {
  UpgradeDiff diff;
  diff_crds(old_side, new_side, diff.changes);
  diff_rbac(old_side, new_side, diff.changes);
  diff_admission(old_side, new_side, diff.changes);
  diff_footprint(old_side, new_side, diff.changes);
  diff_images(old_side, new_side, diff.changes);
  std::stable_sort(diff.changes.begin(), diff.changes.end(), [](const Change& a, const Change& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    return area_rank(a.area) < area_rank(b.area);
  });
  diff.findings = diff_findings(old_side, new_side);
  diff.mirror = diff_mirror(old_side, new_side);
  return diff;
}

}  // namespace footprint
