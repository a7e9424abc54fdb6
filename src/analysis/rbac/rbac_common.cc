// The helpers of rbac_internal.h.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/rbac/rbac_internal.h"
#include "util/strings.h"

namespace footprint {

std::string bracketed(const std::vector<std::string>& items) {
  return fmt::format("[{}]", fmt::join(items, ", "));
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

std::vector<RoleGrants> by_role(const std::vector<BoundRule>& bound) {
  std::vector<RoleGrants> out;
  // A built-in role is reported at each binding of the bundle that uses it: keyed by the role,
  // and by the binding for a built-in role.
  std::map<std::pair<const RbacRole*, const RbacBinding*>, size_t> index;  // into out
  for (const BoundRule& b : bound) {
    auto [at, added] =
        index.try_emplace({b.role, b.role->object ? nullptr : b.binding}, out.size());
    if (added) out.push_back(RoleGrants{b.role, {}});
    out[at->second].grants.push_back(b);
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

}  // namespace footprint
