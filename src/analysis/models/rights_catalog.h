// The rights catalogue: for every resource and subresource a Kubernetes 1.34 API server serves
// (model/builtin_resources.tsv), and for each class of verbs (read, create, modify, delete),
// what holding that right lets a subject do to other teams and to the cluster, with its severity
// where it holds: cluster-wide (a ClusterRoleBinding, or a RoleBinding in kube-system), in
// another team's namespace, or in the operator's own. A harmless entry says why. The Permissions
// table marks every grant from here; the consequences no older check reports are the escalation
// paths of rbac-shared-object-write (escalation_paths.h).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "analysis/finding.h"

namespace footprint {

enum class VerbClass : uint8_t { kRead, kCreate, kModify, kDelete };

// get/list/watch; create; update/patch; delete/deletecollection.
std::span<const std::string_view> verbs_of(VerbClass verb_class);
std::string_view verb_class_name(VerbClass verb_class);  // "read", "create", "modify", "delete"

// What one class of verbs on one resource lets its holder do.
struct RightConsequence {
  std::string_view id;  // kebab-case, stable: "steer-nodes"
  // The Permissions table's mark ("taints nodes"); empty for a harmless right.
  // The initialisers below let table rows leave fields out without GCC's
  // -Wmissing-field-initializers.
  std::string_view mark = {};  // NOLINT(readability-redundant-member-init)
  // What the holder may do to others ("… may <verbs> <resources>: <text>"), or why it is harmless.
  std::string_view text;
  // Severity where the right holds; nothing where it is no one else's concern. For a
  // cluster-scoped resource only cluster_wide applies.
  std::optional<Severity> cluster_wide = std::nullopt;  // ClusterRoleBinding or kube-system
  std::optional<Severity> other_team = std::nullopt;    // another team's namespace
  std::optional<Severity> own = std::nullopt;           // the operator's own namespace
  // The check that reports this right: an older one for the escalation paths of the RBAC good
  // practices, rbac-shared-object-write for the rest; empty where only the Permissions table
  // shows it.
  std::string_view check = {};  // NOLINT(readability-redundant-member-init)
  // For rbac-shared-object-write's findings: the fix, and what completes "<subject> may …".
  std::string_view fix = {};      // NOLINT(readability-redundant-member-init)
  std::string_view summary = {};  // NOLINT(readability-redundant-member-init)
  // A rule limited by resourceNames (the operator's own objects) holds it at most at this severity;
  // nothing: such a rule holds it as any other.
  std::optional<Severity> named_objects = std::nullopt;

  bool harmless() const { return mark.empty(); }
};

// One resource or subresource of the API and what each verb class on it does.
struct CatalogRow {
  std::string_view group;  // "" for the core group
  std::string_view resource;
  std::string_view subresource;  // empty for the resource itself
  const RightConsequence* read;
  const RightConsequence* create;
  const RightConsequence* modify;
  const RightConsequence* remove;

  const RightConsequence& of(VerbClass verb_class) const;
};

std::span<const CatalogRow> rights_catalog();
const CatalogRow* find_catalog_row(std::string_view group, std::string_view resource,
                                   std::string_view subresource = "");

}  // namespace footprint
