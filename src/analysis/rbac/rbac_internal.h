// Helpers the rbac_*.cc checks share. Grants are judged the way the authorizer judges requests:
// a rule of a Role or ClusterRole means nothing until a binding grants it, and what it grants
// depends on the binding (model/rbac.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/check.h"
#include "analysis/rbac/rbac.h"
#include "model/rbac.h"
#include "util/strings.h"

namespace footprint {

std::string bracketed(const std::vector<std::string>& items);
// {"get secrets", "list secrets", "create pods"} -> "get/list secrets, create pods".
std::string merge_verbs(const std::vector<std::string>& verb_resource);
// "secrets", "deployments.apps", "pods/exec".
std::string group_resource(std::string_view group, std::string_view resource,
                           std::string_view subresource = "");
// "ServiceAccount a/b, Group c", or "no subjects".
std::string subjects_of(const RbacBinding& binding);
std::string where(const std::string& ns);  // "across all namespaces" or "in namespace ns"

// The bundle's bindings that refer to `role`.
std::vector<const RbacBinding*> bindings_of(const RbacPolicy& policy, const RbacRole& role);
// Whether an aggregated ClusterRole (of the bundle, or built in like edit) includes `role`'s
// rules: then they take effect through that role, and `role` is not "unbound".
bool aggregated_into_another(const RbacPolicy& policy, const RbacRole& role);

Request resource_request(std::string_view verb, std::string_view group, std::string_view resource,
                         std::string_view ns, std::string_view subresource = "",
                         std::string_view name = "");

// (group, resource) pairs a rule names literally; wildcards are left to other checks.
std::vector<std::pair<std::string, std::string>> literal_targets(const PolicyRule& rule);

// A rule as one of the bundle's bindings grants it.
struct BoundRule {
  const RbacBinding* binding;
  const RbacRole* role;
  const PolicyRule* rule;
};

// Every rule of every role the bundle's bindings refer to, binding by binding.
std::vector<BoundRule> bound_rules(const RbacPolicy& policy);

// Whether `bound` allows `verb` on any object of group/resource[/subresource], and where:
// a ClusterRoleBinding everywhere; a RoleBinding only in its namespace, and never for
// cluster-scoped resources, whose requests carry no namespace (the authorizer's
// appliesTo/RoleBinding scoping). Unknown resources are taken as namespaced.
// With `named`, a rule limited by resourceNames counts too (it grants the request for the
// objects it names); without, only a grant for every object counts.
enum class Names : uint8_t { kAny, kSome };
bool grants(const ResourceTable& resources, const BoundRule& bound, std::string_view verb,
            std::string_view group, std::string_view resource, std::string_view subresource = "",
            Names names = Names::kAny);

// The namespace a bound rule applies in; empty for cluster-wide.
inline std::string scope_of(const BoundRule& bound) {
  return bound.binding->cluster ? "" : bound.binding->namespace_;
}

// Where a finding about a rule points: the rule inside the role when the role is in the bundle,
// else the roleRef of the binding that uses a built-in role.
const Object& object_of(const BoundRule& bound);
yaml::Node node_of(const BoundRule& bound);

// Findings about what a role grants are grouped per role (the thing the user changes), or per
// binding when the role is built in.
struct RoleGrants {
  const RbacRole* role = nullptr;
  std::vector<BoundRule> grants;  // in binding order
};
std::vector<RoleGrants> by_role(const std::vector<BoundRule>& bound);

// "ServiceAccount ops/op through ClusterRoleBinding x; Group g through RoleBinding ns/y".
std::string holders(const std::vector<BoundRule>& grants);
// Every subject of the bindings, for Finding::affects.
std::vector<std::string> subject_list(const std::vector<BoundRule>& grants);

// A group no other team's resources live in: the install's own API.
bool own_group(const Context& ctx, std::string_view group);

}  // namespace footprint
