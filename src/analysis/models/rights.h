// Rights as the bundle's bindings grant them: each rule of a bound role (BoundRule), judged the
// way the authorizer judges requests (model/rbac.h), and per subject, the bound rules through
// which a probe finds rights (one finding per account or group names the roles it holds them
// through). The RBAC checks, the escalation paths and can-install read them.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/finding.h"
#include "model/namespaces.h"
#include "model/rbac.h"
#include "util/strings.h"

namespace footprint {

// {"get secrets", "list secrets", "create pods"} -> "get/list secrets, create pods".
std::string merge_verbs(const std::vector<std::string>& verb_resource);
// "secrets", "deployments.apps", "pods/exec".
std::string group_resource(std::string_view group, std::string_view resource,
                           std::string_view subresource = "");

// The bundle's bindings that refer to `role`.
std::vector<const RbacBinding*> bindings_of(const RbacPolicy& policy, const RbacRole& role);
// Whether an aggregated ClusterRole (of the bundle, or built in like edit) includes `role`'s
// rules: then they take effect through that role, and `role` is not "unbound".
bool aggregated_into_another(const RbacPolicy& policy, const RbacRole& role);

Request resource_request(std::string_view verb, std::string_view group, std::string_view resource,
                         std::string_view ns, std::string_view subresource = "",
                         std::string_view name = "");

// (group, resource) pairs a rule names literally; wildcards are left to other checks.
std::vector<std::pair<std::string, std::string>> literal_targets(const PolicyRule& rule);

// A rule as one of the bundle's bindings grants it.
struct BoundRule {
  const RbacBinding* binding;
  const RbacRole* role;
  const PolicyRule* rule;
};

// Every rule of every role the bundle's bindings refer to, binding by binding.
std::vector<BoundRule> bound_rules(const RbacPolicy& policy);

// Whether `bound` allows `verb` on any object of group/resource[/subresource], and where:
// a ClusterRoleBinding everywhere; a RoleBinding only in its namespace, and never for
// cluster-scoped resources, whose requests carry no namespace (the authorizer's
// appliesTo/RoleBinding scoping). Unknown resources are taken as namespaced.
// With `named`, a rule limited by resourceNames counts too (it grants the request for the
// objects it names); without, only a grant for every object counts.
enum class Names : uint8_t { kAny, kSome };
bool grants(const ResourceTable& resources, const BoundRule& bound, std::string_view verb,
            std::string_view group, std::string_view resource, std::string_view subresource = "",
            Names names = Names::kAny);

// The namespace a bound rule applies in; empty for cluster-wide.
inline std::string scope_of(const BoundRule& bound) {
  return bound.binding->cluster ? "" : bound.binding->namespace_;
}

// Where a finding about a rule points: the rule inside the role when the role is in the bundle,
// else the roleRef of the binding that uses a built-in role.
const Object& object_of(const BoundRule& bound);
yaml::Node node_of(const BoundRule& bound);

inline constexpr std::string_view kRbacGroup = "rbac.authorization.k8s.io";

struct WorkloadResource {
  const char* group;
  const char* resource;
};
// Pods and the workloads whose controllers create them.
inline constexpr WorkloadResource kPodCreators[] = {{"", "pods"},
                                                    {"apps", "deployments"},
                                                    {"apps", "daemonsets"},
                                                    {"apps", "statefulsets"},
                                                    {"apps", "replicasets"},
                                                    {"batch", "jobs"},
                                                    {"batch", "cronjobs"},
                                                    {"", "replicationcontrollers"}};

bool allows_any_name(const PolicyRule& rule, std::string_view verb, std::string_view group,
                     std::string_view resource, std::string_view subresource = "");

// A rule that grants every verb on every resource: rbac-wildcard reports it as cluster-admin
// (or full control of a namespace), which says all the other privilege checks would.
bool grants_everything(const PolicyRule& rule);
// A rule over every resource of every API group, whatever its verbs: rbac-wildcard reports it
// once with everything it reaches, rather than each privilege check once more.
bool covers_every_resource(const PolicyRule& rule);

// A probe request for `bound`: cluster-wide for a ClusterRoleBinding or a cluster-scoped
// resource, else in the RoleBinding's namespace.
Request probe_request(const ResourceTable& resources, const BoundRule& bound, std::string_view verb,
                      std::string_view group, std::string_view resource,
                      std::string_view subresource = "");

// A right found in one bound rule: the requests it allows, in the binding's scope.
struct Right {
  BoundRule grant;
  std::vector<Request> requests;
};

// Per subject, the bound rules for which a probe finds rights: what one account or group may
// do, and through which roles.
struct SubjectRights {
  Subject subject;
  std::vector<Right> rights;

  // "ClusterRole a (through ClusterRoleBinding a), ClusterRole b (through ...)".
  std::string sources() const;
  std::vector<std::string> roles() const;
  std::vector<BoundRule> grants() const;
  // "list secrets", "create deployments.apps", "create pods/exec".
  std::vector<std::string> what() const;
  // Every namespace the rights hold in; "" stands for all of them.
  std::vector<std::string> scopes() const;
  bool cluster_wide() const { return contains(scopes(), ""); }
};

// Rules over every resource of every group are left to rbac-wildcard.
std::vector<SubjectRights> rights_by_subject(
    std::span<const BoundRule> bound,
    const std::function<std::vector<Request>(const BoundRule&)>& probe);

// "in every namespace", or "in namespaces a, b".
std::string scopes_text(const SubjectRights& rights);

// A Group that is not one of Kubernetes' own (system:...): the authenticator (an identity
// provider's claims, a client certificate's organisation) puts people in it, and the install puts
// no one (crossplane:masters). Its rights are for administrators, so findings about them say who
// should be a member rather than how to narrow an operator's role.
bool people_group(const Subject& subject);
// The fix of a finding about such a group's rights.
std::string people_group_fix(const Subject& subject);

// Each request `rights` allow, once, as Request::describe() writes it: what `footprint can-i`
// answers, and what join_same_rights compares (Finding::affects "grants").
std::vector<std::string> granted_requests(const std::vector<const Right*>& rights);

// One finding for a subject's rights, listing the subject, its roles and every request it may
// make (as `footprint can-i` answers them) in Finding::affects. A people_group()'s fix is
// people_group_fix().
Finding& report_rights(Findings& out, const SubjectRights& rights, Severity severity,
                       std::string message, std::string fix, std::string summary);

// Namespaces where other teams' or the cluster's own objects live.
bool foreign_namespace(std::span<const ClusterNamespace> namespaces, const std::string& ns);

}  // namespace footprint
