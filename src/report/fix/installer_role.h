// The YAML of `footprint can-install --print-role`: the least grant an installer needs
// (analysis/commands/install_rights.h) as a ClusterRole and Roles, each bound to the installer.
#pragma once

#include <string>
#include <string_view>

#include "analysis/commands/install_rights.h"

namespace footprint {

// `name` names every role and binding; `who` is the subject they are bound to (a
// ServiceAccount for system:serviceaccount:NS:NAME, else a User).
std::string render_installer_role(const InstallerGrant& grant, const Identity& who,
                                  std::string_view name);

}  // namespace footprint
