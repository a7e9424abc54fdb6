// Who can install a bundle: the requests Helm makes to install it and the API server's
// escalation checks on the roles and bindings it creates, each asked of the RBAC engine for one
// subject (`footprint can-install`), and the least grant that lets a subject install it
// (`--print-role`).
//
// The subject's rights are those it holds before the install: the built-in policy and the
// cluster snapshot's. A binding the bundle creates grants the installer nothing: Helm creates the
// objects one kind after another without waiting, and the authorizer sees a new binding only when
// its informer has caught up. The bundle's roles do exist when its bindings are created (Helm's
// InstallOrder, pkg/release/util/kind_sorter.go, puts ClusterRole and Role before the bindings),
// so a binding's role is resolved against them.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/rbac.h"

namespace footprint {

struct Context;

// One right the install needs: a request (without a name), the names it is asked for when the
// verb takes one, and what needs it.
struct InstallNeed {
  Request request;
  std::vector<std::string> names;      // get and delete name their object; empty otherwise
  std::vector<std::string> needed_by;  // "ClusterRole x", "Helm's release record", ...
  // How many of needed_by are groups of CRDs the install uses and does not ship (they come
  // first): a cluster admin may apply those before the install.
  size_t crd_prerequisites = 0;
  bool allowed = false;  // for every name
};

// A Role, ClusterRole or binding the API server refuses the subject
// (pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/policybased/storage.go).
struct EscalationDenial {
  const Object* object = nullptr;
  std::string scope;  // the namespace the rights are compared in; empty: cluster-wide
  // The role's rights the subject does not hold there, compacted: "get, list secrets".
  std::vector<std::string> lacking;
  // The verb that would let it through instead: escalate on the role's resource (an unnamed
  // request, since a create names no object), or bind on the referenced role by name.
  Request alternative;
  bool aggregation = false;   // an aggregationRule: only every right (as cluster-admin) covers it
  std::string role;           // for a binding: the role it refers to, "ClusterRole view"
  bool role_missing = false;  // the binding's role exists nowhere: only bind lets it through
};

struct InstallRights {
  // In system:masters: EscalationAllowed (pkg/registry/rbac/escalation_check.go) skips every
  // escalation check, and the built-in cluster-admin binding allows every request.
  bool superuser = false;
  std::vector<InstallNeed> needs;  // in install order, each request once
  std::vector<EscalationDenial> denials;

  bool allowed() const;
};

// The requests installing the bundle makes, for any subject: create and get of every object
// (Helm reads each one first and stops on any answer but NotFound), or get and patch of one the
// cluster snapshot already holds (Helm adopts it), create and delete of the install hooks (the
// default delete policy before-hook-creation), Helm's release Secrets, and creating the CRDs
// the install needs and does not ship (crd-not-installed, crd-missing).
std::vector<InstallNeed> install_needs(const Context& ctx, std::string_view release_namespace);

InstallRights install_rights(const Context& ctx, const Identity& who,
                             std::string_view release_namespace);

// A namespace admin: the built-in ClusterRole admin bound in the release namespace and in every
// namespace the install's objects land in. For compare's "Who can install it?".
inline constexpr std::string_view kNamespaceAdmin = "namespace-admin";
struct NamespaceAdminRights {
  std::vector<std::string> namespaces;
  InstallRights rights;
};
NamespaceAdminRights namespace_admin_rights(const Context& ctx, std::string_view release_namespace);

// A rule of the least grant, with what needs it ("Deployment ops/app", "Helm's release record",
// "Role ops/reader, whose rights its creator must hold ...").
struct GrantRule {
  PolicyRule rule;
  std::vector<std::string> needed_by;
};

// The least grant that lets a subject install the bundle: the needs as rules, every right of the
// bundle's roles at their scope (so that its roles and the bindings to them pass the escalation
// check), and bind on each other role a binding refers to. A namespace the bundle creates is
// created first by a cluster admin, so that the rights in it are a Role bound there, never a
// cluster-wide grant; Helm then adopts it (get and patch by name).
struct InstallerGrant {
  std::vector<std::string> created_namespaces;  // in install order
  std::vector<GrantRule> cluster_rules;
  std::map<std::string, std::vector<GrantRule>> namespace_rules;
  std::vector<std::string> notes;  // what the grant leaves to a cluster admin, or widens
};

InstallerGrant installer_grant(const Context& ctx, std::string_view release_namespace);

// The rights of `rules` that `who` does not hold in `scope` (empty: cluster-wide), as the API
// server's ConfirmNoEscalation decides with Covers (pkg/registry/rbac/validation/rule.go,
// component-helpers/auth/rbac/validation/policy_comparator.go): every rule broken down to one
// verb, group, resource and name, each asked of the authorizer in that scope.
std::vector<Request> uncovered_rights(const RbacPolicy& policy, const Identity& who,
                                      std::string_view scope, const std::vector<PolicyRule>& rules);

}  // namespace footprint
