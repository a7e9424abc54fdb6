#include "analysis/same_rights.h"

#include <fmt/format.h>

#include <algorithm>

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

bool alike(const Bundle& bundle, Finding& a, Finding& b) {
  return a.check == b.check && a.severity == b.severity && a.remediation == b.remediation &&
         *listed(a, "grants") == *listed(b, "grants") && phase_of(bundle, a) == phase_of(bundle, b);
}

}  // namespace

void join_same_rights(const Bundle& bundle, std::vector<Finding>& findings) {
  std::vector<bool> merged(findings.size(), false);
  for (size_t i = 0; i < findings.size(); ++i) {
    Finding& first = findings[i];
    if (merged[i] || !about_one_subject(first)) continue;
    std::vector<std::string> others;
    for (size_t j = i + 1; j < findings.size(); ++j) {
      Finding& other = findings[j];
      if (merged[j] || !about_one_subject(other) || !alike(bundle, first, other)) continue;
      merged[j] = true;
      const std::string& subject = listed(other, "subjects")->front();
      others.push_back(
          fmt::format("{} (through {})", subject, fmt::join(*listed(other, "roles"), ", ")));
      listed(first, "subjects")->push_back(subject);
      for (const std::string& role : *listed(other, "roles"))
        add_unique(*listed(first, "roles"), role);
    }
    if (others.empty()) continue;
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
