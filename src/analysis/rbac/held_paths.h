// How the RBAC checks report the holders of the escalation paths (models/escalation_paths.h,
// Context::escalations): per subject, one finding for a check's paths, and what a holder of the
// write-bindings path may bind.
#pragma once

#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/finding.h"
#include "analysis/models/escalation_paths.h"
#include "analysis/models/identity_chains.h"
#include "analysis/models/rights.h"

namespace footprint {

struct Context;

// The paths `check` reports, grouped per subject in the order the subjects first hold one.
std::vector<std::vector<const HeldEscalation*>> held_by_subject(const Context& ctx,
                                                                std::string_view check);

// Who holds the path `id`, one subject each, in the order of Context::escalations: for the checks
// that rate a path with logic of their own.
std::vector<const SubjectRights*> holders_of(const Context& ctx, std::string_view id);

// One finding per subject for the paths of `check` that have no logic of their own: severity is
// the worst path's, the message lists each path's requests, scope and consequence.
void report_held_paths(const Context& ctx, Findings& out, std::string_view check);
// That finding for one subject's paths (one group of held_by_subject()).
void report_held_group(const Context& ctx, Findings& out,
                       std::span<const HeldEscalation* const> group);
// Check::run of every check whose paths have no logic of their own: report_held_paths() for the
// check `out` collects for.
void run_held_paths(const Context& ctx, Findings& out);

// What a subject that holds the write-bindings path may bind, as rbac-binding-write rates it.
struct BindingReach {
  bool cluster_bindings = false;  // it writes ClusterRoleBindings
  bool every_namespace = false;   // its binding writes hold cluster-wide
  // Where it binds with the widest reach: "" cluster-wide, else kube-system, else its first
  // namespace.
  std::string ns;
  // The strongest built-in ClusterRole (cluster-admin, admin, edit, view) the API server lets it
  // bind there; empty when none.
  std::string_view role;
  Severity severity = Severity::kInfo;
};
BindingReach binding_reach(const Context& ctx, const SubjectRights& writes);
// binding_reach() of `subject`'s binding writes, or nothing when it holds none.
std::optional<BindingReach> binding_reach_of(const Context& ctx, const Subject& subject);

// Whether `subject`, through bound rule `b`, may rewrite every ClusterRole: `b` is bound
// cluster-wide and grants escalate on clusterroles for any name, and the subject may update or
// patch them. EscalationAllowed (pkg/registry/rbac/escalation_check.go) then lets an update
// write rules the writer does not hold, so it may write every right into the ClusterRole bound
// to it: cluster-admin without writing a binding.
bool rewrites_clusterroles(const Context& ctx, const BoundRule& b, const Subject& subject);
// The first bound rule through which `subject` may do that, or null.
const BoundRule* clusterrole_rewrite(const Context& ctx, const Subject& subject);

// The bundle's roles that nothing binds, directly or through an aggregated role that includes
// them, and that are not in `reported`: whoever binds them later gets their rules. Both checks
// that report such roles (info) ask this.
std::vector<const RbacRole*> unbound_roles(const Context& ctx,
                                           const std::set<const RbacRole*>& reported);

// A path an unbound role would give: the rule that takes its last step there, and the requests.
struct UnboundHold {
  const EscalationPath* path;
  const PolicyRule* rule;
  std::vector<Request> requests;
};
// The paths of `check` that `role` gives whoever a binding of it names, as held_escalations()
// finds them for a ClusterRoleBinding of a ClusterRole, or a RoleBinding of a Role in its
// namespace.
std::vector<UnboundHold> held_if_bound(const Context& ctx, const RbacRole& role,
                                       std::string_view check);

// One way the holder of an escalation path acts as someone else, or makes itself so, and when
// that is cluster-admin. Adding an edge is one entry of identity_edges().
struct IdentityEdge {
  std::string_view path;  // the escalation path that is the edge
  // How `held` reaches cluster-admin along the edge, in words ("a token for ..."), or empty.
  std::string (*to_cluster_admin)(const Context& ctx, const HeldEscalation& held);
  // rbac-binding-write names this takeover with its own when those binding writes are critical:
  // one root cause, one critical.
  bool named_by_binding_writes = false;
};
std::span<const IdentityEdge> identity_edges();

// The check that reports `chain` (Context::identity_chains): the one whose finding for its subject
// already names the chain's first hop, which the chain then raises to critical, or
// rbac-identity-chain when no finding does. One root cause, one finding.
std::string_view chain_check(const Context& ctx, const IdentityChain& chain);
// The chain of `subject` that `check` reports, or null.
const IdentityChain* chain_for(const Context& ctx, const Subject& subject, std::string_view check);
// " That is cluster-admin: it may ... → ..., which ...: cluster-admin.", for a finding's message.
std::string chain_sentence(const IdentityChain& chain);

}  // namespace footprint
