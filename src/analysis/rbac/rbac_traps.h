// What the RBAC trap checks (rbac_traps.cc, rbac_list_watch.cc) share.
#pragma once

#include <string>

#include "model/rbac.h"

namespace footprint {

// "Role a/b (through RoleBinding a/c)": where an allowed decision's grant comes from.
std::string covered_text(const Decision& d);

}  // namespace footprint
