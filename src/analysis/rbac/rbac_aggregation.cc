// rbac-aggregates-to-default-roles: ClusterRoles that extend the built-in admin, edit and view
// roles through aggregation labels, and who in the cluster gains what.
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <unordered_set>

#include "analysis/context.h"
#include "analysis/models/rights.h"

namespace footprint {

namespace {

constexpr std::string_view kAggregateLabel = "rbac.authorization.k8s.io/aggregate-to-";

// True when `role` includes `part` through aggregation, directly or through roles that
// aggregate it in turn (the built-in edit role is itself aggregated into admin).
bool aggregates(const RbacRole& role, const RbacRole* part) {
  std::vector<const RbacRole*> todo = role.aggregated_from;
  std::set<const RbacRole*> seen;
  while (!todo.empty()) {
    const RbacRole* r = todo.back();
    todo.pop_back();
    if (r == part) return true;
    if (!seen.insert(r).second) continue;
    todo.insert(todo.end(), r->aggregated_from.begin(), r->aggregated_from.end());
  }
  return false;
}

// With --cluster: the subjects of the cluster's bindings whose role aggregates one of `roles`,
// and where: "Group team-a-devs in team-a (RoleBinding team-a/developers-edit, role edit)".
std::vector<std::string> cluster_gainers(const Context& ctx,
                                         const std::vector<const RbacRole*>& roles) {
  std::vector<std::string> out;
  if (!ctx.cluster) return out;
  std::unordered_set<std::string> seen;  // a cluster's bindings name thousands of subjects
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (!b.in_cluster || !b.role) continue;
    if (std::none_of(roles.begin(), roles.end(),
                     [&](const RbacRole* r) { return aggregates(*b.role, r); }))
      continue;
    for (const Subject& subject : b.subjects) {
      std::string text = fmt::format("{} {} ({}, role {})", subject.display(),
                                     b.cluster ? "in every namespace" : "in " + b.namespace_,
                                     b.display(), b.role->name);
      if (seen.insert(text).second) out.push_back(std::move(text));
    }
  }
  return out;
}

// True when the authorizer never grants `resource` (a subresource has its parent's scope) through
// a RoleBinding: it reads RoleBindings only for a request with a namespace (VisitRulesFor,
// pkg/registry/rbac/validation/rule.go), and a request for a cluster-scoped resource has none.
// A resource not known in every group of the rule, or "*", counts as namespaced.
bool cluster_scoped_resource(const Context& ctx, const PolicyRule& rule,
                             std::string_view resource) {
  std::string_view base = resource.substr(0, resource.find('/'));
  if (rule.api_groups.empty() || base == "*") return false;
  return std::all_of(rule.api_groups.begin(), rule.api_groups.end(), [&](const std::string& g) {
    const ResourceInfo* info = ctx.bundle.resources.find_resource(g, base);
    return info && info->scope == Scope::kCluster;
  });
}

// A rule split, resource by resource, into what a RoleBinding of the role grants and what only
// a ClusterRoleBinding does (cluster-scoped resources and non-resource URLs, whose requests carry
// no namespace either).
struct ScopedRule {
  PolicyRule namespaced;
  PolicyRule cluster;
};

ScopedRule split_by_scope(const Context& ctx, const PolicyRule& rule) {
  ScopedRule out{rule, rule};
  out.namespaced.resources.clear();
  out.namespaced.non_resource_urls.clear();
  out.cluster.resources.clear();
  for (const std::string& resource : rule.resources) {
    (cluster_scoped_resource(ctx, rule, resource) ? out.cluster : out.namespaced)
        .resources.push_back(resource);
  }
  return out;
}

// "get/list/watch clusterqueues, cohorts": what a rule grants, in one phrase.
std::string grant_text(const PolicyRule& rule) {
  std::vector<std::string> what = rule.resources;
  what.insert(what.end(), rule.non_resource_urls.begin(), rule.non_resource_urls.end());
  return fmt::format("{} {}", fmt::join(rule.verbs, "/"), fmt::join(what, ", "));
}

// Everyone bound to the built-in admin, edit or view role in any namespace gains what the
// labelled roles grant: risky rights (secrets, exec, escalation) make that high; write access to
// built-in or other projects' resources medium; read access, or the install's own API, low.
void run_aggregates_to_default_roles(const Context& ctx, Findings& out) {
  for (const char* target : {"admin", "edit", "view"}) {
    std::string label = fmt::format("{}{}", kAggregateLabel, target);
    std::vector<const RbacRole*> roles;
    std::vector<std::string> granted;
    // Grants on cluster-scoped resources: a RoleBinding of admin, edit or view grants
    // nothing for them (a Role's rules apply to requests in its namespace, and requests for
    // cluster-scoped resources carry none), so they reach only ClusterRoleBindings of the role.
    std::vector<std::string> cluster_scoped;
    std::set<std::string> risks;
    Severity severity = Severity::kLow;
    for (const RbacRole& role : ctx.rbac.roles()) {
      if (role.builtin() || !role.cluster) continue;
      auto it = role.labels.find(label);
      if (it == role.labels.end() || it->second != "true") continue;
      roles.push_back(&role);
      for (const PolicyRule& whole : role.rules) {
        ScopedRule parts = split_by_scope(ctx, whole);
        if (!parts.cluster.resources.empty() || !parts.cluster.non_resource_urls.empty())
          add_unique(cluster_scoped, grant_text(parts.cluster));
        const PolicyRule& rule = parts.namespaced;
        if (rule.resources.empty()) continue;
        add_unique(granted, grant_text(rule));
        std::vector<std::string> rule_risk = rule_risks(rule);
        risks.insert(rule_risk.begin(), rule_risk.end());
        bool own = std::all_of(rule.api_groups.begin(), rule.api_groups.end(),
                               [&](const std::string& g) { return ctx.own.owns(g); });
        bool writes = std::any_of(rule.verbs.begin(), rule.verbs.end(), [](const std::string& v) {
          return v != "get" && v != "list" && v != "watch";
        });
        if (!rule_risk.empty()) {
          severity = Severity::kHigh;
        } else if (writes && !own) {
          severity = std::max(severity, Severity::kMedium);
        }
      }
    }
    if (roles.empty()) continue;
    // edit is aggregated into admin, and view into edit: their holders gain these rules too.
    std::string_view holders = target == std::string_view("admin")  ? "admin"
                               : target == std::string_view("edit") ? "edit or admin"
                                                                    : "view, edit or admin";
    std::string cluster_note =
        cluster_scoped.empty()
            ? ""
            : fmt::format(
                  " Its rules on cluster-scoped resources ({}) reach only subjects with a "
                  "ClusterRoleBinding of {}: a RoleBinding grants namespaced resources only.",
                  some_of(cluster_scoped, 3), holders);
    if (granted.empty()) {
      // Nothing namespaced: no namespace admin, editor or viewer gains anything.
      Finding& f = out.add(
          *roles.front()->object, Severity::kLow,
          fmt::format("{} carr{} the label {}=true, but grant{} only cluster-scoped resources "
                      "({}). A RoleBinding of {} grants namespaced resources only, so these "
                      "reach only subjects with a ClusterRoleBinding of {}.",
                      roles.size() == 1 ? roles.front()->display()
                                        : fmt::format("{} ClusterRoles", roles.size()),
                      roles.size() == 1 ? "ies" : "y", label, roles.size() == 1 ? "s" : "",
                      some_of(cluster_scoped, 4), target, holders),
          fmt::format("Remove the aggregate-to-{} label unless cluster-wide holders of {} "
                      "should have these rights.",
                      target, holders),
          roles.front()->object->node.at({"metadata", "labels"}));
      f.key = label;
      f.summary = fmt::format("{} adds cluster-scoped rights to the built-in {} role",
                              roles.front()->display(), target);
      std::vector<std::string> names;
      for (const RbacRole* r : roles)
        names.push_back(r->name);
      f.affects.emplace_back("roles", std::move(names));
      f.affects.emplace_back("cluster-scoped grants", std::move(cluster_scoped));
      continue;
    }
    std::vector<std::string> names;
    for (const RbacRole* r : roles)
      names.push_back(r->name);
    // The built-in view role is aggregated into edit, and edit into admin (the bootstrap
    // policy's aggregate-to-edit and aggregate-to-admin labels): who holds the larger roles
    // gains what the smaller ones gain.
    bool admin = target == std::string_view("admin");
    bool edit = target == std::string_view("edit");
    std::string holders_of = admin  ? "every namespace admin"
                             : edit ? "every namespace editor and admin"
                                    : "every namespace viewer, editor and admin";
    std::string bound_to = admin  ? "the built-in admin role"
                           : edit ? "the built-in edit or admin role"
                                  : "the built-in view, edit or admin role";
    std::vector<std::string> gainers = cluster_gainers(ctx, roles);
    Finding& f = out.add(
        *roles.front()->object, severity,
        fmt::format(
            "{} ({}) carr{} the label {}=true, so {} (everyone bound to {} in any "
            "namespace) gains: {}{}.{}",
            roles.size() == 1 ? "ClusterRole" : fmt::format("{} ClusterRoles", roles.size()),
            some_of(names), roles.size() == 1 ? "ies" : "y", label, holders_of, bound_to,
            some_of(granted, 6), risks.empty() ? "" : fmt::format(" ({})", fmt::join(risks, ", ")),
            gainers.empty()
                ? ""
                : fmt::format(" In this cluster they reach: {}.", some_of(gainers, 4))) +
            cluster_note,
        fmt::format("Remove the aggregate-to-{} label unless everyone bound to {} should have "
                    "these rights; ship the roles for explicit binding instead.",
                    target, bound_to),
        roles.front()->object->node.at({"metadata", "labels"}));
    about_shared(f, label);  // one finding per built-in role the labels extend
    f.summary = fmt::format(
        "{} extend{} the built-in {} role in every namespace",
        roles.size() == 1 ? roles.front()->display() : fmt::format("{} ClusterRoles", roles.size()),
        roles.size() == 1 ? "s" : "", target);
    f.affects.emplace_back("roles", std::move(names));
    f.affects.emplace_back("grants", std::move(granted));
    if (!cluster_scoped.empty())
      f.affects.emplace_back("cluster-scoped grants", std::move(cluster_scoped));
    if (!gainers.empty()) f.affects.emplace_back("gained by", std::move(gainers));
  }
}

}  // namespace

extern const Check kRbacAggregatesToDefaultRoles{
    .id = "rbac-aggregates-to-default-roles",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kHigh,
    .impact = Impact::kOtherTeams,
    .area = Area::kRbac,
    .description = "A ClusterRole aggregates into the built-in admin, edit or view roles.",
    .run = run_aggregates_to_default_roles,
    .rationale =
        "A ClusterRole labelled aggregate-to-admin, -edit or -view adds its rules to the built-in "
        "roles, so everyone bound to them in any namespace gains them. One finding per built-in "
        "role extended. High when the rules are risky (secrets, exec, escalation); medium for "
        "write access beyond the install's own API; low for read access or the install's own API, "
        "which is what aggregation is for. Rules on cluster-scoped resources do not count: a "
        "RoleBinding of those roles grants namespaced resources only, so they reach only "
        "ClusterRoleBindings of the role (low, and said so, when a role grants nothing else).",
    .fix = "Remove the label unless every holder of the built-in role should have these rights.",
};

}  // namespace footprint
