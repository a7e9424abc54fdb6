// The helpers of rbac_internal.h.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"
#include "analysis/rbac/rbac_internal.h"
#include "util/strings.h"

namespace footprint {

std::string bracketed(const std::vector<std::string>& items) {
  return fmt::format("[{}]", fmt::join(items, ", "));
}

std::string merge_verbs(const std::vector<std::string>& verb_resource) {
  std::vector<std::pair<std::string, std::vector<std::string>>> by_resource;
  for (const std::string& vr : verb_resource) {
    size_t space = vr.find(' ');
    std::string verb = vr.substr(0, space);
    std::string resource = space == std::string::npos ? "" : vr.substr(space + 1);
    auto it = std::find_if(by_resource.begin(), by_resource.end(),
                           [&](const auto& e) { return e.first == resource; });
    if (it == by_resource.end()) it = by_resource.insert(by_resource.end(), {resource, {}});
    if (!contains(it->second, verb)) it->second.push_back(verb);
  }
  std::vector<std::string> parts;
  for (const auto& [resource, verbs] : by_resource)
    parts.push_back(fmt::format("{} {}", fmt::join(verbs, "/"), resource));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string group_resource(std::string_view group, std::string_view resource,
                           std::string_view subresource) {
  std::string out(resource);
  if (!group.empty()) out += fmt::format(".{}", group);
  if (!subresource.empty()) out += fmt::format("/{}", subresource);
  return out;
}

std::string subjects_of(const RbacBinding& b) {
  std::vector<std::string> names;
  for (const Subject& s : b.subjects)
    names.push_back(s.display());
  return names.empty() ? std::string("no subjects") : fmt::format("{}", fmt::join(names, ", "));
}

std::string where(const std::string& ns) {
  return ns.empty() ? std::string("across all namespaces") : "in namespace " + ns;
}

std::vector<const RbacBinding*> bindings_of(const RbacPolicy& policy, const RbacRole& role) {
  std::vector<const RbacBinding*> out;
  for (const RbacBinding& b : policy.bindings()) {
    if (!b.builtin() && b.role == &role) out.push_back(&b);
  }
  return out;
}

bool aggregated_into_another(const RbacPolicy& policy, const RbacRole& role) {
  return std::any_of(policy.roles().begin(), policy.roles().end(), [&](const RbacRole& r) {
    return std::find(r.aggregated_from.begin(), r.aggregated_from.end(), &role) !=
           r.aggregated_from.end();
  });
}

Request resource_request(std::string_view verb, std::string_view group, std::string_view resource,
                         std::string_view ns, std::string_view subresource, std::string_view name) {
  Request r;
  r.verb = verb;
  r.api_group = group;
  r.resource = resource;
  r.subresource = subresource;
  r.name = name;
  r.namespace_ = ns;
  return r;
}

std::vector<std::pair<std::string, std::string>> literal_targets(const PolicyRule& rule) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& g : rule.api_groups) {
    if (g == "*") continue;
    for (const std::string& r : rule.resources) {
      if (r.find('*') != std::string::npos) continue;
      out.emplace_back(g, r);
    }
  }
  return out;
}

std::vector<BoundRule> bound_rules(const RbacPolicy& policy) {
  std::vector<BoundRule> out;
  for (const RbacBinding& b : policy.bindings()) {
    if (b.builtin() || !b.role) continue;
    for (const PolicyRule& rule : b.role->rules)
      out.push_back(BoundRule{&b, b.role, &rule});
  }
  return out;
}

bool grants(const ResourceTable& resources, const BoundRule& bound, std::string_view verb,
            std::string_view group, std::string_view resource, std::string_view subresource,
            Names names) {
  const ResourceInfo* info = resources.find_resource(group, resource);
  bool cluster_scoped = info && info->scope == Scope::kCluster;
  if (cluster_scoped && !bound.binding->cluster) return false;
  // create and deletecollection name no object, so resourceNames never allow them.
  std::string_view name;
  if (names == Names::kSome && !bound.rule->resource_names.empty() && verb != "create" &&
      verb != "deletecollection") {
    name = bound.rule->resource_names.front();
  }
  return rule_allows_resource(*bound.rule, verb, group, resource, subresource, name);
}

const Object& object_of(const BoundRule& bound) {
  return bound.role->object ? *bound.role->object : *bound.binding->object;
}

yaml::Node node_of(const BoundRule& bound) {
  return bound.role->object ? bound.rule->node : bound.binding->object->node.get("roleRef");
}

std::vector<RoleGrants> by_role(const std::vector<BoundRule>& bound) {
  std::vector<RoleGrants> out;
  for (const BoundRule& b : bound) {
    // A built-in role is reported at each binding of the bundle that uses it.
    auto same = [&](const RoleGrants& g) {
      if (g.role != b.role) return false;
      return b.role->object || g.grants.front().binding == b.binding;
    };
    auto it = std::find_if(out.begin(), out.end(), same);
    if (it == out.end()) it = out.insert(out.end(), RoleGrants{b.role, {}});
    it->grants.push_back(b);
  }
  return out;
}

std::string holders(const std::vector<BoundRule>& grants) {
  std::vector<std::string> parts;
  for (const BoundRule& g : grants) {
    std::string part = fmt::format("{} through {}", subjects_of(*g.binding), g.binding->display());
    if (std::find(parts.begin(), parts.end(), part) == parts.end()) parts.push_back(part);
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::vector<std::string> subject_list(const std::vector<BoundRule>& grants) {
  std::vector<std::string> out;
  for (const BoundRule& g : grants) {
    for (const Subject& s : g.binding->subjects) {
      std::string name = s.display();
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(std::move(name));
    }
  }
  return out;
}

bool own_group(const Context& ctx, std::string_view group) {
  return ctx.own.owns(group);
}

}  // namespace footprint
