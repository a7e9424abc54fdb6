// Helpers the rbac_*.cc checks share. Grants are judged the way the authorizer judges requests:
// a rule of a Role or ClusterRole means nothing until a binding grants it, and what it grants
// depends on the binding (model/rbac.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/check.h"
#include "analysis/models/rbac_models.h"
#include "analysis/models/rights.h"
#include "model/rbac.h"
#include "util/strings.h"

namespace footprint {

std::string bracketed(const std::vector<std::string>& items);
// "ServiceAccount a/b, Group c", or "no subjects".
std::string subjects_of(const RbacBinding& binding);
std::string where(const std::string& ns);  // "across all namespaces" or "in namespace ns"

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

}  // namespace footprint
