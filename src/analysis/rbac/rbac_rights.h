// What each subject may do through the bundle's bindings, for the rbac_*.cc privilege checks:
// each probe asks the RBAC engine about one bound rule, and the rights it finds are grouped per
// subject (one finding per account or group, naming the roles it holds them through).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/rbac/rbac_internal.h"

namespace footprint {

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
Request probe_request(const Context& ctx, const BoundRule& bound, std::string_view verb,
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
    const Context& ctx, const std::function<std::vector<Request>(const BoundRule&)>& probe);

// "in every namespace", or "in namespaces a, b".
std::string scopes_text(const SubjectRights& rights);

// One finding for a subject's rights, listing the subject, its roles and every request it may
// make (as `footprint can-i` answers them) in Finding::affects.
Finding& report_rights(Findings& out, const SubjectRights& rights, Severity severity,
                       std::string message, std::string fix, std::string summary);

// Namespaces where other teams' or the cluster's own objects live.
bool foreign_namespace(const Context& ctx, const std::string& ns);

}  // namespace footprint
