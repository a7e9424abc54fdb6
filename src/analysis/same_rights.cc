#include "analysis/same_rights.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "model/helm_hooks.h"
#include "util/strings.h"

namespace footprint {

namespace {

std::vector<std::string>* listed(Finding& f, std::string_view kind) {
  for (auto& [k, items] : f.affects) {
    if (k == kind) return &items;
  }
  return nullptr;
}

// A finding about one subject's rights: the key it is joined by is its grants.
bool about_one_subject(Finding& f) {
  const std::vector<std::string>* subjects = listed(f, "subjects");
  return !f.suppressed && subjects && subjects->size() == 1 && listed(f, "grants") &&
         listed(f, "roles");
}

// The Helm phase that creates the finding's object: "" for the install.
std::string phase_of(const Bundle& bundle, const Finding& f) {
  return f.object_index < bundle.objects.size() ? later_hook_phases(bundle.objects[f.object_index])
                                                : "";
}

// What two findings must share to be joined, as one string: the check, severity, fix, granted
// requests and Helm phase, each written after its length, and the number of grants, so that no two
// lists read alike.
std::string same_rights_key(const Bundle& bundle, Finding& f) {
  std::string key;
  auto add = [&](std::string_view part) {
    key += std::to_string(part.size());
    key += ':';
    key += part;
  };
  add(f.check);
  add(severity_name(f.severity));
  add(f.remediation);
  const std::vector<std::string>& grants = *listed(f, "grants");
  add(std::to_string(grants.size()));
  for (const std::string& grant : grants)
    add(grant);
  add(phase_of(bundle, f));
  return key;
}

}  // namespace

void join_same_rights(const Bundle& bundle, std::vector<Finding>& findings) {
  // Each group of alike findings, by its first; the rest in order. A key lookup, not a scan of
  // every later finding: an object-dense cluster has tens of thousands of subjects.
  std::unordered_map<std::string, size_t> first_of;
  std::vector<std::vector<size_t>> joined_into(findings.size());
  std::vector<bool> merged(findings.size(), false);
  for (size_t i = 0; i < findings.size(); ++i) {
    if (!about_one_subject(findings[i])) continue;
    auto [it, added] = first_of.try_emplace(same_rights_key(bundle, findings[i]), i);
    if (added) continue;
    joined_into[it->second].push_back(i);
    merged[i] = true;
  }
  for (size_t i = 0; i < findings.size(); ++i) {
    if (joined_into[i].empty()) continue;
    Finding& first = findings[i];
    std::vector<std::string> others;
    for (size_t j : joined_into[i]) {
      Finding& other = findings[j];
      const std::string& subject = listed(other, "subjects")->front();
      others.push_back(
          fmt::format("{} (through {})", subject, fmt::join(*listed(other, "roles"), ", ")));
      listed(first, "subjects")->push_back(subject);
      for (const std::string& role : *listed(other, "roles"))
        add_unique(*listed(first, "roles"), role);
    }
    // The joined finding is about all its subjects, whichever comes first in the bundle.
    std::vector<std::string> subjects = *listed(first, "subjects");
    std::sort(subjects.begin(), subjects.end());
    about_shared(first, joined(subjects, ", "));
    first.message += fmt::format(" The same holds for {}.", fmt::join(others, "; "));
    first.summary += others.size() == 1
                         ? fmt::format(" (so does {})", listed(first, "subjects")->back())
                         : fmt::format(" (and {} more subjects)", others.size());
  }
  size_t kept = 0;
  for (size_t i = 0; i < findings.size(); ++i) {
    if (merged[i]) continue;
    if (kept != i) findings[kept] = std::move(findings[i]);
    ++kept;
  }
  findings.resize(kept);
}

}  // namespace footprint
