// The YAML of `footprint can-install --print-role`: the least grant an installer needs
// (analysis/commands/install_rights.h) as a ClusterRole and Roles, each bound to the installer,
// after the Namespaces the bundle creates, which a cluster admin creates first. Comments say the
// order to apply it in, what each rule is for, and what footprint's own RBAC checks make of it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/commands/install_rights.h"
#include "analysis/finding.h"

namespace footprint {

struct InstallerRoleOptions {
  std::string name = "footprint-installer";  // names every role and binding
  // The Helm release and its namespace, for the ownership metadata with which Helm adopts the
  // Namespaces created first (pkg/action/validate.go, checkOwnership); release empty: unknown.
  std::string release;
  std::string release_namespace;
  // The RBAC checks' findings on the printed objects, when footprint has audited them.
  const std::vector<Finding>* rated = nullptr;
};

// `who` is the subject the roles are bound to (a ServiceAccount for
// system:serviceaccount:NS:NAME, else a User).
std::string render_installer_role(const InstallerGrant& grant, const Identity& who,
                                  const InstallerRoleOptions& options);

}  // namespace footprint
