// Level and version resolution as staging/src/k8s.io/pod-security-admission/policy/registry.go
// does it, and the namespace labels as api/helpers.go reads them.
#include "model/pod_security.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <set>

#include "model/pod_security_rules.h"

namespace footprint {

std::string_view level_name(PodSecurityLevel level) {
  switch (level) {
    case PodSecurityLevel::kPrivileged:
      return "privileged";
    case PodSecurityLevel::kBaseline:
      return "baseline";
    case PodSecurityLevel::kRestricted:
      return "restricted";
  }
  return "privileged";
}

int PolicyVersion::effective_minor() const {
  return latest ? kNewestPolicyMinor : std::min(minor, kNewestPolicyMinor);
}

std::string PolicyVersion::to_string() const {
  return latest ? "latest" : fmt::format("v1.{}", minor);
}

std::string EnforcePolicy::to_string() const {
  return fmt::format("{}:{}", level_name(level), version.to_string());
}

namespace {

using pod_security::Check;
using pod_security::Revision;

// The revision of `check` that applies at v1.<minor>: the last one starting at or before it.
const Revision* revision_at(const Check& check, int minor) {
  const Revision* found = nullptr;
  for (const Revision& r : check.revisions) {
    if (r.minimum_minor <= minor) found = &r;
  }
  return found;
}

// The checks in the order the package evaluates them: baseline IDs sorted, then restricted ones.
std::vector<const Check*> ordered_checks() {
  std::vector<const Check*> out;
  for (const Check& c : pod_security::checks())
    out.push_back(&c);
  std::sort(out.begin(), out.end(), [](const Check* a, const Check* b) {
    if (a->level != b->level) return a->level < b->level;
    return a->id < b->id;
  });
  return out;
}

}  // namespace

std::vector<PodSecurityViolation> pod_security_violations(const PodView& pod,
                                                          PodSecurityLevel level,
                                                          PolicyVersion version) {
  std::vector<PodSecurityViolation> out;
  if (level == PodSecurityLevel::kPrivileged) return out;
  int minor = version.effective_minor();
  static const std::vector<const Check*> kOrdered = ordered_checks();
  // Restricted revisions that replace a baseline check at this version.
  std::set<std::string_view> overridden;
  if (level == PodSecurityLevel::kRestricted) {
    for (const Check* c : kOrdered) {
      if (c->level != PodSecurityLevel::kRestricted) continue;
      if (const Revision* r = revision_at(*c, minor)) {
        overridden.insert(r->overrides.begin(), r->overrides.end());
      }
    }
  }
  for (const Check* c : kOrdered) {
    if (c->level > level || overridden.contains(c->id)) continue;
    const Revision* r = revision_at(*c, minor);
    if (!r) continue;
    if (auto failure = r->check(pod)) {
      out.push_back({c->id, c->requirement, c->level, failure->reason, std::move(failure->detail)});
    }
  }
  return out;
}

PodSecurityLevel pod_security_level(const PodView& pod, PolicyVersion version) {
  if (pod_security_violations(pod, PodSecurityLevel::kRestricted, version).empty()) {
    return PodSecurityLevel::kRestricted;
  }
  if (pod_security_violations(pod, PodSecurityLevel::kBaseline, version).empty()) {
    return PodSecurityLevel::kBaseline;
  }
  return PodSecurityLevel::kPrivileged;
}

namespace {

// api.ParseVersion: "latest" or v1.<minor> (^v1\.([0-9]|[1-9][0-9]*)$).
std::optional<PolicyVersion> parse_version(std::string_view text) {
  if (text == "latest") return PolicyVersion{};
  if (!text.starts_with("v1.") || text.size() == 3) return std::nullopt;
  std::string_view digits = text.substr(3);
  if ((digits.size() > 1 && digits[0] == '0') ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  int minor = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), minor);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return PolicyVersion::v1(minor);
}

}  // namespace

EnforcePolicy enforce_policy(const Labels& labels) {
  EnforcePolicy p;
  if (auto it = labels.find(kEnforceLabel); it != labels.end()) {
    p.labelled = true;
    if (it->second == "privileged") {
      p.level = PodSecurityLevel::kPrivileged;
    } else if (it->second == "baseline") {
      p.level = PodSecurityLevel::kBaseline;
    } else if (it->second == "restricted") {
      p.level = PodSecurityLevel::kRestricted;
    } else {
      p.level = PodSecurityLevel::kRestricted;
      p.errors.push_back(
          fmt::format("{}={} is not privileged, baseline or restricted, so the API "
                      "server enforces restricted",
                      kEnforceLabel, it->second));
    }
  }
  if (auto it = labels.find(kEnforceVersionLabel); it != labels.end()) {
    if (auto version = parse_version(it->second)) {
      p.version = *version;
    } else {
      p.errors.push_back(
          fmt::format("{}={} is not latest or v1.<minor>, so the API server "
                      "evaluates latest",
                      kEnforceVersionLabel, it->second));
    }
  }
  return p;
}

std::vector<PodSecurityCheckInfo> pod_security_checks() {
  std::vector<PodSecurityCheckInfo> out;
  for (const Check& c : pod_security::checks()) {
    PodSecurityCheckInfo info{c.id, c.level, {}};
    for (const Revision& r : c.revisions)
      info.revisions.push_back(r.minimum_minor);
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace footprint
