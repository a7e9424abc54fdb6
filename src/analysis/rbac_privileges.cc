// RBAC privilege checks: the power the install holds, so the admin can decide. Each right is
// judged where a binding of the bundle grants it (a Role's rule on a cluster-scoped resource
// grants nothing), one finding per role, severity from what the right is equivalent to.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

#include "analysis/rbac_internal.h"

namespace footprint {

namespace {

constexpr std::string_view kRbacGroup = "rbac.authorization.k8s.io";

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

bool allows_any_name(const PolicyRule& rule, std::string_view verb, std::string_view group,
                     std::string_view resource, std::string_view subresource = "") {
  return rule_allows(rule, resource_request(verb, group, resource, "x", subresource));
}

// A rule that grants every verb on every resource: rbac-wildcard reports it as cluster-admin
// (or full control of a namespace), which says all the other privilege checks would.
bool grants_everything(const PolicyRule& rule) {
  return contains(rule.verbs, "*") && contains(rule.resources, "*") &&
         contains(rule.api_groups, "*");
}

// A request as the messages show it: "list secrets", "create deployments.apps",
// "create pods/exec"; the groups of webhook configurations and CRDs go without saying.
std::string short_text(const Request& r) {
  bool obvious = r.api_group.empty() || r.api_group.find('.') != std::string::npos;
  return fmt::format("{} {}", r.verb,
                     group_resource(obvious ? "" : r.api_group, r.resource, r.subresource));
}

// A right found in one bound rule: the requests it allows, in the binding's scope.
struct Right {
  BoundRule grant;
  std::vector<Request> requests;
};

// A probe request for `bound`: cluster-wide for a ClusterRoleBinding or a cluster-scoped
// resource, else in the RoleBinding's namespace.
Request probe_request(const Context& ctx, const BoundRule& bound, std::string_view verb,
                      std::string_view group, std::string_view resource,
                      std::string_view subresource = "") {
  const ResourceInfo* info = ctx.bundle.resources.find_resource(group, resource);
  bool cluster_scoped = info && info->scope == Scope::kCluster;
  return resource_request(verb, group, resource, cluster_scoped ? "" : scope_of(bound),
                          subresource);
}

// Per subject, the bound rules for which `probe` finds rights: what one account or group may
// do, and through which roles.
struct SubjectRights {
  Subject subject;
  std::vector<Right> rights;

  // "ClusterRole a (ClusterRoleBinding a), ClusterRole b (ClusterRoleBinding c)".
  std::string sources() const {
    std::vector<std::string> out;
    for (const Right& r : rights) {
      std::string source =
          fmt::format("{} (through {})", r.grant.role->display(), r.grant.binding->display());
      if (!contains(out, source)) out.push_back(std::move(source));
    }
    return some_of(out, 2);
  }
  std::vector<std::string> roles() const {
    std::vector<std::string> out;
    for (const Right& r : rights) {
      if (!contains(out, r.grant.role->display())) out.push_back(r.grant.role->display());
    }
    return out;
  }

  std::vector<BoundRule> grants() const {
    std::vector<BoundRule> out;
    for (const Right& r : rights)
      out.push_back(r.grant);
    return out;
  }
  std::vector<std::string> what() const {
    std::vector<std::string> out;
    for (const Right& r : rights) {
      for (const Request& request : r.requests) {
        std::string w = short_text(request);
        if (!contains(out, w)) out.push_back(std::move(w));
      }
    }
    return out;
  }
  // Every namespace the rights hold in; "" stands for all of them.
  std::vector<std::string> scopes() const {
    std::vector<std::string> out;
    for (const Right& r : rights) {
      if (!contains(out, scope_of(r.grant))) out.push_back(scope_of(r.grant));
    }
    return out;
  }
  bool cluster_wide() const { return contains(scopes(), ""); }
};

std::vector<SubjectRights> rights_by_subject(
    const Context& ctx, const std::function<std::vector<Request>(const BoundRule&)>& probe) {
  std::vector<SubjectRights> out;
  for (const BoundRule& b : bound_rules(ctx.rbac)) {
    if (grants_everything(*b.rule)) continue;
    std::vector<Request> requests = probe(b);
    if (requests.empty()) continue;
    for (const Subject& s : b.binding->subjects) {
      auto it = std::find_if(out.begin(), out.end(),
                             [&](const SubjectRights& e) { return e.subject == s; });
      if (it == out.end()) it = out.insert(out.end(), SubjectRights{s, {}});
      it->rights.push_back(Right{b, requests});
    }
  }
  return out;
}

std::string scopes_text(const SubjectRights& rr) {
  if (rr.cluster_wide()) return "in every namespace";
  std::vector<std::string> scopes = rr.scopes();
  return fmt::format("in namespace{} {}", scopes.size() == 1 ? "" : "s", fmt::join(scopes, ", "));
}

Finding& report(Findings& out, const SubjectRights& rr, Severity severity, std::string message,
                std::string fix, std::string summary) {
  const BoundRule& first = rr.rights.front().grant;
  Finding& f =
      out.add(object_of(first), severity, std::move(message), std::move(fix), node_of(first));
  f.summary = std::move(summary);
  f.affects.emplace_back("subjects", std::vector<std::string>{rr.subject.display()});
  f.affects.emplace_back("roles", rr.roles());
  // Requests as Request::describe() writes them, which `footprint can-i` answers.
  std::vector<std::string> claims;
  for (const Right& r : rr.rights) {
    for (const Request& request : r.requests) {
      std::string claim = request.describe();
      if (!contains(claims, claim)) claims.push_back(std::move(claim));
    }
  }
  f.affects.emplace_back("grants", std::move(claims));
  return f;
}

// Namespaces where other teams' or the cluster's own objects live.
bool foreign_namespace(const Context& ctx, const std::string& ns) {
  for (const ClusterNamespace& n : ctx.namespaces) {
    if (n.name == ns) return !n.operator_owned;
  }
  return true;
}

void run_secrets_cluster_wide(const Context& ctx, Findings& out) {
  auto probe = [&](const BoundRule& b) {
    std::vector<Request> requests;
    if (!b.binding->cluster) return requests;
    for (const char* verb : {"get", "list", "watch"}) {
      if (grants(ctx.bundle.resources, b, verb, "", "secrets"))
        requests.push_back(probe_request(ctx, b, verb, "", "secrets"));
    }
    return requests;
  };
  for (const SubjectRights& rr : rights_by_subject(ctx, probe)) {
    report(
        out, rr, Severity::kHigh,
        fmt::format("{} may read Secrets in every namespace ({}), through {}. That includes every "
                    "team's credentials and service account tokens.",
                    rr.subject.display(), merge_verbs(rr.what()), rr.sources()),
        "Grant Secret access with Roles in the namespaces the operator manages, or limit get "
        "with resourceNames.",
        fmt::format("{} reads Secrets in every namespace", rr.subject.display()));
  }
}

}  // namespace

extern const Check kRbacSecretsClusterWide{
    "rbac-secrets-cluster-wide",
    Severity::kHigh,
    Severity::kHigh,
    Impact::kPrivilege,
    "rbac",
    "get, list or watch on secrets is granted in all namespaces.",
    run_secrets_cluster_wide,
    "get, list or watch on Secrets through a ClusterRoleBinding reads every team's credentials and "
    "service account tokens. High. Rules limited by resourceNames, and rules that grant everything "
    "(rbac-wildcard's), are not reported here.",
    "Grant Secret access with Roles in the namespaces the operator manages, or limit get with "
    "resourceNames."};

namespace {

// kube-system holds the cluster's own credentials and the ServiceAccounts of its controllers,
// some of which may escalate; its ConfigMaps configure cluster DNS (coredns) and, on EKS, map
// IAM identities to cluster users (aws-auth). Rights there are worth as much as their
// cluster-wide twins.
void run_kube_system_grant(const Context& ctx, Findings& out) {
  auto probe = [&](const BoundRule& b) {
    std::vector<Request> requests;
    if (b.binding->cluster || b.binding->namespace_ != "kube-system") return requests;
    auto add = [&](std::string_view verb, std::string_view group, std::string_view resource,
                   std::string_view sub = "") {
      if (grants(ctx.bundle.resources, b, verb, group, resource, sub))
        requests.push_back(probe_request(ctx, b, verb, group, resource, sub));
    };
    for (const char* verb : {"get", "list"})
      add(verb, "", "secrets");
    for (const WorkloadResource& w : kPodCreators)
      add("create", w.group, w.resource);
    for (const char* verb : {"update", "patch"})
      add(verb, "", "configmaps");
    return requests;
  };
  for (const SubjectRights& rr : rights_by_subject(ctx, probe)) {
    report(out, rr, Severity::kHigh,
           fmt::format("{} may {} in kube-system, through {}. kube-system holds the cluster's own "
                       "credentials and its controllers' ServiceAccounts (a pod created there can "
                       "run as one of them, and some may escalate ClusterRoles), and its "
                       "ConfigMaps configure cluster DNS and, on EKS, who is a cluster user "
                       "(aws-auth).",
                       rr.subject.display(), merge_verbs(rr.what()), rr.sources()),
           "Bind the operator's rights in its own namespace; in kube-system, grant only named "
           "objects (resourceNames) such as a leader-election lease.",
           fmt::format("{} may {} in kube-system", rr.subject.display(), some_of(rr.what(), 2)));
  }
}

}  // namespace

extern const Check kRbacKubeSystemGrant{
    "rbac-kube-system-grant",
    Severity::kHigh,
    Severity::kHigh,
    Impact::kPrivilege,
    "rbac",
    "A RoleBinding in kube-system grants reading Secrets, creating workloads or changing "
    "ConfigMaps there.",
    run_kube_system_grant,
    "kube-system holds the cluster's own credentials and its controllers' ServiceAccounts, and its "
    "ConfigMaps configure cluster DNS and, on EKS, IAM-to-user mapping (aws-auth); a RoleBinding "
    "there that allows reading Secrets, creating pods or workloads, or changing ConfigMaps is as "
    "powerful as its cluster-wide twin. High. Exec there is rbac-pod-exec's; rights limited by "
    "resourceNames (a leader-election lease) and rules that grant everything (rbac-wildcard's) "
    "are not reported here.",
    "Keep the operator's rights in its own namespace; in kube-system grant only named objects."};

namespace {

// Deleting everything in a scope destroys other teams' work; deleting events erases what
// happened, which is how incidents are understood.
void run_destructive_delete(const Context& ctx, Findings& out) {
  auto probe = [&](const BoundRule& b) {
    std::vector<Request> requests;
    bool every_resource = contains(b.rule->resources, "*") && contains(b.rule->api_groups, "*") &&
                          b.rule->resource_names.empty();
    for (const char* verb : {"delete", "deletecollection"}) {
      if (every_resource && verb_matches(*b.rule, verb))
        requests.push_back(probe_request(ctx, b, verb, "*", "*"));
    }
    if (b.binding->cluster && grants(ctx.bundle.resources, b, "delete", "", "namespaces"))
      requests.push_back(probe_request(ctx, b, "delete", "", "namespaces"));
    for (const char* group : {"", "events.k8s.io"}) {
      for (const char* verb : {"delete", "deletecollection"}) {
        if (grants(ctx.bundle.resources, b, verb, group, "events"))
          requests.push_back(probe_request(ctx, b, verb, group, "events"));
      }
    }
    return requests;
  };
  for (const SubjectRights& rr : rights_by_subject(ctx, probe)) {
    std::vector<std::string> what = rr.what();
    bool everything = std::any_of(rr.rights.begin(), rr.rights.end(), [](const Right& r) {
      return std::any_of(r.requests.begin(), r.requests.end(),
                         [](const Request& q) { return q.resource == "*"; });
    });
    bool namespaces = std::any_of(what.begin(), what.end(),
                                  [](const std::string& w) { return w == "delete namespaces"; });
    bool wide = rr.cluster_wide() || contains(rr.scopes(), "kube-system");
    Severity severity = (everything || namespaces) && wide ? Severity::kHigh : Severity::kMedium;
    std::string consequence =
        everything   ? "it can delete every object of every kind there, other teams' workloads and "
                       "data included"
        : namespaces ? "deleting a namespace deletes everything in it"
                     : "deleting events erases the record of what happened, which is how "
                       "incidents are understood";
    // Namespaces are cluster-scoped: "in every namespace" would say nothing.
    bool only_namespaces = namespaces && what.size() == 1;
    std::string scope = only_namespaces ? "" : " " + scopes_text(rr);
    std::string deletes = everything        ? "delete objects of every kind"
                          : only_namespaces ? "delete any namespace"
                                            : merge_verbs(what);
    report(out, rr, severity,
           fmt::format("{} may {}{}, through {}: {}.", rr.subject.display(), deletes, scope,
                       rr.sources(), consequence),
           "Grant delete only on the resources the operator manages, and never on events or "
           "namespaces it does not own.",
           fmt::format("{} may {}{}", rr.subject.display(),
                       everything        ? "delete anything"
                       : only_namespaces ? "delete any namespace"
                                         : some_of(what, 2),
                       scope));
  }
}

}  // namespace

extern const Check kRbacDestructiveDelete{
    "rbac-destructive-delete",
    Severity::kMedium,
    Severity::kHigh,
    Impact::kPrivilege,
    "rbac",
    "A binding allows deleting every kind of object, namespaces, or events.",
    run_destructive_delete,
    "delete or deletecollection on every resource of every group destroys other teams' work; "
    "deleting a namespace deletes everything in it; deleting events erases what happened. High "
    "for deleting everything or namespaces cluster-wide or in kube-system; medium in one "
    "namespace, and for events.",
    "Grant delete only on the resources the operator manages."};

namespace {

// What a rule's "*" covers, in words, with its API groups named.
struct WildcardReach {
  bool everything = false;  // every verb on every resource of every group
  bool builtin = false;     // reaches built-in resources
  bool own_only = false;    // only the install's own API groups
  std::string text;
};

WildcardReach wildcard_reach(const Context& ctx, const PolicyRule& rule) {
  WildcardReach w;
  bool all_verbs = contains(rule.verbs, "*");
  bool all_resources = contains(rule.resources, "*");
  bool all_groups = contains(rule.api_groups, "*");
  w.everything = all_verbs && all_resources && all_groups;
  w.builtin = all_groups || std::any_of(rule.api_groups.begin(), rule.api_groups.end(),
                                        [&](const std::string& g) {
                                          return ctx.bundle.resources.is_builtin_group(g);
                                        });
  w.own_only = !all_groups && !rule.api_groups.empty() &&
               std::all_of(rule.api_groups.begin(), rule.api_groups.end(),
                           [&](const std::string& g) { return own_group(ctx, g); });
  if (!rule.non_resource_urls.empty()) {
    w.everything = false;
    w.builtin = false;
    w.text = fmt::format(
        "{} on the non-resource URLs {}",
        contains(rule.verbs, "*") ? "every verb" : fmt::format("{}", fmt::join(rule.verbs, ", ")),
        fmt::join(rule.non_resource_urls, ", "));
    return w;
  }
  std::vector<std::string> groups;
  for (const std::string& g : rule.api_groups)
    groups.push_back(g == "*" ? "every API group" : g.empty() ? "the core group" : g);
  std::string verbs = all_verbs ? "every verb" : fmt::format("{}", fmt::join(rule.verbs, ", "));
  std::string resources =
      all_resources ? "every resource" : fmt::format("{}", fmt::join(rule.resources, ", "));
  w.text = fmt::format("{} on {} of {}", verbs, resources, fmt::join(groups, ", "));
  return w;
}

void run_wildcard(const Context& ctx, Findings& out) {
  std::vector<RoleGrants> bound = by_role(bound_rules(ctx.rbac));
  auto rate = [&](const BoundRule& b, const WildcardReach& w) {
    std::string ns = scope_of(b);
    if (!b.rule->non_resource_urls.empty()) return Severity::kLow;  // /healthz, /metrics...
    if (w.everything) {
      if (ns.empty() || ns == "kube-system") return Severity::kCritical;
      return foreign_namespace(ctx, ns) ? Severity::kHigh : Severity::kMedium;
    }
    if (w.own_only) return Severity::kLow;
    if (w.builtin) {
      bool all_resources = contains(b.rule->resources, "*") && contains(b.rule->verbs, "*");
      if (ns.empty()) return all_resources ? Severity::kHigh : Severity::kMedium;
      if (ns == "kube-system") return Severity::kHigh;
      return foreign_namespace(ctx, ns) ? Severity::kMedium : Severity::kLow;
    }
    return Severity::kMedium;  // another project's resources
  };
  auto has_wildcard = [](const PolicyRule& r) {
    return contains(r.verbs, "*") || contains(r.resources, "*") || contains(r.api_groups, "*");
  };
  std::set<const RbacRole*> reported;
  for (const RoleGrants& g : bound) {
    Severity severity = Severity::kInfo;
    const BoundRule* worst = nullptr;
    std::vector<std::string> rules;
    for (const BoundRule& b : g.grants) {
      if (!has_wildcard(*b.rule)) continue;
      WildcardReach w = wildcard_reach(ctx, *b.rule);
      Severity s = rate(b, w);
      if (!worst || s > severity) {
        severity = s;
        worst = &b;
      }
      if (!contains(rules, w.text)) rules.push_back(w.text);
    }
    if (!worst) continue;
    reported.insert(g.role);
    std::vector<BoundRule> holders_of;
    for (const BoundRule& b : g.grants) {
      if (has_wildcard(*b.rule)) holders_of.push_back(b);
    }
    std::string equivalent =
        severity == Severity::kCritical
            ? " That is cluster-admin: full control of the cluster, every team's workloads and "
              "credentials included."
        : wildcard_reach(ctx, *worst->rule).everything
            ? fmt::format(" That is full control of namespace {}.", scope_of(*worst))
            : "";
    Finding& f = out.add(
        object_of(*worst), severity,
        fmt::format("{} uses \"*\": {}, granted to {}. It covers verbs and resources that future "
                    "Kubernetes versions and CRDs add.{}",
                    g.role->builtin() ? g.role->display() + " (built in)" : g.role->display(),
                    fmt::join(rules, "; "), holders(holders_of), equivalent),
        severity == Severity::kCritical
            ? "Bind a ClusterRole that lists what the operator needs instead; keep \"*\" only on "
              "the operator's own API group."
            : "List the verbs, resources and API groups the operator uses.",
        node_of(*worst));
    f.summary = severity == Severity::kCritical
                    ? fmt::format("{} is cluster-admin ({})", some_of(subject_list(holders_of), 1),
                                  g.role->display())
                    : fmt::format("\"*\" in {}: {}", g.role->display(), some_of(rules, 1));
    f.affects.emplace_back("rules", rules);
    f.affects.emplace_back("subjects", subject_list(holders_of));
  }
  // Roles nothing binds yet: whoever binds them later gets the wildcard.
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin() || reported.count(&role) || !bindings_of(ctx.rbac, role).empty()) continue;
    for (const PolicyRule& rule : role.rules) {
      if (!has_wildcard(rule)) continue;
      WildcardReach w = wildcard_reach(ctx, rule);
      Finding& f = out.add(*role.object, Severity::kInfo,
                           fmt::format("{} uses \"*\": {}. Nothing in the bundle binds it yet; "
                                       "whoever binds it gets that.",
                                       role.display(), w.text),
                           "List the verbs, resources and API groups the role needs.", rule.node);
      f.summary = fmt::format("\"*\" in unbound {}", role.display());
      break;
    }
  }
}

}  // namespace

extern const Check kRbacWildcard{
    "rbac-wildcard",
    Severity::kInfo,
    Severity::kCritical,
    Impact::kPrivilege,
    "rbac",
    "A rule grants \"*\" in verbs, resources or apiGroups, or a "
    "binding grants cluster-admin.",
    run_wildcard,
    "\"*\" grants what future Kubernetes versions and CRDs add, and every verb on every resource "
    "of every group is cluster-admin. Critical for everything granted cluster-wide or in "
    "kube-system; high for everything in another team's namespace or \"*\" over a built-in group "
    "cluster-wide; medium for other projects' groups or built-in wildcards in one namespace; low "
    "on the install's own API group (the kubebuilder default); info for roles nothing binds. The "
    "message names the API groups.",
    "List the verbs, resources and groups the operator uses; keep \"*\" to its own API group."};

namespace {

struct Escalation {
  std::vector<std::string> rights;
  std::string takeover;  // how it reaches cluster-admin, when it does
};

// Rights that let a holder gain permissions it was not given, and whether they reach
// cluster-admin: impersonating any user or group (system:masters), or escalating and binding
// ClusterRoles while able to create ClusterRoleBindings.
Escalation escalation_of(const Context& ctx, const BoundRule& b) {
  Escalation e;
  const PolicyRule& r = *b.rule;
  const ResourceTable& resources = ctx.bundle.resources;
  bool cluster = b.binding->cluster;
  bool any_name = r.resource_names.empty();
  for (const char* verb : {"escalate", "bind"}) {
    for (const char* kind : {"clusterroles", "roles"}) {
      if (grants(resources, b, verb, kRbacGroup, kind)) {
        e.rights.push_back(fmt::format("{} {}", verb, kind));
      }
    }
  }
  bool users = false;
  bool groups = false;
  for (const char* who : {"users", "groups", "serviceaccounts", "uids"}) {
    // Impersonation of users and groups is cluster-scoped; of service accounts, namespaced.
    bool namespaced = std::string_view(who) == "serviceaccounts";
    if (!verb_matches(r, "impersonate") || !api_group_matches(r, "") ||
        !resource_matches(r, who, "") || (!namespaced && !cluster)) {
      continue;
    }
    e.rights.push_back(fmt::format("impersonate {}", who));
    users = users || (std::string_view(who) == "users" && any_name);
    groups = groups || (std::string_view(who) == "groups" && any_name);
  }
  // The API server's impersonation filter accepts a group only together with a user; any user
  // in group system:masters is cluster-admin.
  if (users && groups) e.takeover = "impersonating any user in group system:masters";
  if (grants(resources, b, "create", "", "serviceaccounts", "token")) {
    e.rights.emplace_back("create serviceaccounts/token");
  }
  bool roles_power = grants(resources, b, "escalate", kRbacGroup, "clusterroles") ||
                     grants(resources, b, "bind", kRbacGroup, "clusterroles");
  if (cluster && roles_power && any_name && e.takeover.empty()) {
    for (const Subject& s : b.binding->subjects) {
      Request create = resource_request("create", kRbacGroup, "clusterrolebindings", "");
      if (ctx.rbac.authorize(identity_of(s), create).allowed) {
        e.takeover = "binding cluster-admin, or any ClusterRole it writes, to itself";
      }
    }
  }
  return e;
}

void run_privilege_escalation(const Context& ctx, Findings& out) {
  std::set<const RbacRole*> reported;
  for (const RoleGrants& g : by_role(bound_rules(ctx.rbac))) {
    Severity severity = Severity::kInfo;
    std::vector<std::string> rights;
    std::vector<BoundRule> with;
    std::string takeover;
    for (const BoundRule& b : g.grants) {
      if (grants_everything(*b.rule)) continue;
      Escalation e = escalation_of(ctx, b);
      if (e.rights.empty()) continue;
      with.push_back(b);
      for (const std::string& r : e.rights) {
        if (!contains(rights, r)) rights.push_back(r);
      }
      std::string ns = scope_of(b);
      Severity s = !e.takeover.empty()                 ? Severity::kCritical
                   : ns.empty() || ns == "kube-system" ? Severity::kHigh
                   : foreign_namespace(ctx, ns)        ? Severity::kMedium
                                                       : Severity::kLow;
      if (takeover.empty()) takeover = e.takeover;
      severity = std::max(severity, s);
    }
    if (with.empty()) continue;
    reported.insert(g.role);
    std::string names =
        with.front().rule->resource_names.empty()
            ? ""
            : fmt::format(" (only for {})", bracketed(with.front().rule->resource_names));
    Finding& f = out.add(
        object_of(with.front()), severity,
        fmt::format("{} can {}{}, granted to {}: whoever holds it can gain permissions it was "
                    "not given{}.",
                    g.role->display(), fmt::join(rights, ", "), names, holders(with),
                    !takeover.empty() ? fmt::format(", up to cluster-admin ({})", takeover)
                                      : ", up to what the roles and accounts in its reach hold"),
        "Remove these verbs unless the operator's purpose is managing RBAC or tokens, and then "
        "restrict them with resourceNames.",
        node_of(with.front()));
    f.summary = fmt::format("{} can {}", some_of(subject_list(with), 1), some_of(rights, 2));
    f.affects.emplace_back("rights", rights);
    f.affects.emplace_back("subjects", subject_list(with));
  }
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin() || reported.count(&role) || !bindings_of(ctx.rbac, role).empty()) continue;
    for (const PolicyRule& rule : role.rules) {
      if (grants_everything(rule)) continue;  // rbac-wildcard's
      // The verbs mean something only on the resources the authorizer asks them for: escalate
      // and bind on roles and clusterroles, impersonate on identities. `*` verbs on secrets
      // grant no escalation.
      std::vector<std::string> rights;
      for (const char* verb : {"escalate", "bind"}) {
        bool on_roles =
            api_group_matches(rule, kRbacGroup) &&
            (resource_matches(rule, "roles", "") || resource_matches(rule, "clusterroles", ""));
        if (verb_matches(rule, verb) && on_roles) rights.emplace_back(verb);
      }
      bool on_identities =
          (api_group_matches(rule, "") &&
           (resource_matches(rule, "users", "") || resource_matches(rule, "groups", "") ||
            resource_matches(rule, "serviceaccounts", ""))) ||
          (api_group_matches(rule, "authentication.k8s.io") && resource_matches(rule, "uids", ""));
      if (verb_matches(rule, "impersonate") && on_identities) rights.emplace_back("impersonate");
      if (rights.empty()) continue;
      Finding& f =
          out.add(*role.object, Severity::kInfo,
                  fmt::format("{} allows {}; nothing in the bundle binds it yet, but "
                              "whoever is bound to it can gain permissions it was not "
                              "given.",
                              role.display(), fmt::join(rights, ", ")),
                  "Remove these verbs unless the role is meant for managing RBAC.", rule.node);
      f.summary = fmt::format("Unbound {} allows {}", role.display(), fmt::join(rights, ", "));
      break;
    }
  }
}

}  // namespace

extern const Check kRbacPrivilegeEscalation{
    "rbac-privilege-escalation",
    Severity::kInfo,
    Severity::kCritical,
    Impact::kPrivilege,
    "rbac",
    "A rule grants escalate, bind, impersonate, or create on serviceaccounts/token.",
    run_privilege_escalation,
    "escalate, bind, impersonate and serviceaccounts/token let the holder gain permissions it was "
    "not given. Critical when that reaches cluster-admin: impersonating any user and group (a user "
    "in system:masters), or escalate or bind on ClusterRoles together with creating "
    "ClusterRoleBindings; high for other cluster-wide or kube-system rights; medium in another "
    "team's namespace; low in the operator's own; info when unbound.",
    "Remove these verbs unless managing RBAC or tokens is the operator's purpose, and restrict "
    "them with resourceNames."};

namespace {

void run_workload_create_cluster_wide(const Context& ctx, Findings& out) {
  auto probe = [&](const BoundRule& b) {
    std::vector<Request> requests;
    if (!b.binding->cluster) return requests;
    for (const WorkloadResource& w : kPodCreators) {
      if (grants(ctx.bundle.resources, b, "create", w.group, w.resource))
        requests.push_back(probe_request(ctx, b, "create", w.group, w.resource));
    }
    return requests;
  };
  for (const SubjectRights& rr : rights_by_subject(ctx, probe)) {
    report(out, rr, Severity::kHigh,
           fmt::format("{} may create workloads in every namespace ({}), through {}. A pod can run "
                       "as any ServiceAccount of its namespace, so this is equivalent to every "
                       "ServiceAccount's permissions in the cluster.",
                       rr.subject.display(), merge_verbs(rr.what()), rr.sources()),
           "Grant workload creation with Roles in the namespaces the operator manages, or "
           "restrict the operator to its own namespace.",
           fmt::format("{} creates pods in every namespace, as any ServiceAccount",
                       rr.subject.display()));
  }
}

}  // namespace

extern const Check kRbacWorkloadCreateClusterWide{
    "rbac-workload-create-cluster-wide",
    Severity::kHigh,
    Severity::kHigh,
    Impact::kPrivilege,
    "rbac",
    "Creating pods or pod-creating workloads is granted in all namespaces.",
    run_workload_create_cluster_wide,
    "Creating pods, or workloads that create pods, in every namespace lets the holder run a pod as "
    "any ServiceAccount of any namespace, so it has every ServiceAccount's permissions. High: the "
    "usual power of a cluster-wide operator, which the approver should know about.",
    "Grant workload creation with Roles in the namespaces the operator manages."};

namespace {

void run_pod_exec(const Context& ctx, Findings& out) {
  auto probe = [&](const BoundRule& b) {
    std::vector<Request> requests;
    for (const char* sub : {"exec", "attach", "portforward"}) {
      for (const char* verb : {"create", "get"}) {
        if (grants(ctx.bundle.resources, b, verb, "", "pods", sub)) {
          requests.push_back(probe_request(ctx, b, verb, "", "pods", sub));
          break;
        }
      }
    }
    for (const char* verb : {"get", "create"}) {
      if (grants(ctx.bundle.resources, b, verb, "", "nodes", "proxy")) {
        requests.push_back(probe_request(ctx, b, verb, "", "nodes", "proxy"));
        break;
      }
    }
    return requests;
  };
  for (const SubjectRights& rr : rights_by_subject(ctx, probe)) {
    std::vector<std::string> what = rr.what();
    bool kubelet = std::any_of(what.begin(), what.end(),
                               [](const std::string& w) { return w.ends_with(" nodes/proxy"); });
    bool by_get = std::any_of(what.begin(), what.end(),
                              [](const std::string& w) { return w.starts_with("get "); });
    bool wide = rr.cluster_wide() || kubelet;
    // One copy: begin() and end() of two temporaries would walk between unrelated buffers.
    std::vector<std::string> scopes = rr.scopes();
    bool kube_system = contains(scopes, "kube-system");
    bool foreign = std::any_of(scopes.begin(), scopes.end(),
                               [&](const std::string& ns) { return foreign_namespace(ctx, ns); });
    Severity severity = wide || kube_system ? Severity::kHigh
                        : foreign           ? Severity::kMedium
                                            : Severity::kLow;
    report(out, rr, severity,
           fmt::format("{} may {} {}, through {}: running commands inside containers{}, with "
                       "their mounted secrets and tokens.{}",
                       rr.subject.display(), merge_verbs(what),
                       kubelet ? "on every node" : scopes_text(rr), rr.sources(),
                       kubelet ? " through the kubelet API of every node" : "",
                       by_get ? " get is enough: on Kubernetes 1.34 the API server authorizes a "
                                "WebSocket exec, attach or port-forward as get (KEP-4006 requires "
                                "create from 1.35), and the kubelet authorizes its own WebSocket "
                                "endpoints the same way."
                              : ""),
           "Remove exec, attach, port-forward and nodes/proxy unless the operator needs them; "
           "prefer its own API over exec.",
           fmt::format("{} can exec into pods {}", rr.subject.display(),
                       kubelet ? "on every node" : scopes_text(rr)));
  }
}

}  // namespace

extern const Check kRbacPodExec{
    "rbac-pod-exec",
    Severity::kLow,
    Severity::kHigh,
    Impact::kPrivilege,
    "rbac",
    "A rule allows pods/exec, pods/attach, pods/portforward or "
    "nodes/proxy where it is bound.",
    run_pod_exec,
    "pods/exec, pods/attach and pods/portforward reach into running containers and their mounted "
    "credentials; nodes/proxy reaches the kubelet API of every node. High cluster-wide, on "
    "nodes/proxy or in kube-system; medium in another team's namespace; low in the operator's own.",
    "Remove exec, attach, port-forward and nodes/proxy unless the operator needs them."};

namespace {

void run_webhook_config_write(const Context& ctx, Findings& out) {
  const std::string group = "admissionregistration.k8s.io";
  auto probe = [&](const BoundRule& b) {
    std::vector<Request> requests;
    for (const char* resource : {"mutatingwebhookconfigurations", "validatingwebhookconfigurations",
                                 "validatingadmissionpolicies", "validatingadmissionpolicybindings",
                                 "mutatingadmissionpolicies", "mutatingadmissionpolicybindings"}) {
      for (const char* verb : {"create", "update", "patch", "delete"}) {
        if (!grants(ctx.bundle.resources, b, verb, group, resource, "", Names::kSome)) continue;
        Request r = probe_request(ctx, b, verb, group, resource);
        if (verb != std::string_view("create") && !b.rule->resource_names.empty())
          r.name = b.rule->resource_names.front();
        requests.push_back(std::move(r));
      }
    }
    return requests;
  };
  for (const SubjectRights& rr : rights_by_subject(ctx, probe)) {
    // create cannot be limited by name; the other verbs can.
    bool any_name = std::any_of(rr.rights.begin(), rr.rights.end(), [](const Right& r) {
      return r.grant.rule->resource_names.empty() ||
             std::any_of(r.requests.begin(), r.requests.end(),
                         [](const Request& q) { return q.verb == "create"; });
    });
    bool webhooks = false;
    bool policies = false;
    std::vector<std::string> own;  // the names every rule is limited to, in rule order
    for (const Right& r : rr.rights) {
      for (const Request& q : r.requests) {
        bool policy = q.resource.find("admissionpolic") != std::string::npos;
        policies = policies || policy;
        webhooks = webhooks || !policy;
      }
      for (const std::string& n : r.grant.rule->resource_names)
        if (!contains(own, n)) own.push_back(n);
    }
    std::string what = webhooks && policies ? "webhook configuration or admission policy"
                       : policies           ? "admission policy"
                                            : "webhook configuration";
    std::string power =
        webhooks && policies
            ? "Webhook configurations decide which API requests are sent to which server, and "
              "admission policies with their bindings which ones the API server rejects or changes"
        : policies ? "An admission policy with its binding decides which API requests the API "
                     "server rejects or changes"
                   : "A webhook configuration decides which API requests are sent to which server";
    std::string names = any_name ? fmt::format("any {}, other teams' included", what)
                                 : fmt::format("only {}", bracketed(own));
    report(out, rr, any_name ? Severity::kHigh : Severity::kLow,
           fmt::format("{} may {} ({}), through {}. {}{}.", rr.subject.display(),
                       merge_verbs(rr.what()), names, rr.sources(), power,
                       any_name ? ", so this can intercept or block writes anywhere in the cluster"
                                : "; limited to the operator's own, this is how operators inject "
                                  "their CA"),
           any_name ? fmt::format("Restrict update and patch with resourceNames to the operator's "
                                  "own, and drop create and delete unless managing {}s is the "
                                  "operator's purpose.",
                                  what)
                    : "Already limited by resourceNames: nothing to change when these are the "
                      "operator's own; remove the right if the bundle injects the CA itself.",
           any_name ? fmt::format("{} can rewrite any {}", rr.subject.display(), what)
                    : fmt::format("{} can update its own {}s", rr.subject.display(), what));
  }
}

}  // namespace

extern const Check kRbacWebhookConfigWrite{
    "rbac-webhook-config-write",
    Severity::kLow,
    Severity::kHigh,
    Impact::kPrivilege,
    "rbac",
    "A binding allows writing admission webhook configurations or admission policies.",
    run_webhook_config_write,
    "A webhook configuration decides which API requests are sent to which server, and a "
    "ValidatingAdmissionPolicy or MutatingAdmissionPolicy with its binding rejects or changes "
    "requests in the API server itself; writing any of them can intercept or block writes "
    "anywhere in the cluster. High for any configuration or policy "
    "(create cannot be limited by name); low when limited by resourceNames to the operator's own, "
    "which is how operators inject their CA. Only ClusterRoleBindings grant it: the resources are "
    "cluster-scoped.",
    "Limit update and patch with resourceNames to the operator's own configurations, and drop "
    "create and delete."};

namespace {

void run_crd_write(const Context& ctx, Findings& out) {
  auto probe = [&](const BoundRule& b) {
    std::vector<Request> requests;
    for (const char* verb : {"create", "update", "patch"}) {
      if (!grants(ctx.bundle.resources, b, verb, "apiextensions.k8s.io",
                  "customresourcedefinitions", "", Names::kSome)) {
        continue;
      }
      Request r = probe_request(ctx, b, verb, "apiextensions.k8s.io", "customresourcedefinitions");
      if (verb != std::string_view("create") && !b.rule->resource_names.empty())
        r.name = b.rule->resource_names.front();
      requests.push_back(std::move(r));
    }
    return requests;
  };
  for (const SubjectRights& rr : rights_by_subject(ctx, probe)) {
    std::vector<std::string> what = rr.what();
    bool creates = contains(what, "create customresourcedefinitions");
    std::vector<std::string> named;
    bool any_name = false;
    for (const Right& r : rr.rights) {
      any_name = any_name || r.grant.rule->resource_names.empty();
      for (const std::string& n : r.grant.rule->resource_names) {
        if (!contains(named, n)) named.push_back(n);
      }
    }
    std::string hidden =
        creates && any_name ? "it may create any CustomResourceDefinition, and rewrite any"
        : creates           ? fmt::format(
                                  "it may create any CustomResourceDefinition, and "
                                            "rewrite {}",
                                  bracketed(named))
        : any_name ? "it may rewrite any CustomResourceDefinition in the cluster, other "
                     "projects' included"
                   : fmt::format("it may rewrite the CRDs {}", bracketed(named));
    Severity severity = creates || any_name ? Severity::kMedium : Severity::kLow;
    report(out, rr, severity,
           fmt::format("{} may {}, through {}: the operator {} CRDs at run time, so its true "
                       "cluster footprint is larger than this bundle. Hidden footprint: {}.",
                       rr.subject.display(), merge_verbs(what), rr.sources(),
                       creates ? "may install" : "may change", hidden),
           creates || any_name
               ? "Ship the CRDs in the bundle (or a CRD chart) and remove this right, or restrict "
                 "update and patch to the operator's own CRDs with resourceNames."
               : "Already limited to named CRDs: nothing to change when they are the operator's "
                 "own (the usual way to inject a conversion webhook's CA); remove the right if "
                 "the bundle wires the CA itself.",
           fmt::format("{} can {} CRDs at run time", rr.subject.display(),
                       creates ? "install" : "rewrite"));
  }
}

}  // namespace

extern const Check kRbacCrdWrite{
    "rbac-crd-write",
    Severity::kLow,
    Severity::kMedium,
    Impact::kPrivilege,
    "rbac",
    "A ClusterRoleBinding allows creating or changing "
    "CustomResourceDefinitions.",
    run_crd_write,
    "A subject that may update or patch any CustomResourceDefinition can rewrite other projects' "
    "APIs (schemas, versions, conversion); with create it installs CRDs beyond the bundle (also "
    "crd-installed-at-runtime). Medium for any CRD or create; low when limited by resourceNames to "
    "named CRDs.",
    "Ship the CRDs in the bundle and remove the right, or limit update and patch to the operator's "
    "own CRDs."};

namespace {

void run_broad_group_binding(const Context& ctx, Findings& out) {
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (b.builtin()) continue;
    std::set<std::string> risks;
    if (b.role) {
      for (const PolicyRule& rule : b.role->rules) {
        for (const std::string& r : rule_risks(rule))
          risks.insert(r);
      }
    }
    for (const Subject& s : b.subjects) {
      std::string who;
      bool anonymous = (s.kind == SubjectKind::kGroup && s.name == "system:unauthenticated") ||
                       (s.kind == SubjectKind::kUser && s.name == "system:anonymous");
      bool one_namespace = false;
      if (anonymous) {
        who = "anyone who can reach the API server, without credentials";
      } else if (s.kind != SubjectKind::kGroup) {  // NOLINT(bugprone-branch-clone): named users
        continue;
      } else if (s.name == "system:authenticated") {
        who = "every authenticated user and service account";
      } else if (s.name == "system:serviceaccounts") {
        who = "every service account in every namespace";
      } else if (s.name.starts_with("system:serviceaccounts:")) {
        who = fmt::format("every service account in namespace {}",
                          s.name.substr(std::string_view("system:serviceaccounts:").size()));
        one_namespace = true;
      } else {
        continue;
      }
      // Everyone holding a right is what makes the right dangerous: powerful rights granted to
      // a broad group are a takeover; read access is a disclosure.
      Severity severity = anonymous        ? Severity::kCritical
                          : !risks.empty() ? (one_namespace ? Severity::kHigh : Severity::kCritical)
                          : one_namespace  ? Severity::kLow
                                           : Severity::kMedium;
      Finding& f = out.add(
          *b.object, severity,
          fmt::format("{} grants {} {} to {}: that is {}{}{}.", b.display(), b.role_kind,
                      b.role_name, s.kind == SubjectKind::kGroup ? "group " + s.name : s.name, who,
                      b.cluster ? "" : fmt::format(", in namespace {}", b.namespace_),
                      risks.empty() ? "" : fmt::format("; the role {}", fmt::join(risks, ", "))),
          "Bind the role to the operator's own ServiceAccount instead of a group.",
          b.object->node.get("subjects"));
      f.summary = fmt::format("{} gives {} to {}", b.display(), b.role_name, who);
      if (!risks.empty())
        f.affects.emplace_back("risks", std::vector<std::string>(risks.begin(), risks.end()));
    }
  }
}

}  // namespace

extern const Check kRbacBroadGroupBinding{
    "rbac-broad-group-binding",
    Severity::kLow,
    Severity::kCritical,
    Impact::kOtherTeams,
    "rbac",
    "A binding grants a role to system:authenticated, system:unauthenticated or all service "
    "accounts.",
    run_broad_group_binding,
    "Binding a role to system:unauthenticated, system:authenticated or every service account gives "
    "it to everyone in that group. Critical for anyone without credentials, and for powerful "
    "rights (secrets, workloads, exec, escalation, webhooks, CRDs) to every user or account; high "
    "for powerful rights to every account of one namespace; medium for other rights to broad "
    "groups; low for other rights in one namespace.",
    "Bind the role to the operator's own ServiceAccount instead of a group."};

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
  // get is enough on 1.34: the API server authorizes a WebSocket exec, attach or port-forward
  // as get (KEP-4006), as rbac-pod-exec says.
  bool execs = false;
  for (const char* verb : {"create", "get"}) {
    for (const char* sub : {"exec", "attach", "portforward"})
      execs = execs || allows_any_name(rule, verb, "", "pods", sub);
  }
  if (execs) risks.emplace_back("execs into pods");
  bool escalates = false;
  for (const char* verb : {"escalate", "bind"}) {
    for (const char* kind : {"clusterroles", "roles"})
      escalates = escalates || allows_any_name(rule, verb, kRbacGroup, kind);
  }
  for (const char* who : {"users", "groups", "serviceaccounts"}) {
    escalates = escalates || (verb_matches(rule, "impersonate") && api_group_matches(rule, "") &&
                              resource_matches(rule, who, ""));
  }
  escalates = escalates || allows_any_name(rule, "create", "", "serviceaccounts", "token");
  if (escalates) risks.emplace_back("escalates privileges");
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

// True when `role` includes `part` through aggregation, directly or through roles that
// aggregate it in turn (the built-in edit role is itself aggregated into admin).
bool aggregates(const RbacRole& role, const RbacRole* part) {
  std::vector<const RbacRole*> todo = role.aggregated_from;
  std::set<const RbacRole*> seen;
  while (!todo.empty()) {
    const RbacRole* r = todo.back();
    todo.pop_back();
    if (r == part) return true;
    if (!seen.insert(r).second) continue;
    todo.insert(todo.end(), r->aggregated_from.begin(), r->aggregated_from.end());
  }
  return false;
}

// With --cluster: the subjects of the cluster's bindings whose role aggregates one of `roles`,
// and where: "Group team-a-devs in team-a (RoleBinding team-a/developers-edit, role edit)".
std::vector<std::string> cluster_gainers(const Context& ctx,
                                         const std::vector<const RbacRole*>& roles) {
  std::vector<std::string> out;
  if (!ctx.cluster) return out;
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (!b.in_cluster || !b.role) continue;
    if (std::none_of(roles.begin(), roles.end(),
                     [&](const RbacRole* r) { return aggregates(*b.role, r); }))
      continue;
    for (const Subject& subject : b.subjects) {
      std::string text = fmt::format("{} {} ({}, role {})", subject.display(),
                                     b.cluster ? "in every namespace" : "in " + b.namespace_,
                                     b.display(), b.role->name);
      if (!contains(out, text)) out.push_back(std::move(text));
    }
  }
  return out;
}

// Everyone bound to the built-in admin, edit or view role in any namespace gains what the
// labelled roles grant: risky rights (secrets, exec, escalation) make that high; write access to
// built-in or other projects' resources medium; read access, or the install's own API, low.
void run_aggregates_to_default_roles(const Context& ctx, Findings& out) {
  for (const char* target : {"admin", "edit", "view"}) {
    std::string label = fmt::format("{}{}", kAggregateLabel, target);
    std::vector<const RbacRole*> roles;
    std::vector<std::string> granted;
    std::set<std::string> risks;
    Severity severity = Severity::kLow;
    for (const RbacRole& role : ctx.rbac.roles()) {
      if (role.builtin() || !role.cluster) continue;
      auto it = role.labels.find(label);
      if (it == role.labels.end() || it->second != "true") continue;
      roles.push_back(&role);
      for (const PolicyRule& rule : role.rules) {
        std::vector<std::string> what = rule.resources;
        what.insert(what.end(), rule.non_resource_urls.begin(), rule.non_resource_urls.end());
        std::string text = fmt::format("{} {}", fmt::join(rule.verbs, "/"), fmt::join(what, ", "));
        if (!contains(granted, text)) granted.push_back(std::move(text));
        std::vector<std::string> rule_risk = rule_risks(rule);
        risks.insert(rule_risk.begin(), rule_risk.end());
        bool own = rule.non_resource_urls.empty() &&
                   std::all_of(rule.api_groups.begin(), rule.api_groups.end(),
                               [&](const std::string& g) { return own_group(ctx, g); });
        bool writes = std::any_of(rule.verbs.begin(), rule.verbs.end(), [](const std::string& v) {
          return v != "get" && v != "list" && v != "watch";
        });
        if (!rule_risk.empty()) {
          severity = Severity::kHigh;
        } else if (writes && !own) {
          severity = std::max(severity, Severity::kMedium);
        }
      }
    }
    if (roles.empty()) continue;
    std::vector<std::string> names;
    for (const RbacRole* r : roles)
      names.push_back(r->name);
    std::string holders_of =
        fmt::format("every namespace {}", target == std::string_view("admin")  ? "admin"
                                          : target == std::string_view("edit") ? "editor"
                                                                               : "viewer");
    std::vector<std::string> gainers = cluster_gainers(ctx, roles);
    Finding& f = out.add(
        *roles.front()->object, severity,
        fmt::format(
            "{} ({}) carr{} the label {}=true, so {} (everyone bound to the built-in {} "
            "role in any namespace) gains: {}{}.{}",
            roles.size() == 1 ? "ClusterRole" : fmt::format("{} ClusterRoles", roles.size()),
            some_of(names), roles.size() == 1 ? "ies" : "y", label, holders_of, target,
            some_of(granted, 6), risks.empty() ? "" : fmt::format(" ({})", fmt::join(risks, ", ")),
            gainers.empty() ? ""
                            : fmt::format(" In this cluster they reach: {}.", some_of(gainers, 4))),
        fmt::format("Remove the aggregate-to-{} label unless every {} should have these rights; "
                    "ship the roles for explicit binding instead.",
                    target, target),
        roles.front()->object->node.at({"metadata", "labels"}));
    f.summary = fmt::format(
        "{} extend{} the built-in {} role in every namespace",
        roles.size() == 1 ? roles.front()->display() : fmt::format("{} ClusterRoles", roles.size()),
        roles.size() == 1 ? "s" : "", target);
    f.affects.emplace_back("roles", std::move(names));
    f.affects.emplace_back("grants", std::move(granted));
    if (!gainers.empty()) f.affects.emplace_back("gained by", std::move(gainers));
  }
}

}  // namespace

extern const Check kRbacAggregatesToDefaultRoles{
    "rbac-aggregates-to-default-roles",
    Severity::kLow,
    Severity::kHigh,
    Impact::kOtherTeams,
    "rbac",
    "A ClusterRole aggregates into the built-in admin, edit or view roles.",
    run_aggregates_to_default_roles,
    "A ClusterRole labelled aggregate-to-admin, -edit or -view adds its rules to the built-in "
    "roles, so everyone bound to them in any namespace gains them. One finding per built-in role "
    "extended. High when the rules are risky (secrets, exec, escalation); medium for write access "
    "beyond the install's own API; low for read access or the install's own API, which is what "
    "aggregation is for.",
    "Remove the label unless every holder of the built-in role should have these rights."};

}  // namespace footprint
