// The privilege-escalation and denial-of-service paths of Kubernetes' "Role Based Access Control
// Good Practices" (concepts/security/rbac-good-practices), as one table: the requests that grant
// each path, as the RBAC engine is asked them, its severity by scope, what it leads to, the fix,
// and the check that reports it. The Context computes who holds each path once
// (Context::escalations); the RBAC checks report from there, one finding per subject, through
// rbac/held_paths.h.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/finding.h"
#include "analysis/models/rights.h"

namespace footprint {

// A request as the authorizer sees it. `name` is set where the API server asks about one named
// object (the signers a CSR approval names); empty asks for any object.
struct PathRequest {
  std::string_view verb;
  std::string_view group;
  std::string_view resource;
  std::string_view subresource;
  std::string_view name;
};

struct EscalationPath {
  std::string_view id;  // stable, kebab-case: "create-persistentvolumes"
  // The item of the good-practices page it covers ("Persistent volume creation"), or empty for a
  // path the page does not list.
  std::string_view docs_item;
  std::string_view check;  // the check ID that reports it
  // Every step is needed; a step is taken by any one of its requests.
  std::vector<std::vector<PathRequest>> steps;
  Severity cluster_wide;  // through a ClusterRoleBinding, or in kube-system
  Severity in_namespace;  // in another team's namespace
  // In the operator's own namespace the severity is at most low; a denial-of-service path is not
  // reported there (an operator deleting or rewriting its own objects is its job).
  bool own_namespace_reported;
  std::string_view consequence;  // completes "… may <requests>: <consequence>"
  std::string_view fix;
  std::string_view summary;  // completes "<subject> may <summary>", for the report's first screen
  // Set when a rule limited by resourceNames holds the path too, for the objects it names (create
  // names none), at most at this severity: the operator's own configurations or CRDs.
  std::optional<Severity> named_objects = std::nullopt;
};

// The table, in the order of the good-practices page, then one path for each right of the rights
// catalogue (rights_catalog.h) that rbac-shared-object-write reports.
const std::vector<EscalationPath>& escalation_paths();
const EscalationPath* find_escalation_path(std::string_view id);
// "create persistentvolumes + update/patch certificatesigningrequests/approval": what a path
// asks, steps joined by "+".
std::string requests_text(const EscalationPath& path);

// Items of the good-practices page that no check covers, with the reason.
struct UncoveredPractice {
  std::string_view docs_item;
  std::string_view reason;
};
std::span<const UncoveredPractice> uncovered_practices();

// One subject's hold on one path: the bound rules and the requests that give it.
struct HeldEscalation {
  const EscalationPath* path;
  SubjectRights rights;
  Severity severity;  // path->cluster_wide or in_namespace, from where the rights hold
};

// For Context::escalations: every path held by every subject of the bundle's bindings (`bound`),
// rated by where it holds among `namespaces`. Rules over every resource of every group are
// rbac-wildcard's and are left out, as in rights_by_subject().
std::vector<HeldEscalation> held_escalations(const ResourceTable& resources,
                                             std::span<const BoundRule> bound,
                                             std::span<const ClusterNamespace> namespaces);

}  // namespace footprint
