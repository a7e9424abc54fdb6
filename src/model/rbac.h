// RBAC as the API server evaluates it: roles (with aggregation), bindings, subjects, and an
// authorizer that follows the Kubernetes RBAC authorizer rule by rule
// (plugin/pkg/auth/authorizer/rbac and pkg/apis/rbac/v1/evaluation_helpers.go).
//
// The bootstrap policy of Kubernetes 1.34 (cluster-admin, admin/edit/view, system: roles and
// their default bindings) is built in, so bindings to those roles are evaluated too.
#pragma once

#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <unordered_map>
#include <vector>

#include "model/object.h"
#include "model/selector.h"

namespace footprint {

struct PolicyRule {
  std::vector<std::string> verbs;
  std::vector<std::string> api_groups;
  std::vector<std::string> resources;
  std::vector<std::string> resource_names;
  std::vector<std::string> non_resource_urls;
  yaml::Node node;  // where the rule is written; absent for built-in roles

  bool operator==(const PolicyRule& other) const;
};

// What a request asks for, as the API server's RequestInfo describes it.
struct Request {
  std::string verb;
  std::string api_group;
  std::string resource;
  std::string subresource;
  // The object's name. Empty for create, deletecollection, and for list/watch unless they
  // carry the field selector metadata.name=<name>.
  std::string name;
  std::string namespace_;  // empty: cluster-scoped, or across all namespaces
  std::string path;        // set for non-resource requests such as /healthz

  bool is_resource_request() const { return path.empty(); }
  // "list secrets in dynamo-system", "create pods/exec"...
  std::string describe() const;
};

bool verb_matches(const PolicyRule& rule, std::string_view verb);
// A verb the API server's request info produces (apiserver/pkg/endpoints/request/requestinfo.go)
// or a special verb RBAC checks through admission and subresources (use, bind, escalate,
// impersonate, approve, sign, attest), or "*". RBAC matches any other word only through a rule
// that names it or "*", so an answer about it says little about the install.
bool is_api_verb(std::string_view verb);
// The warning for a verb that is not one: "\"frobnicate\" is no verb of the Kubernetes API ...".
std::string unknown_verb_warning(std::string_view verb);
bool api_group_matches(const PolicyRule& rule, std::string_view group);
bool resource_matches(const PolicyRule& rule, std::string_view resource,
                      std::string_view subresource);
bool resource_name_matches(const PolicyRule& rule, std::string_view name);
bool non_resource_url_matches(const PolicyRule& rule, std::string_view path);
bool rule_allows(const PolicyRule& rule, const Request& request);
// rule_allows() for the resource request of these parts, in any namespace, without building a
// Request: checks ask it for every rule and path.
bool rule_allows_resource(const PolicyRule& rule, std::string_view verb, std::string_view group,
                          std::string_view resource, std::string_view subresource = "",
                          std::string_view name = "");

// Who makes a request: a user name and the groups the authenticator adds.
struct Identity {
  std::string user;
  std::vector<std::string> groups;

  // system:serviceaccount:NS:NAME, in groups system:serviceaccounts,
  // system:serviceaccounts:NS and system:authenticated.
  static Identity service_account(std::string_view ns, std::string_view name);
  // A user: system:anonymous is in system:unauthenticated, anyone else in system:authenticated.
  static Identity named_user(std::string_view name);
  // Parses --as: "system:serviceaccount:NS:NAME" or a user name (see named_user()).
  static tl::expected<Identity, std::string> parse(std::string_view as,
                                                   const std::vector<std::string>& extra_groups);
  bool is_service_account() const;
  bool in_group(std::string_view group) const;
};

enum class SubjectKind : uint8_t { kServiceAccount, kUser, kGroup };

std::string_view subject_kind_name(SubjectKind kind);  // "ServiceAccount", "User", "Group"

struct Subject {
  SubjectKind kind = SubjectKind::kServiceAccount;
  std::string name;
  std::string namespace_;  // service accounts only

  // "ServiceAccount ns/name", "User alice", "Group system:authenticated"
  std::string display() const;
  bool operator==(const Subject& other) const = default;
  bool operator<(const Subject& other) const;
};

struct RbacRole {
  bool cluster = false;  // ClusterRole, else Role
  std::string namespace_;
  std::string name;
  const Object* object = nullptr;  // in the bundle; null for built-in roles and the cluster's
  bool in_cluster = false;         // from a cluster snapshot (--cluster)
  Labels labels;
  std::vector<PolicyRule> rules;           // for aggregated roles, the union of the selected roles
  std::vector<LabelSelector> aggregation;  // clusterRoleSelectors; non-empty: aggregated
  std::vector<const RbacRole*> aggregated_from;

  bool builtin() const { return object == nullptr; }
  std::string display() const;  // "ClusterRole view", "Role ns/name"
};

struct RbacBinding {
  bool cluster = false;  // ClusterRoleBinding, else RoleBinding
  std::string namespace_;
  std::string name;
  const Object* object = nullptr;  // null for built-in bindings and the cluster's
  bool in_cluster = false;         // from a cluster snapshot (--cluster)
  std::string role_kind;           // Role or ClusterRole
  std::string role_name;
  std::vector<Subject> subjects;
  const RbacRole* role = nullptr;  // null when the referenced role does not exist

  bool builtin() const { return object == nullptr; }
  std::string display() const;
  // Whether `subject` of this binding is `who`: service accounts without a namespace default
  // to the binding's namespace, as the authorizer does.
  bool applies_to(const Subject& subject, const Identity& who) const;
};

// Why a request was allowed, or the closest reasons it was not.
struct Decision {
  bool allowed = false;
  const RbacBinding* binding = nullptr;
  const RbacRole* role = nullptr;
  const PolicyRule* rule = nullptr;
  std::vector<std::string> reasons;  // for a denial: rules that almost matched, and why not
};

class RbacPolicy {
 public:
  // Roles and bindings of the bundle, plus the built-in bootstrap policy; aggregation applied.
  // With `cluster`, a snapshot's roles and bindings stand between the two: they replace the
  // built-in ones of the same name, and the bundle's replace theirs.
  static RbacPolicy build(const Bundle& bundle, const Bundle* cluster = nullptr);

  Decision authorize(const Identity& who, const Request& request) const;

  struct Grant {
    Subject subject;
    const RbacBinding* binding;
    const RbacRole* role;
    const PolicyRule* rule;
  };
  // Every binding subject that the request is allowed for, with the binding that allows it.
  std::vector<Grant> who_can(const Request& request) const;

  const std::vector<RbacRole>& roles() const { return roles_; }
  const std::vector<RbacBinding>& bindings() const { return bindings_; }
  const RbacRole* find_role(bool cluster, std::string_view ns, std::string_view name) const;
  // Indexes into bindings(), in order, of the bindings that name `who` among their subjects (as
  // RbacBinding::applies_to decides), found through an index by subject.
  std::vector<uint32_t> bindings_of(const Identity& who) const;

 private:
  void index_subjects();

  std::vector<RbacRole> roles_;
  std::vector<RbacBinding> bindings_;
  // Bindings by the user name a subject matches (a User's name, or a ServiceAccount's
  // system:serviceaccount:NS:NAME), and by group.
  std::unordered_map<std::string, std::vector<uint32_t>> by_user_;
  std::unordered_map<std::string, std::vector<uint32_t>> by_group_;
};

// Builds a request from kubectl-style arguments: RESOURCE is "secrets", "deployments.apps",
// "pods/exec", "deployments.apps/scale" or a kind ("Deployment"); a leading "/" makes a
// non-resource URL. Cluster-scoped resources ignore the namespace, as the API server does, except
// that a request on one Namespace object is in that namespace (RequestInfo).
tl::expected<Request, std::string> make_request(std::string_view verb, std::string_view resource,
                                                std::string_view name, std::string_view ns,
                                                const ResourceTable& resources);

// The bootstrap policy of Kubernetes 1.34 as objects: ClusterRoles, ClusterRoleBindings, Roles
// and RoleBindings the API server creates and reconciles itself.
const Bundle& builtin_rbac_bundle();

// Rules of a Role or ClusterRole object as written.
std::vector<PolicyRule> read_rules(const yaml::Node& rules);

}  // namespace footprint
