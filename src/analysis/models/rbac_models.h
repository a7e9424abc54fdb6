// RBAC models shared by the rbac-* checks, `footprint fix rbac`, compare and the Permissions
// section: list-watch traps (list_watch_traps.cc), identities, --expect (expectations.cc), each
// subject's permissions (permissions.cc) and the risk marks of a rule (rule_risks.cc).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "load/loader.h"
#include "model/rbac.h"
#include "model/workloads.h"

namespace footprint {

// What the bundle shows about how a trapped subject lists the kind; rbac-resourcenames-list-watch
// grades the trap by it (high, low, medium), and the decision table answers from it.
enum class ListWatchEvidence : uint8_t {
  kNone,      // nothing: a watch by field selector metadata.name works, an informer does not
  kInformer,  // it lists and watches the kind without names elsewhere (informer_namespace)
  kNamedByContainers,  // its containers name one of the objects (named_by): likely read by name
};

// A rule that grants list or watch only for named objects, for one subject of one binding.
struct ListWatchTrap {
  const RbacRole* role;
  const PolicyRule* rule;
  const RbacBinding* binding;  // null when nothing in the bundle binds the role
  Subject subject;
  std::string api_group;
  std::string resource;
  std::string namespace_;  // empty: the rule applies cluster-wide (ClusterRoleBinding)
  // What else already allows an unnamed list there; null when nothing does, which is the trap.
  Decision covered_by;
  // For a trap: a namespace where the same subject may list and watch the kind without
  // resourceNames, which is what an informer over the kind needs and the sign that the operator
  // runs one; empty when nothing in the policy shows that.
  std::string informer_namespace;
  Decision informer_grant;  // the grant there
  // Only for a bound trap nothing covers; kInformer wins over kNamedByContainers.
  ListWatchEvidence evidence = ListWatchEvidence::kNone;
  // For kNamedByContainers: the argument or environment value that names the object.
  std::string named_by;
};

// For Context::list_watch_traps: the traps of `policy`'s roles, with the evidence the bundle's
// pod templates (`pods`) give of what each trapped subject runs.
std::vector<ListWatchTrap> find_list_watch_traps(std::span<const PodTemplate> pods,
                                                 const RbacPolicy& policy);

// The identity a binding subject authenticates as.
Identity identity_of(const Subject& subject);

// A statement from --expect FILE that a subject must be allowed a request.
struct Expectation {
  std::string as;
  Identity identity;
  Request request;
  std::string file;
  yaml::Position position;
};

// Reads a YAML list of {as, verb, resource, namespace?, name?}; resources are resolved against
// the bundle's resource table (built-in kinds and the bundle's CRDs).
tl::expected<std::vector<Expectation>, LoadError> load_expectations(const std::string& path,
                                                                    const ResourceTable& resources);

// Rules granted in one scope; rules with the same verbs, groups and names are merged.
struct PermissionGrant {
  std::string namespace_;  // empty: all namespaces
  std::vector<std::string> verbs;
  std::vector<std::string> api_groups;
  std::vector<std::string> resources;
  std::vector<std::string> resource_names;
  std::vector<std::string> non_resource_urls;
  std::vector<std::string> risks;  // e.g. "reads secrets", "execs into pods"
  // What else the rules let it do to others, from the rights catalogue (rights_catalog.h): every
  // right on a built-in resource that the catalogue does not call harmless, e.g. "taints nodes".
  std::vector<std::string> consequences;
  std::vector<std::string> via;  // the bindings that grant it
};

// Everything `who` may do, cluster-wide first, then by namespace. Built-in bindings (such as
// system:basic-user for every authenticated user) count only when include_builtin is set.
std::vector<PermissionGrant> permissions_of(const RbacPolicy& policy, const Identity& who,
                                            bool include_builtin);

// Effective permissions of a subject the bundle creates or binds.
struct SubjectPermissions {
  Subject subject;
  bool created_by_bundle = false;  // a ServiceAccount object exists in the bundle
  uint32_t cluster_roles = 0;
  uint32_t cluster_role_bindings = 0;
  uint32_t roles = 0;
  uint32_t role_bindings = 0;
  std::vector<PermissionGrant> grants;
};

std::vector<SubjectPermissions> summarize_permissions(const Bundle& bundle,
                                                      const RbacPolicy& policy);

// The rights catalogue's marks for what `rule` grants on built-in resources, in catalogue order:
// through a RoleBinding (`cluster_binding` false) nothing on cluster-scoped resources but the
// binding's own Namespace object. A rule limited by resourceNames is marked for the objects it
// names.
std::vector<std::string> catalog_marks(const PolicyRule& rule, bool cluster_binding);

// Dangerous rights a rule gives on its own, in words ("reads secrets", "writes bindings"...): the
// escalation paths of escalation_paths.h whose every step the rule takes for any object name,
// plus "everything"; in the order of risks_by_danger().
std::vector<std::string> rule_risks(const PolicyRule& rule);
// Every mark rule_risks() gives, most dangerous first.
std::vector<std::string_view> risks_by_danger();

}  // namespace footprint
