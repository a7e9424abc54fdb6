// RBAC deltas per subject, from what the RBAC engine says each subject may do on each side
// (Context::permissions, built by permissions_of over the policy with aggregation applied, and
// Context::escalations, the good-practices paths the authorizer grants), never from rule text.
#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <set>

#include "analysis/context.h"
#include "analysis/diff/diff.h"
#include "analysis/models/escalation_paths.h"
#include "model/units.h"
#include "util/strings.h"

namespace footprint {

namespace {

// One right: "list secrets" with its scope, the unit rights are gained and lost in. `rule` is the
// right alone as a one-verb, one-resource rule, so the authorizer's matching says which requests
// of an escalation path it allows.
struct Atom {
  std::string what;   // "list secrets", "get /metrics", "get configmaps (names a, b)"
  std::string scope;  // "" for every namespace, else the namespace
  // Cluster-scoped resources and non-resource URLs are in no namespace: "in every namespace"
  // would misdescribe them.
  enum class Reach : uint8_t { kNamespaced, kClusterScoped, kUrl } reach = Reach::kNamespaced;
  bool risky = false;
  PolicyRule rule;
  bool operator<(const Atom& other) const {
    return std::tie(what, scope) < std::tie(other.what, other.scope);
  }
};

std::string resource_text(const std::string& group, const std::string& resource) {
  return group.empty() ? resource : resource + "." + group;
}

std::set<Atom> atoms_of(const SubjectPermissions& subject, const ResourceTable& resources) {
  std::set<Atom> out;
  for (const PermissionGrant& g : subject.grants) {
    std::string names =
        g.resource_names.empty() ? "" : fmt::format(" (names {})", joined(g.resource_names));
    for (const std::string& verb : g.verbs) {
      for (const std::string& url : g.non_resource_urls) {
        PolicyRule rule;
        rule.verbs = {verb};
        rule.non_resource_urls = {url};
        out.insert({fmt::format("{} {}", verb, url), g.namespace_, Atom::Reach::kUrl,
                    !g.risks.empty(), rule});
      }
      for (const std::string& group : g.api_groups) {
        for (const std::string& resource : g.resources) {
          PolicyRule rule;
          rule.verbs = {verb};
          rule.api_groups = {group};
          rule.resources = {resource};
          rule.resource_names = g.resource_names;
          const ResourceInfo* info =
              resources.find_resource(group, resource.substr(0, resource.find('/')));
          Atom::Reach reach = info && info->scope == Scope::kCluster ? Atom::Reach::kClusterScoped
                                                                     : Atom::Reach::kNamespaced;
          out.insert({fmt::format("{} {}{}", verb, resource_text(group, resource), names),
                      g.namespace_, reach, !g.risks.empty(), rule});
        }
      }
    }
  }
  return out;
}

// Whether the right alone allows one of the requests that give `held` its path: the same rule
// match as the authorizer's, in the right's scope (every namespace, or the request's own).
bool opens(const Atom& atom, const HeldEscalation& held) {
  for (const Right& right : held.rights.rights) {
    for (const Request& request : right.requests) {
      bool in_scope = atom.scope.empty() || atom.scope == request.namespace_;
      if (in_scope && rule_allows(atom.rule, request)) return true;
    }
  }
  return false;
}

// "create pods/exec in every namespace; escalation: exec into pods (exec-into-pods)": the right,
// with the escalation paths it is a step of on its side, so a right listed once carries what it
// means.
std::string atom_text(const Atom& atom, const std::map<std::string, const HeldEscalation*>& paths) {
  std::string out = atom.what;
  if (!atom.scope.empty()) {
    out += " in " + atom.scope;
  } else if (atom.reach == Atom::Reach::kNamespaced) {
    out += " in every namespace";
  } else if (atom.reach == Atom::Reach::kClusterScoped) {
    out += " (cluster-scoped)";
  }
  std::vector<std::string> meanings;
  for (const auto& [id, held] : paths)
    if (opens(atom, *held))
      add_unique(meanings, fmt::format("{} ({})", held->path->summary, held->path->id));
  if (!meanings.empty()) out += "; escalation: " + joined(meanings);
  return out;
}

std::map<std::string, const SubjectPermissions*> by_subject(const Context& ctx) {
  std::map<std::string, const SubjectPermissions*> out;
  for (const SubjectPermissions& s : ctx.permissions)
    out[s.subject.display()] = &s;
  return out;
}

// Held paths per subject: path ID -> the hold.
using PathsBySubject = std::map<std::string, std::map<std::string, const HeldEscalation*>>;

PathsBySubject paths_by_subject(const Context& ctx) {
  PathsBySubject out;
  for (const HeldEscalation& held : ctx.escalations)
    out[held.rights.subject.display()][std::string(held.path->id)] = &held;
  return out;
}

void diff_paths(const std::string& subject, PathsBySubject& before, PathsBySubject& after,
                std::vector<Change>& out) {
  for (const auto& [id, held] : after[subject]) {
    auto old_hold = before[subject].find(id);
    bool widened = old_hold != before[subject].end() && !old_hold->second->rights.cluster_wide() &&
                   held->rights.cluster_wide();
    if (old_hold != before[subject].end() && !widened) continue;
    Change c;
    c.area = "rbac";
    c.severity = held->severity;
    c.subject = subject;
    c.change = fmt::format("{} {} ({}), {}", widened ? "now cluster-wide:" : "gains",
                           held->path->summary, held->path->id, scopes_text(held->rights));
    c.consequence =
        fmt::format("It may {}: {}", requests_text(*held->path), held->path->consequence);
    c.fix = std::string(held->path->fix);
    // The rights themselves are listed once, in the rights gained, each naming its path.
    for (const std::string& role : held->rights.roles())
      c.details.push_back("through " + role);
    out.push_back(std::move(c));
  }
  for (const auto& [id, held] : before[subject]) {
    if (after[subject].contains(id)) continue;
    Change c;
    c.area = "rbac";
    c.subject = subject;
    c.change = fmt::format("loses {} ({})", held->path->summary, held->path->id);
    c.consequence = "One escalation path fewer.";
    out.push_back(std::move(c));
  }
}

}  // namespace

void diff_rbac(const DiffSide& old_side, const DiffSide& new_side, std::vector<Change>& out) {
  auto before = by_subject(old_side.context);
  auto after = by_subject(new_side.context);
  std::set<std::string> subjects;
  for (const auto& [name, s] : before)
    subjects.insert(name);
  for (const auto& [name, s] : after)
    subjects.insert(name);
  for (const HeldEscalation& held : new_side.context.escalations)
    subjects.insert(held.rights.subject.display());
  for (const HeldEscalation& held : old_side.context.escalations)
    subjects.insert(held.rights.subject.display());

  auto old_paths = paths_by_subject(old_side.context);
  auto new_paths = paths_by_subject(new_side.context);
  for (const std::string& subject : subjects) {
    diff_paths(subject, old_paths, new_paths, out);
    std::set<Atom> old_atoms = before.contains(subject)
                                   ? atoms_of(*before[subject], old_side.context.bundle.resources)
                                   : std::set<Atom>{};
    std::set<Atom> new_atoms = after.contains(subject)
                                   ? atoms_of(*after[subject], new_side.context.bundle.resources)
                                   : std::set<Atom>{};
    std::vector<std::string> gained;
    std::vector<std::string> lost;
    bool risky = false;
    bool cluster_wide = false;
    size_t every_namespace = 0;
    for (const Atom& a : new_atoms) {
      if (old_atoms.contains(a)) continue;
      gained.push_back(atom_text(a, new_paths[subject]));
      risky = risky || a.risky;
      cluster_wide = cluster_wide || a.scope.empty();
      if (a.scope.empty() && a.reach == Atom::Reach::kNamespaced) ++every_namespace;
    }
    for (const Atom& a : old_atoms)
      if (!new_atoms.contains(a)) lost.push_back(atom_text(a, old_paths[subject]));
    if (!gained.empty()) {
      Change c;
      c.area = "rbac";
      c.subject = subject;
      c.severity = risky ? (cluster_wide ? Severity::kHigh : Severity::kMedium) : Severity::kLow;
      c.change = fmt::format("{}gains {}{}", before.contains(subject) ? "" : "new subject: ",
                             count_of(gained.size(), "right"),
                             every_namespace == 0               ? ""
                             : every_namespace == gained.size() ? ", in every namespace"
                                                                : ", some in every namespace");
      c.consequence = risky ? "Some of them reach Secrets, workloads or the API's own controls; "
                              "a right that is a step of an escalation path names it (the "
                              "path's own change says what it leads to and the fix)."
                            : "No right among them is on the escalation list.";
      c.fix =
          "Check that the new version needs them; scope them to namespaces with RoleBindings "
          "where it can.";
      c.details = gained;
      out.push_back(std::move(c));
    }
    if (!lost.empty()) {
      Change c;
      c.area = "rbac";
      c.subject = subject;
      c.change = fmt::format("loses {}", count_of(lost.size(), "right"));
      c.consequence = "Controllers that still make these requests get 403 after the upgrade.";
      c.details = lost;
      out.push_back(std::move(c));
    }
  }
}

}  // namespace footprint
