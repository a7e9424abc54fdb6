// Bundles that redefine the cluster's own RBAC: cluster-admin, admin, edit, view and the
// system: roles and bindings of the bootstrap policy. Applying them replaces the cluster's
// policy for every user.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"
#include "analysis/rbac/rbac_internal.h"

namespace footprint {

namespace {

bool same_rule(const PolicyRule& a, const PolicyRule& b) {
  return a == b;
}

// "adds 2 rules (...) and drops 1 (...)", comparing rule by rule.
std::string rule_changes(const std::vector<PolicyRule>& bundle,
                         const std::vector<PolicyRule>& builtin) {
  auto text = [](const PolicyRule& r) {
    std::vector<std::string> what = r.resources;
    what.insert(what.end(), r.non_resource_urls.begin(), r.non_resource_urls.end());
    return fmt::format("{} {}", fmt::join(r.verbs, "/"), fmt::join(what, ","));
  };
  std::vector<std::string> added;
  std::vector<std::string> dropped;
  for (const PolicyRule& r : bundle) {
    if (std::none_of(builtin.begin(), builtin.end(),
                     [&](const PolicyRule& b) { return same_rule(r, b); }))
      added.push_back(text(r));
  }
  for (const PolicyRule& r : builtin) {
    if (std::none_of(bundle.begin(), bundle.end(),
                     [&](const PolicyRule& b) { return same_rule(r, b); }))
      dropped.push_back(text(r));
  }
  if (added.empty() && dropped.empty()) return "the same rules as the built-in one";
  std::vector<std::string> parts;
  if (!added.empty()) parts.push_back(fmt::format("adds {} ({})", added.size(), some_of(added, 2)));
  if (!dropped.empty())
    parts.push_back(fmt::format("drops {} ({})", dropped.size(), some_of(dropped, 2)));
  return fmt::format("{} compared with the built-in one", fmt::join(parts, " and "));
}

std::string subject_names(const yaml::Node& subjects) {
  std::vector<std::string> names;
  for (size_t i = 0; i < subjects.size(); ++i) {
    names.push_back(fmt::format("{} {}", subjects.item(i).get("kind").str(),
                                subjects.item(i).get("name").str()));
  }
  return names.empty() ? "no subjects" : some_of(names, 3);
}

void run_builtin_replaced(const Context& ctx, Findings& out) {
  const Bundle& builtin = builtin_rbac_bundle();
  for (const Object& obj : ctx.bundle.objects) {
    if (obj.replaced() || obj.group != "rbac.authorization.k8s.io") continue;
    const Object* original = builtin.find(obj.group, obj.kind, obj.namespace_, obj.name);
    if (!original) continue;
    bool role = obj.kind == "ClusterRole" || obj.kind == "Role";
    std::string change = role ? rule_changes(read_rules(obj.node.get("rules")),
                                             read_rules(original->node.get("rules")))
                              : fmt::format("binds {} to {}, where the built-in one binds {} to {}",
                                            obj.node.at({"roleRef", "name"}).str(),
                                            subject_names(obj.node.get("subjects")),
                                            original->node.at({"roleRef", "name"}).str(),
                                            subject_names(original->node.get("subjects")));
    bool aggregated = role && original->node.get("aggregationRule").is_mapping();
    Finding& f = out.add(
        obj, Severity::kCritical,
        fmt::format("{} replaces the cluster's own {} of the same name when applied: it {}. "
                    "Everyone that policy serves{} gets this version instead. The API server "
                    "reconciles its bootstrap policy at each restart, adding back what is missing "
                    "(unless the annotation rbac.authorization.kubernetes.io/autoupdate is "
                    "\"false\") but never removing what was added.",
                    obj.display(), obj.kind, change,
                    aggregated ? ", including every role aggregated into it," : ""),
        fmt::format("Rename the {}; extend built-in roles with a ClusterRole labelled "
                    "rbac.authorization.k8s.io/aggregate-to-<role> instead of replacing them, and "
                    "bind the operator's own roles.",
                    obj.kind),
        obj.node.get("metadata"));
    f.summary = fmt::format("Replaces the cluster's own {} {}", obj.kind, obj.name);
  }
}

}  // namespace

extern const Check kRbacBuiltinReplaced{
    .id = "rbac-builtin-replaced",
    .min_severity = Severity::kCritical,
    .max_severity = Severity::kCritical,
    .impact = Impact::kOtherTeams,
    .area = Area::kRbac,
    .description =
        "The bundle redefines a Role, ClusterRole or binding of the cluster's own bootstrap "
        "policy.",
    .run = run_builtin_replaced,
    .rationale =
        "A ClusterRole or ClusterRoleBinding named cluster-admin, admin, edit, view or system:... "
        "(or a bootstrap Role or RoleBinding in kube-system) replaces the cluster's own policy on "
        "apply, for every user and controller it serves. Critical: it changes what everyone may "
        "do.",
    .fix = "Give the object another name, and extend built-in roles through aggregation labels.",
};

}  // namespace footprint
