// RBAC checks: traps that break the operator, and privileges the admin should know about.
#include "analysis/rbac.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "analysis/check.h"

namespace footprint {

namespace {

bool contains(const std::vector<std::string>& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::string bracketed(const std::vector<std::string>& items) {
  return fmt::format("[{}]", fmt::join(items, ", "));
}

std::string group_resource(std::string_view group, std::string_view resource) {
  return group.empty() ? std::string(resource) : fmt::format("{}.{}", resource, group);
}

// The bundle's bindings that refer to `role`.
std::vector<const RbacBinding*> bindings_of(const RbacPolicy& policy, const RbacRole& role) {
  std::vector<const RbacBinding*> out;
  for (const RbacBinding& b : policy.bindings()) {
    if (!b.builtin() && b.role == &role) out.push_back(&b);
  }
  return out;
}

bool bound_cluster_wide(const RbacPolicy& policy, const RbacRole& role) {
  for (const RbacBinding* b : bindings_of(policy, role)) {
    if (b->cluster) return true;
  }
  return false;
}

std::string subjects_of(const RbacBinding& b) {
  std::vector<std::string> names;
  for (const Subject& s : b.subjects)
    names.push_back(s.display());
  return names.empty() ? std::string("no subjects") : fmt::format("{}", fmt::join(names, ", "));
}

// Where a finding about a role's rule points: the rule inside the role when the role is in the
// bundle, else the binding that uses a built-in role.
const Object* object_for(const RbacRole& role, const RbacBinding* binding) {
  if (role.object) return role.object;
  return binding ? binding->object : nullptr;
}

Request resource_request(std::string_view verb, std::string_view group, std::string_view resource,
                         std::string_view ns, std::string_view subresource = "",
                         std::string_view name = "") {
  Request r;
  r.verb = verb;
  r.api_group = group;
  r.resource = resource;
  r.subresource = subresource;
  r.name = name;
  r.namespace_ = ns;
  return r;
}

bool allows_any_name(const PolicyRule& rule, std::string_view verb, std::string_view group,
                     std::string_view resource, std::string_view subresource = "") {
  return rule_allows(rule, resource_request(verb, group, resource, "x", subresource));
}

// (group, resource) pairs a rule names literally; wildcards are left to other checks.
std::vector<std::pair<std::string, std::string>> literal_targets(const PolicyRule& rule) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& g : rule.api_groups) {
    if (g == "*") continue;
    for (const std::string& r : rule.resources) {
      if (r.find('*') != std::string::npos) continue;
      out.emplace_back(g, r);
    }
  }
  return out;
}

// True when a CRD in the bundle defines a kind of `group`.
bool defines_group(const Bundle& bundle, std::string_view group) {
  return std::any_of(bundle.resources.all().begin(), bundle.resources.all().end(),
                     [&](const ResourceInfo& r) { return !r.builtin && r.group == group; });
}

}  // namespace

Identity identity_of(const Subject& subject) {
  switch (subject.kind) {
    case SubjectKind::kServiceAccount:
      return Identity::service_account(subject.namespace_, subject.name);
    case SubjectKind::kUser:
      return Identity{subject.name, {"system:authenticated"}};
    case SubjectKind::kGroup:
      break;
  }
  return Identity{"", {subject.name}};
}

std::vector<ListWatchTrap> find_list_watch_traps(const Bundle& bundle, const RbacPolicy& policy) {
  (void)bundle;
  std::vector<ListWatchTrap> traps;
  for (const RbacRole& role : policy.roles()) {
    if (role.builtin()) continue;
    for (const PolicyRule& rule : role.rules) {
      if (rule.resource_names.empty()) continue;
      if (!verb_matches(rule, "list") && !verb_matches(rule, "watch")) continue;
      std::string verb = verb_matches(rule, "list") ? "list" : "watch";
      for (const auto& [group, resource] : literal_targets(rule)) {
        std::string base = resource.substr(0, resource.find('/'));
        std::string sub =
            resource.find('/') == std::string::npos ? "" : resource.substr(resource.find('/') + 1);
        std::vector<const RbacBinding*> bindings = bindings_of(policy, role);
        if (bindings.empty()) {
          traps.push_back(ListWatchTrap{&role, &rule, nullptr, Subject{}, group, resource,
                                        role.namespace_, Decision{}});
          continue;
        }
        for (const RbacBinding* b : bindings) {
          for (const Subject& s : b->subjects) {
            std::string ns = b->cluster ? "" : b->namespace_;
            Decision covered =
                policy.authorize(identity_of(s), resource_request(verb, group, base, ns, sub));
            traps.push_back(ListWatchTrap{&role, &rule, b, s, group, resource, ns, covered});
          }
        }
      }
    }
  }
  return traps;
}

namespace {

std::string where(const std::string& ns) {
  return ns.empty() ? std::string("across all namespaces") : "in namespace " + ns;
}

void run_resourcenames_list_watch(const Context& ctx, Findings& out) {
  for (const ListWatchTrap& t : find_list_watch_traps(ctx.bundle, ctx.rbac)) {
    std::string what = group_resource(t.api_group, t.resource);
    std::string grant =
        fmt::format("{} grants {} on {} only for resourceNames {}", t.role->display(),
                    fmt::join(t.rule->verbs, ", "), what, bracketed(t.rule->resource_names));
    std::string informer =
        "A list or watch that does not name one object, which is what a controller-runtime "
        "informer does, is forbidden by this rule.";
    if (!t.binding) {
      out.add(*t.role->object, Severity::kLow,
              fmt::format("{}. {} Nothing in the bundle binds this role yet; whoever it is bound "
                          "to will not be able to list or watch {}.",
                          grant, informer, what),
              fmt::format("Drop list and watch from this rule, or grant them in a rule without "
                          "resourceNames."),
              t.rule->node);
      continue;
    }
    if (t.covered_by.allowed) {
      out.add(*t.role->object, Severity::kLow,
              fmt::format("{}. {} It is covered here: {} through {} already allows {} to list {} "
                          "{}, so the restriction only misleads. In an install mode without that "
                          "grant, the same rule would break the operator.",
                          grant, informer, t.covered_by.role->display(),
                          t.covered_by.binding->display(), t.subject.display(), what,
                          where(t.namespace_)),
              "Remove list and watch from the resourceNames rule, and keep the unrestricted "
              "grant that covers them.",
              t.rule->node);
      continue;
    }
    out.add(*t.role->object, Severity::kHigh,
            fmt::format("{}. {} {} has no other rule allowing it to list {} {} (bound through "
                        "{}). Unless the operator watches {} only through the field selector "
                        "metadata.name, the cache never syncs; controller-runtime managers exit; "
                        "expect CrashLoopBackOff.",
                        grant, informer, t.subject.display(), what, where(t.namespace_),
                        t.binding->display(), what),
            fmt::format("Grant get, list and watch on {} {} without resourceNames "
                        "(`footprint fix rbac` writes that Role and RoleBinding), or restrict the "
                        "operator's informer with the field selector metadata.name={}.",
                        what, where(t.namespace_), t.rule->resource_names.front()),
            t.rule->node);
  }
}

}  // namespace

extern const Check kRbacResourceNamesListWatch{
    "rbac-resourcenames-list-watch", Severity::kHigh, "rbac",
    "A rule grants list or watch with resourceNames, which an informer's unnamed list never "
    "matches.",
    run_resourcenames_list_watch};

namespace {

void run_resourcenames_create(const Context& ctx, Findings& out) {
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin()) continue;
    for (const PolicyRule& rule : role.rules) {
      if (rule.resource_names.empty()) continue;
      std::vector<std::string> verbs;
      for (const char* v : {"create", "deletecollection"}) {
        if (contains(rule.verbs, v)) verbs.emplace_back(v);
      }
      // A subresource create (pods/eviction, serviceaccounts/token) names its parent object.
      std::vector<std::string> resources;
      for (const std::string& r : rule.resources) {
        if (r.find('/') == std::string::npos) resources.push_back(r);
      }
      if (verbs.empty() || resources.empty()) continue;
      out.add(*role.object, Severity::kMedium,
              fmt::format("{} lists {} on {} with resourceNames {}. A {} request carries no "
                          "object name, so this rule never allows it: the requests its author "
                          "meant to allow are forbidden.",
                          role.display(), fmt::join(verbs, " and "), fmt::join(resources, ", "),
                          bracketed(rule.resource_names), fmt::join(verbs, " or ")),
              fmt::format("Move {} to a rule without resourceNames; keep resourceNames for get, "
                          "update, patch and delete.",
                          fmt::join(verbs, " and ")),
              rule.node);
    }
  }
}

}  // namespace

extern const Check kRbacResourceNamesCreate{
    "rbac-resourcenames-create", Severity::kMedium, "rbac",
    "create or deletecollection is listed with resourceNames, which those requests never carry.",
    run_resourcenames_create};

namespace {

void run_role_cluster_resource(const Context& ctx, Findings& out) {
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin() || role.cluster) continue;
    for (const PolicyRule& rule : role.rules) {
      if (!rule.non_resource_urls.empty()) {
        out.add(*role.object, Severity::kHigh,
                fmt::format("{} lists nonResourceURLs {}, which only a ClusterRole may hold: the "
                            "API server rejects this Role, and the install fails.",
                            role.display(), bracketed(rule.non_resource_urls)),
                "Move the nonResourceURLs rule to a ClusterRole bound with a ClusterRoleBinding.",
                rule.node);
      }
      std::vector<std::string> cluster_scoped;
      for (const auto& [group, resource] : literal_targets(rule)) {
        const ResourceInfo* info =
            ctx.bundle.resources.find_resource(group, resource.substr(0, resource.find('/')));
        if (info && info->scope == Scope::kCluster) {
          cluster_scoped.push_back(group_resource(group, resource));
        }
      }
      if (cluster_scoped.empty()) continue;
      out.add(
          *role.object, Severity::kMedium,
          fmt::format("{} grants {} on {}, which {} cluster-scoped. A Role's rules apply only "
                      "inside its namespace, so this rule grants nothing: requests for {} "
                      "are forbidden.",
                      role.display(), fmt::join(rule.verbs, ", "), fmt::join(cluster_scoped, ", "),
                      cluster_scoped.size() == 1 ? "is" : "are", fmt::join(cluster_scoped, ", ")),
          "Move the rule to a ClusterRole bound with a ClusterRoleBinding, or remove it.",
          rule.node);
    }
  }
}

}  // namespace

extern const Check kRbacRoleClusterResource{
    "rbac-role-cluster-resource", Severity::kHigh, "rbac",
    "A namespaced Role names cluster-scoped resources or URLs, which it cannot grant.",
    run_role_cluster_resource};

namespace {

// An aggregated API server (APIService) serves groups that are neither built in nor CRDs.
bool maybe_aggregated_api(const Bundle& bundle, const std::vector<std::string>& groups) {
  for (const std::string& g : groups) {
    if (g == "*" || bundle.resources.is_builtin_group(g) || defines_group(bundle, g)) return false;
  }
  return !groups.empty();
}

void run_ineffective_wildcard(const Context& ctx, Findings& out) {
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin()) continue;
    for (const PolicyRule& rule : role.rules) {
      std::vector<std::string> resources;
      for (const std::string& r : rule.resources) {
        size_t slash = r.find('/');
        if (slash != std::string::npos && slash > 0 && r.substr(0, slash) != "*" &&
            r.find('*', slash) != std::string::npos) {
          resources.push_back(r);
        }
      }
      std::vector<std::string> names;
      for (const std::string& n : rule.resource_names) {
        if (n.find_first_of("*?") != std::string::npos) names.push_back(n);
      }
      if (resources.empty() && names.empty()) continue;
      bool aggregated = maybe_aggregated_api(ctx.bundle, rule.api_groups);
      std::string what;
      if (!resources.empty()) {
        what = fmt::format(
            "resources {} match only a subresource literally named \"*\", not "
            "every subresource",
            bracketed(resources));
      }
      if (!names.empty()) {
        if (!what.empty()) what += ", and ";
        what += fmt::format("resourceNames {} match only objects with exactly that name",
                            bracketed(names));
      }
      std::string message = fmt::format(
          "In {}, {}: the built-in RBAC authorizer does not expand wildcards there, so the rule "
          "grants less than it appears to.",
          role.display(), what);
      if (aggregated) {
        message += fmt::format(
            " The group {} is served by an aggregated API server, which may "
            "implement its own matching.",
            fmt::join(rule.api_groups, ", "));
      }
      out.add(*role.object, aggregated ? Severity::kLow : Severity::kMedium, std::move(message),
              "List the subresources (pods/log, pods/exec...) or use \"*/subresource\" for one "
              "subresource of every resource; list exact names in resourceNames.",
              rule.node);
    }
  }
}

}  // namespace

extern const Check kRbacIneffectiveWildcard{
    "rbac-ineffective-wildcard", Severity::kMedium, "rbac",
    "A rule uses pods/*-style resources or glob-like resourceNames, which RBAC does not expand.",
    run_ineffective_wildcard};

namespace {

const RbacRole* role_in_other_namespace(const RbacPolicy& policy, const RbacBinding& b) {
  for (const RbacRole& r : policy.roles()) {
    if (!r.cluster && !r.builtin() && r.name == b.role_name && r.namespace_ != b.namespace_) {
      return &r;
    }
  }
  return nullptr;
}

void run_binding_missing_role(const Context& ctx, Findings& out) {
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (b.builtin() || b.role) continue;
    if (b.cluster && b.role_kind == "Role") {
      out.add(*b.object, Severity::kHigh,
              fmt::format("{} refers to a Role; a ClusterRoleBinding can refer only to a "
                          "ClusterRole, so the API server rejects it and the install fails.",
                          b.display()),
              "Refer to a ClusterRole, or use a RoleBinding in the Role's namespace.",
              b.object->node.get("roleRef"));
      continue;
    }
    if (!b.cluster && b.role_kind == "Role" && role_in_other_namespace(ctx.rbac, b)) continue;
    out.add(
        *b.object, Severity::kMedium,
        fmt::format("{} refers to {} {}, which is neither in the bundle nor built into "
                    "Kubernetes: until someone creates it, {} get nothing from this binding.",
                    b.display(), b.role_kind, b.role_name, subjects_of(b)),
        fmt::format("Add the {} {} to the bundle, or fix roleRef.name.", b.role_kind, b.role_name),
        b.object->node.get("roleRef"));
  }
}

}  // namespace

extern const Check kRbacBindingMissingRole{
    "rbac-binding-missing-role", Severity::kHigh, "rbac",
    "A binding refers to a Role or ClusterRole that is not in the bundle and not built in.",
    run_binding_missing_role};

namespace {

void run_role_namespace_mismatch(const Context& ctx, Findings& out) {
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (b.builtin() || b.role || b.cluster || b.role_kind != "Role") continue;
    const RbacRole* other = role_in_other_namespace(ctx.rbac, b);
    if (!other) continue;
    out.add(*b.object, Severity::kHigh,
            fmt::format("{} refers to Role {}, which exists only in namespace {}. A RoleBinding "
                        "looks its Role up in its own namespace ({}), so {} get nothing from it.",
                        b.display(), b.role_name, other->namespace_, b.namespace_, subjects_of(b)),
            fmt::format("Put the RoleBinding in namespace {}, or create the Role in {}.",
                        other->namespace_, b.namespace_),
            b.object->node.get("roleRef"));
  }
}

}  // namespace

extern const Check kRbacRoleNamespaceMismatch{
    "rbac-role-namespace-mismatch", Severity::kHigh, "rbac",
    "A RoleBinding names a Role that exists only in another namespace.",
    run_role_namespace_mismatch};

namespace {

void run_binding_missing_subject(const Context& ctx, Findings& out) {
  const Bundle& bundle = ctx.bundle;
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (b.builtin()) continue;
    for (const Subject& s : b.subjects) {
      if (s.kind != SubjectKind::kServiceAccount) continue;
      if (bundle.find("", "ServiceAccount", s.namespace_, s.name)) continue;
      bool new_namespace = bundle.creates_namespace(s.namespace_);
      bool release = s.namespace_ == bundle.default_namespace;
      Severity severity = new_namespace ? Severity::kMedium
                          : release     ? Severity::kInfo
                                        : Severity::kLow;
      std::string context =
          new_namespace
              ? fmt::format(
                    "the bundle creates namespace {} itself, so nothing else can have "
                    "created this account",
                    s.namespace_)
              : fmt::format("it must already exist in namespace {} for the grant to mean anything",
                            s.namespace_);
      out.add(*b.object, severity,
              fmt::format("{} grants {} to {}, which no object in the bundle creates; {}.",
                          b.display(), b.role_kind + " " + b.role_name, s.display(), context),
              fmt::format("Add the ServiceAccount {}/{} to the bundle, or fix the subject's name "
                          "and namespace.",
                          s.namespace_, s.name),
              b.object->node.get("subjects"));
    }
  }
}

}  // namespace

extern const Check kRbacBindingMissingSubject{
    "rbac-binding-missing-subject", Severity::kMedium, "rbac",
    "A binding names a ServiceAccount that the bundle does not create.",
    run_binding_missing_subject};

// Privilege checks: what the bundle grants, so the admin can decide.
namespace {

struct Privilege {
  const RbacRole* role;
  const PolicyRule* rule;
  const RbacBinding* binding;  // a cluster-wide binding in the bundle, or null
};

// Rules of roles that bundle ClusterRoleBindings grant cluster-wide and that allow `probe`.
std::vector<Privilege> cluster_wide_grants(const RbacPolicy& policy,
                                           const std::function<bool(const PolicyRule&)>& probe) {
  std::vector<Privilege> out;
  for (const RbacBinding& b : policy.bindings()) {
    if (b.builtin() || !b.cluster || !b.role) continue;
    for (const PolicyRule& rule : b.role->rules) {
      if (probe(rule)) {
        out.push_back(Privilege{b.role, &rule, &b});
        break;
      }
    }
  }
  return out;
}

void report_privilege(Findings& out, const Privilege& p, Severity severity, std::string message,
                      std::string remediation) {
  const Object* object = object_for(*p.role, p.binding);
  if (!object) return;
  out.add(*object, severity, std::move(message), std::move(remediation),
          p.role->object ? p.rule->node : p.binding->object->node.get("roleRef"));
}

std::string via(const Privilege& p) {
  return fmt::format("{} grants it through {} to {}", p.role->display(), p.binding->display(),
                     subjects_of(*p.binding));
}

void run_secrets_cluster_wide(const Context& ctx, Findings& out) {
  auto probe = [](const PolicyRule& r) {
    return allows_any_name(r, "get", "", "secrets") || allows_any_name(r, "list", "", "secrets") ||
           allows_any_name(r, "watch", "", "secrets");
  };
  for (const Privilege& p : cluster_wide_grants(ctx.rbac, probe)) {
    report_privilege(
        out, p, Severity::kHigh,
        fmt::format("Reading Secrets in every namespace is allowed: {}. That includes every "
                    "team's credentials and service account tokens.",
                    via(p)),
        "Grant Secret access with Roles in the namespaces the operator manages, or limit it "
        "with resourceNames for get.");
  }
}

}  // namespace

extern const Check kRbacSecretsClusterWide{
    "rbac-secrets-cluster-wide", Severity::kHigh, "rbac",
    "get, list or watch on secrets is granted in all namespaces.", run_secrets_cluster_wide};

namespace {

void run_wildcard(const Context& ctx, Findings& out) {
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (b.builtin() || b.role_kind != "ClusterRole" || b.role_name != "cluster-admin") continue;
    out.add(*b.object, Severity::kCritical,
            fmt::format("{} binds cluster-admin to {}{}: every verb on every resource.",
                        b.display(), subjects_of(b),
                        b.cluster ? " in the whole cluster"
                                  : fmt::format(" in namespace {}", b.namespace_)),
            "Bind a ClusterRole that lists what the operator needs instead of cluster-admin.",
            b.object->node.get("roleRef"));
  }
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin()) continue;
    for (const PolicyRule& rule : role.rules) {
      std::vector<std::string> parts;
      if (contains(rule.verbs, "*")) parts.emplace_back("verbs");
      if (contains(rule.resources, "*")) parts.emplace_back("resources");
      if (contains(rule.api_groups, "*")) parts.emplace_back("apiGroups");
      if (parts.empty()) continue;
      bool everything = parts.size() == 3;
      // "*" verbs on the operator's own CRDs (kubebuilder's default) reach nothing shared.
      bool own_api =
          !contains(rule.resources, "*") && !contains(rule.api_groups, "*") &&
          std::all_of(rule.api_groups.begin(), rule.api_groups.end(), [&](const std::string& g) {
            return !ctx.bundle.resources.is_builtin_group(g) && defines_group(ctx.bundle, g);
          });
      Severity severity = everything && role.cluster && bound_cluster_wide(ctx.rbac, role)
                              ? Severity::kHigh
                          : own_api ? Severity::kLow
                                    : Severity::kMedium;
      out.add(*role.object, severity,
              fmt::format(
                  "{} uses \"*\" in {}: it grants {}, including verbs and resources that "
                  "future Kubernetes versions and CRDs add.",
                  role.display(), fmt::join(parts, ", "),
                  everything ? "everything, like cluster-admin" : "more than any list could show"),
              "List the verbs, resources and API groups the operator uses.", rule.node);
    }
  }
}

}  // namespace

extern const Check kRbacWildcard{"rbac-wildcard", Severity::kCritical, "rbac",
                                 "A rule uses \"*\" in verbs, resources or apiGroups, or a "
                                 "binding grants cluster-admin.",
                                 run_wildcard};

namespace {

std::vector<std::string> escalation_rights(const PolicyRule& r) {
  std::vector<std::string> rights;
  const std::string rbac = "rbac.authorization.k8s.io";
  if (allows_any_name(r, "escalate", rbac, "roles") ||
      allows_any_name(r, "escalate", rbac, "clusterroles")) {
    rights.emplace_back("escalate roles");
  }
  if (allows_any_name(r, "bind", rbac, "roles") ||
      allows_any_name(r, "bind", rbac, "clusterroles")) {
    rights.emplace_back("bind roles");
  }
  for (const char* who : {"users", "groups", "serviceaccounts"}) {
    if (verb_matches(r, "impersonate") && api_group_matches(r, "") &&
        resource_matches(r, who, "")) {
      rights.push_back(fmt::format("impersonate {}", who));
    }
  }
  if (verb_matches(r, "create") && api_group_matches(r, "") &&
      resource_matches(r, "serviceaccounts", "token")) {
    rights.emplace_back("create serviceaccounts/token");
  }
  return rights;
}

void run_privilege_escalation(const Context& ctx, Findings& out) {
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin()) continue;
    for (const PolicyRule& rule : role.rules) {
      std::vector<std::string> rights = escalation_rights(rule);
      if (rights.empty()) continue;
      std::string names = rule.resource_names.empty()
                              ? ""
                              : fmt::format(" (only for {})", bracketed(rule.resource_names));
      out.add(*role.object, Severity::kHigh,
              fmt::format("{} can {}{}: whoever holds it can gain permissions it was not given, "
                          "{}.",
                          role.display(), fmt::join(rights, ", "), names,
                          role.cluster ? "up to what any role or account in the cluster has"
                                       : "up to what any role or account in namespace " +
                                             role.namespace_ + " has"),
              "Remove these verbs unless the operator's purpose is managing RBAC or tokens, and "
              "then restrict them with resourceNames.",
              rule.node);
    }
  }
}

}  // namespace

extern const Check kRbacPrivilegeEscalation{
    "rbac-privilege-escalation", Severity::kHigh, "rbac",
    "A rule grants escalate, bind, impersonate, or create on serviceaccounts/token.",
    run_privilege_escalation};

namespace {

struct WorkloadResource {
  const char* group;
  const char* resource;
};
constexpr WorkloadResource kPodCreators[] = {{"", "pods"},
                                             {"apps", "deployments"},
                                             {"apps", "daemonsets"},
                                             {"apps", "statefulsets"},
                                             {"apps", "replicasets"},
                                             {"batch", "jobs"},
                                             {"batch", "cronjobs"},
                                             {"", "replicationcontrollers"}};

void run_workload_create_cluster_wide(const Context& ctx, Findings& out) {
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (b.builtin() || !b.cluster || !b.role) continue;
    std::vector<std::string> kinds;
    const PolicyRule* first = nullptr;
    for (const WorkloadResource& w : kPodCreators) {
      for (const PolicyRule& rule : b.role->rules) {
        if (allows_any_name(rule, "create", w.group, w.resource)) {
          kinds.push_back(group_resource(w.group, w.resource));
          if (!first) first = &rule;
          break;
        }
      }
    }
    if (kinds.empty()) continue;
    report_privilege(
        out, Privilege{b.role, first, &b}, Severity::kHigh,
        fmt::format("Creating {} in every namespace is allowed: {}. A pod can run as any "
                    "ServiceAccount of its namespace, so this is equivalent to every "
                    "ServiceAccount's permissions in the cluster.",
                    fmt::join(kinds, ", "), via(Privilege{b.role, first, &b})),
        "Grant workload creation with Roles in the namespaces the operator manages, or restrict "
        "the operator to its own namespace.");
  }
}

}  // namespace

extern const Check kRbacWorkloadCreateClusterWide{
    "rbac-workload-create-cluster-wide", Severity::kHigh, "rbac",
    "Creating pods or pod-creating workloads is granted in all namespaces.",
    run_workload_create_cluster_wide};

namespace {

void run_pod_exec(const Context& ctx, Findings& out) {
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin()) continue;
    for (const PolicyRule& rule : role.rules) {
      std::vector<std::string> rights;
      if (allows_any_name(rule, "create", "", "pods", "exec")) rights.emplace_back("pods/exec");
      if (allows_any_name(rule, "create", "", "pods", "attach")) rights.emplace_back("pods/attach");
      if (allows_any_name(rule, "get", "", "nodes", "proxy") ||
          allows_any_name(rule, "create", "", "nodes", "proxy")) {
        rights.emplace_back("nodes/proxy");
      }
      if (rights.empty()) continue;
      bool wide = role.cluster && bound_cluster_wide(ctx.rbac, role);
      out.add(*role.object, wide ? Severity::kHigh : Severity::kMedium,
              fmt::format("{} allows {}: running commands inside containers{} ({}), with their "
                          "mounted secrets and tokens.",
                          role.display(), fmt::join(rights, ", "),
                          rights.back() == "nodes/proxy" ? " and calling the kubelet API" : "",
                          wide ? "in every namespace" : "where it is bound"),
              "Remove exec, attach and nodes/proxy unless the operator needs them; prefer its "
              "own API over exec.",
              rule.node);
    }
  }
}

}  // namespace

extern const Check kRbacPodExec{"rbac-pod-exec", Severity::kHigh, "rbac",
                                "A rule allows pods/exec, pods/attach or nodes/proxy.",
                                run_pod_exec};

namespace {

void run_webhook_config_write(const Context& ctx, Findings& out) {
  const std::string group = "admissionregistration.k8s.io";
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin()) continue;
    for (const PolicyRule& rule : role.rules) {
      std::vector<std::string> rights;
      for (const char* resource :
           {"mutatingwebhookconfigurations", "validatingwebhookconfigurations"}) {
        std::vector<std::string> verbs;
        for (const char* verb : {"create", "update", "patch", "delete"}) {
          if (verb_matches(rule, verb) && api_group_matches(rule, group) &&
              resource_matches(rule, resource, "")) {
            verbs.emplace_back(verb);
          }
        }
        if (!verbs.empty()) rights.push_back(fmt::format("{} {}", fmt::join(verbs, "/"), resource));
      }
      if (rights.empty()) continue;
      std::string names = rule.resource_names.empty()
                              ? "any webhook configuration, including other teams'"
                              : fmt::format("only {}", bracketed(rule.resource_names));
      out.add(*role.object, Severity::kHigh,
              fmt::format("{} can {} ({}). A webhook configuration decides which API requests "
                          "are sent to which server, so this can intercept or block writes "
                          "anywhere in the cluster.",
                          role.display(), fmt::join(rights, ", "), names),
              "Restrict the rule with resourceNames to the operator's own webhook "
              "configurations, and drop create and delete if the chart creates them.",
              rule.node);
    }
  }
}

}  // namespace

extern const Check kRbacWebhookConfigWrite{
    "rbac-webhook-config-write", Severity::kHigh, "rbac",
    "A rule allows writing admission webhook configurations.", run_webhook_config_write};

namespace {

void run_crd_write(const Context& ctx, Findings& out) {
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin()) continue;
    for (const PolicyRule& rule : role.rules) {
      std::vector<std::string> verbs;
      for (const char* verb : {"create", "update", "patch"}) {
        if (verb_matches(rule, verb) && api_group_matches(rule, "apiextensions.k8s.io") &&
            resource_matches(rule, "customresourcedefinitions", "")) {
          verbs.emplace_back(verb);
        }
      }
      if (verbs.empty()) continue;
      std::string hidden =
          rule.resource_names.empty() || contains(verbs, "create")
              ? "it may create or rewrite any CustomResourceDefinition in the cluster"
              : fmt::format("it may rewrite the CRDs {}", bracketed(rule.resource_names));
      out.add(*role.object, Severity::kMedium,
              fmt::format("{} can {} customresourcedefinitions: the operator installs or changes "
                          "CRDs at run time, so its true cluster footprint is larger than this "
                          "bundle. Hidden footprint: {}.",
                          role.display(), fmt::join(verbs, ", "), hidden),
              "Ship the CRDs in the bundle (or a CRD chart) and remove this right, or restrict "
              "update and patch to the operator's own CRDs with resourceNames.",
              rule.node);
    }
  }
}

}  // namespace

extern const Check kRbacCrdWrite{"rbac-crd-write", Severity::kMedium, "rbac",
                                 "A rule allows creating or changing CustomResourceDefinitions.",
                                 run_crd_write};

namespace {

void run_broad_group_binding(const Context& ctx, Findings& out) {
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (b.builtin()) continue;
    for (const Subject& s : b.subjects) {
      if (s.kind != SubjectKind::kGroup) continue;
      std::string who;
      Severity severity = Severity::kHigh;
      if (s.name == "system:unauthenticated") {
        who = "anyone who can reach the API server, without credentials";
        severity = Severity::kCritical;
      } else if (s.name == "system:authenticated") {
        who = "every authenticated user and service account";
      } else if (s.name == "system:serviceaccounts") {
        who = "every service account in every namespace";
      } else if (s.name.starts_with("system:serviceaccounts:")) {
        who = fmt::format("every service account in namespace {}",
                          s.name.substr(std::string_view("system:serviceaccounts:").size()));
        severity = Severity::kMedium;
      } else {
        continue;
      }
      out.add(*b.object, severity,
              fmt::format("{} grants {} {} to group {}: that is {}{}.", b.display(), b.role_kind,
                          b.role_name, s.name, who,
                          b.cluster ? "" : fmt::format(", in namespace {}", b.namespace_)),
              "Bind the role to the operator's own ServiceAccount instead of a group.",
              b.object->node.get("subjects"));
    }
  }
}

}  // namespace

extern const Check kRbacBroadGroupBinding{
    "rbac-broad-group-binding", Severity::kCritical, "rbac",
    "A binding grants a role to system:authenticated, system:unauthenticated or all service "
    "accounts.",
    run_broad_group_binding};

std::vector<std::string> rule_risks(const PolicyRule& rule) {
  std::vector<std::string> risks;
  if (contains(rule.verbs, "*") && contains(rule.resources, "*") &&
      contains(rule.api_groups, "*")) {
    risks.emplace_back("everything");
  }
  if (allows_any_name(rule, "get", "", "secrets") || allows_any_name(rule, "list", "", "secrets")) {
    risks.emplace_back("reads secrets");
  }
  for (const WorkloadResource& w : kPodCreators) {
    if (allows_any_name(rule, "create", w.group, w.resource)) {
      risks.emplace_back("creates workloads");
      break;
    }
  }
  if (allows_any_name(rule, "create", "", "pods", "exec") ||
      allows_any_name(rule, "create", "", "pods", "attach")) {
    risks.emplace_back("execs into pods");
  }
  if (!escalation_rights(rule).empty()) risks.emplace_back("escalates privileges");
  for (const char* r : {"mutatingwebhookconfigurations", "validatingwebhookconfigurations"}) {
    if (allows_any_name(rule, "patch", "admissionregistration.k8s.io", r) ||
        allows_any_name(rule, "update", "admissionregistration.k8s.io", r)) {
      risks.emplace_back("changes webhooks");
      break;
    }
  }
  if (allows_any_name(rule, "create", "apiextensions.k8s.io", "customresourcedefinitions") ||
      allows_any_name(rule, "update", "apiextensions.k8s.io", "customresourcedefinitions")) {
    risks.emplace_back("changes CRDs");
  }
  return risks;
}

namespace {

constexpr std::string_view kAggregateLabel = "rbac.authorization.k8s.io/aggregate-to-";

void run_aggregates_to_default_roles(const Context& ctx, Findings& out) {
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin() || !role.cluster) continue;
    for (const auto& [key, value] : role.labels) {
      if (!key.starts_with(kAggregateLabel) || value != "true") continue;
      std::string target = key.substr(kAggregateLabel.size());
      if (target != "admin" && target != "edit" && target != "view") continue;
      std::string holders = target == "admin"  ? "every namespace admin"
                            : target == "edit" ? "every namespace editor"
                                               : "every namespace viewer";
      std::vector<std::string> grants;
      std::set<std::string> risks;
      // Rights over the bundle's own custom resources are what aggregation is for.
      bool own_api_only = true;
      for (const PolicyRule& rule : role.rules) {
        std::vector<std::string> what = rule.resources;
        what.insert(what.end(), rule.non_resource_urls.begin(), rule.non_resource_urls.end());
        grants.push_back(fmt::format("{} {}", fmt::join(rule.verbs, "/"), fmt::join(what, ", ")));
        for (const std::string& r : rule_risks(rule))
          risks.insert(r);
        own_api_only =
            own_api_only && rule.non_resource_urls.empty() &&
            std::all_of(rule.api_groups.begin(), rule.api_groups.end(), [&](const std::string& g) {
              return !ctx.bundle.resources.is_builtin_group(g) && defines_group(ctx.bundle, g);
            });
      }
      Severity severity = !risks.empty() ? Severity::kHigh
                          : own_api_only ? Severity::kLow
                                         : Severity::kMedium;
      out.add(*role.object, severity,
              fmt::format("{} carries the label {}=true, so it grants {} (everyone bound to the "
                          "built-in {} role in any namespace) the right to {}{}.",
                          role.display(), key, holders, target, fmt::join(grants, "; "),
                          risks.empty() ? "" : fmt::format(" ({})", fmt::join(risks, ", "))),
              fmt::format("Remove the aggregate-to-{} label unless every {} should have these "
                          "rights; ship the role for explicit binding instead.",
                          target, target),
              role.object->node.at({"metadata", "labels"}));
    }
  }
}

}  // namespace

extern const Check kRbacAggregatesToDefaultRoles{
    "rbac-aggregates-to-default-roles", Severity::kHigh, "rbac",
    "A ClusterRole aggregates into the built-in admin, edit or view roles.",
    run_aggregates_to_default_roles};

std::vector<PermissionGrant> permissions_of(const RbacPolicy& policy, const Identity& who,
                                            bool include_builtin) {
  using Key = std::tuple<std::string, std::vector<std::string>, std::vector<std::string>,
                         std::vector<std::string>, std::vector<std::string>>;
  std::map<Key, PermissionGrant> merged;
  auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  for (uint32_t index : policy.bindings_of(who)) {
    const RbacBinding& b = policy.bindings()[index];
    if ((b.builtin() && !include_builtin) || !b.role) continue;
    std::string ns = b.cluster ? "" : b.namespace_;
    for (const PolicyRule& rule : b.role->rules) {
      Key key{ns, sorted(rule.verbs), sorted(rule.api_groups), sorted(rule.resource_names),
              sorted(rule.non_resource_urls)};
      PermissionGrant& g = merged[key];
      g.namespace_ = ns;
      g.verbs = std::get<1>(key);
      g.api_groups = std::get<2>(key);
      g.resource_names = std::get<3>(key);
      g.non_resource_urls = std::get<4>(key);
      for (const std::string& r : rule.resources) {
        if (!contains(g.resources, r)) g.resources.push_back(r);
      }
      for (const std::string& r : rule_risks(rule)) {
        if (!contains(g.risks, r)) g.risks.push_back(r);
      }
      if (!contains(g.via, b.display())) g.via.push_back(b.display());
    }
  }
  std::vector<PermissionGrant> out;
  out.reserve(merged.size());
  for (auto& [key, grant] : merged)
    out.push_back(std::move(grant));
  return out;
}

std::vector<SubjectPermissions> summarize_permissions(const Bundle& bundle,
                                                      const RbacPolicy& policy) {
  std::set<Subject> subjects;
  for (uint32_t index : bundle.of_kind("", "ServiceAccount")) {
    const Object& sa = bundle.objects[index];
    subjects.insert(Subject{SubjectKind::kServiceAccount, sa.name, sa.namespace_});
  }
  for (const RbacBinding& b : policy.bindings()) {
    if (!b.builtin()) subjects.insert(b.subjects.begin(), b.subjects.end());
  }
  std::vector<SubjectPermissions> out;
  for (const Subject& subject : subjects) {
    SubjectPermissions p;
    p.subject = subject;
    p.created_by_bundle = subject.kind == SubjectKind::kServiceAccount &&
                          bundle.find("", "ServiceAccount", subject.namespace_, subject.name);
    Identity who = identity_of(subject);
    std::set<const RbacRole*> roles;
    for (uint32_t index : policy.bindings_of(who)) {
      const RbacBinding& b = policy.bindings()[index];
      if (b.builtin()) continue;
      ++(b.cluster ? p.cluster_role_bindings : p.role_bindings);
      if (b.role) roles.insert(b.role);
    }
    for (const RbacRole* r : roles)
      ++(r->cluster ? p.cluster_roles : p.roles);
    p.grants = permissions_of(policy, who, false);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace footprint

namespace footprint {

tl::expected<std::vector<Expectation>, LoadError> load_expectations(
    const std::string& path, const ResourceTable& resources) {
  auto text = read_text_file(path);
  if (!text) return tl::unexpected(LoadError{path, {}, "cannot read: " + text.error()});
  auto docs = yaml::parse(*text);
  if (!docs) return tl::unexpected(LoadError{path, docs.error().position, docs.error().message});
  std::vector<Expectation> out;
  auto fail = [&](const yaml::Node& at, std::string message) {
    return tl::unexpected(LoadError{path, at.position(), std::move(message)});
  };
  if (docs->empty()) return out;
  yaml::Node list = docs->front().root;
  if (!list.is_sequence()) {
    return fail(list, "expected a list of {as, verb, resource, namespace, name}");
  }
  for (size_t i = 0; i < list.size(); ++i) {
    yaml::Node item = list.item(i);
    if (!item.is_mapping()) return fail(item, "each expectation must be a mapping");
    for (size_t k = 0; k < item.size(); ++k) {
      std::string_view key = item.key(k).text();
      if (key != "as" && key != "verb" && key != "resource" && key != "namespace" &&
          key != "name") {
        return fail(item.key(k), fmt::format("unknown field \"{}\" (expected as, verb, resource, "
                                             "namespace, name)",
                                             key));
      }
    }
    for (const char* required : {"as", "verb", "resource"}) {
      if (item.get(required).str().empty()) {
        return fail(item, fmt::format("an expectation needs {}", required));
      }
    }
    Expectation e;
    e.as = std::string(item.get("as").str());
    auto identity = Identity::parse(e.as, {});
    if (!identity) return fail(item.get("as"), identity.error());
    e.identity = std::move(*identity);
    auto request = make_request(item.get("verb").str(), item.get("resource").str(),
                                item.get("name").str(), item.get("namespace").str(), resources);
    if (!request) return fail(item.get("resource"), request.error());
    e.request = std::move(*request);
    e.file = path;
    e.position = item.position();
    out.push_back(std::move(e));
  }
  return out;
}

namespace {

void run_expectation_unmet(const Context& ctx, Findings& out) {
  for (const Expectation& e : ctx.expectations) {
    Decision d = ctx.rbac.authorize(e.identity, e.request);
    if (d.allowed) continue;
    ObjectId who{"v1", "User", "", e.identity.user};
    std::string_view user = e.identity.user;
    if (e.identity.is_service_account()) {
      std::string_view rest = user.substr(std::string_view("system:serviceaccount:").size());
      size_t colon = rest.find(':');
      who = ObjectId{"v1", "ServiceAccount", std::string(rest.substr(0, colon)),
                     std::string(rest.substr(colon + 1))};
    }
    out.add_at(
        std::move(who), e.file, e.position, Severity::kHigh,
        fmt::format("{} must be allowed to {}, but is not: {}.", e.as, e.request.describe(),
                    fmt::join(d.reasons, "; ")),
        fmt::format(
            "Grant {} on {} to {} in a rule without resourceNames, bound {}.", e.request.verb,
            e.request.is_resource_request() ? e.request.resource : e.request.path, e.as,
            e.request.namespace_.empty() ? std::string("with a ClusterRoleBinding")
                                         : "with a RoleBinding in " + e.request.namespace_));
  }
}

}  // namespace

extern const Check kRbacExpectationUnmet{
    "rbac-expectation-unmet", Severity::kHigh, "rbac",
    "A request that --expect says must be allowed is denied by the bundle's RBAC.",
    run_expectation_unmet};

}  // namespace footprint
