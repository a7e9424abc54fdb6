#include "analysis/commands/install_rights.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>

#include "analysis/context.h"
#include "analysis/models/rights.h"
#include "util/strings.h"

namespace footprint {

namespace {

// Helm's InstallOrder (pkg/release/util/kind_sorter.go); other kinds follow, by kind.
constexpr std::array<std::string_view, 38> kInstallOrder = {
    "PriorityClass",
    "Namespace",
    "NetworkPolicy",
    "ResourceQuota",
    "LimitRange",
    "PodSecurityPolicy",
    "PodDisruptionBudget",
    "ServiceAccount",
    "Secret",
    "SecretList",
    "ConfigMap",
    "StorageClass",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "CustomResourceDefinition",
    "ClusterRole",
    "ClusterRoleList",
    "ClusterRoleBinding",
    "ClusterRoleBindingList",
    "Role",
    "RoleList",
    "RoleBinding",
    "RoleBindingList",
    "Service",
    "DaemonSet",
    "Pod",
    "ReplicationController",
    "ReplicaSet",
    "Deployment",
    "HorizontalPodAutoscaler",
    "StatefulSet",
    "Job",
    "CronJob",
    "IngressClass",
    "Ingress",
    "APIService",
    "MutatingWebhookConfiguration",
    "ValidatingWebhookConfiguration",
};

size_t install_rank(std::string_view kind) {
  auto it = std::find(kInstallOrder.begin(), kInstallOrder.end(), kind);
  return static_cast<size_t>(it - kInstallOrder.begin());
}

bool is_rbac(const Object& obj, std::string_view kind) {
  return obj.group == kRbacGroup && obj.kind == kind;
}

// Hooks run at install when an event is pre-install or post-install; other hooks (upgrade,
// delete, test) are not part of installing.
enum class HookUse : uint8_t { kNotHook, kInstallHook, kOtherHook };

HookUse hook_use(const Object& obj) {
  std::string_view events = obj.annotation("helm.sh/hook");
  if (events.empty()) return HookUse::kNotHook;
  bool at_install = events.find("pre-install") != std::string_view::npos ||
                    events.find("post-install") != std::string_view::npos;
  return at_install ? HookUse::kInstallHook : HookUse::kOtherHook;
}

std::string plural_of(const Context& ctx, const Object& obj) {
  if (const ResourceInfo* info = ctx.bundle.resources.find_kind(obj.group, obj.kind))
    return info->resource;
  // A kind nobody defines: the plural the API server's default RESTMapper guesses.
  return lower(obj.kind) + "s";
}

std::string need_key(const Request& r) {
  return fmt::format("{}|{}|{}|{}", r.verb, r.api_group, r.resource, r.namespace_);
}

class NeedList {
 public:
  InstallNeed& need(Request request) {
    std::string key = need_key(request);
    for (InstallNeed& n : needs_) {
      if (need_key(n.request) == key) return n;
    }
    needs_.push_back(InstallNeed{std::move(request), {}, {}, 0, false});
    return needs_.back();
  }
  void add(std::string_view verb, std::string_view group, std::string_view resource,
           std::string_view ns, std::string_view name, const std::string& by) {
    InstallNeed& n = need(resource_request(verb, group, resource, ns));
    if (!name.empty()) add_unique(n.names, std::string(name));
    add_unique(n.needed_by, by);
  }
  std::vector<InstallNeed> take() { return std::move(needs_); }

 private:
  std::vector<InstallNeed> needs_;
};

// The install's objects in Helm's install order: stable within a kind, unknown kinds last by kind.
std::vector<const Object*> in_install_order(const Bundle& bundle) {
  std::vector<const Object*> out;
  for (const Object& obj : bundle.objects) {
    if (!obj.replaced() && hook_use(obj) != HookUse::kOtherHook) out.push_back(&obj);
  }
  std::stable_sort(out.begin(), out.end(), [](const Object* a, const Object* b) {
    size_t ra = install_rank(a->kind);
    size_t rb = install_rank(b->kind);
    if (ra != rb) return ra < rb;
    return ra == kInstallOrder.size() && a->kind < b->kind;
  });
  return out;
}

// The CRDs the install uses and does not ship, as the two checks that report them decide.
std::vector<std::pair<std::string, std::vector<std::string>>> missing_crd_groups(
    const Context& ctx) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (std::string_view id : {"crd-not-installed", "crd-missing"}) {
    const Check* check = find_check(id);
    if (!check) continue;
    Findings findings(ctx.bundle);
    findings.set_check(check->id, check->impact);
    check->run(ctx, findings);
    for (const Finding& f : findings.list()) {
      std::vector<std::string> what;
      for (const auto& [label, items] : f.affects) {
        if (label == "resources" || label == "kinds") what = items;
      }
      out.emplace_back(f.about, std::move(what));  // the API group (about_shared)
    }
  }
  return out;
}

std::vector<PolicyRule> rules_of(const Object& obj) {
  return read_rules(obj.node.get("rules"));
}

bool aggregated(const Object& obj) {
  return obj.node.at({"aggregationRule", "clusterRoleSelectors"}).size() > 0;
}

// pkg/registry/rbac/clusterrole/policybased/storage.go: an aggregationRule can gather any right,
// so setting one needs all of them.
std::vector<PolicyRule> full_authority() {
  PolicyRule resources;
  resources.verbs = {"*"};
  resources.api_groups = {"*"};
  resources.resources = {"*"};
  PolicyRule urls;
  urls.verbs = {"*"};
  urls.non_resource_urls = {"*"};
  return {resources, urls};
}

// "get, list secrets", "* *.*", "get /metrics": requests grouped by what they are asked of.
std::vector<std::string> compact(const std::vector<Request>& requests) {
  std::vector<std::pair<std::string, std::vector<std::string>>> by_target;
  for (const Request& r : requests) {
    std::string target;
    if (r.is_resource_request()) {
      target = r.resource;
      if (!r.subresource.empty()) target += "/" + r.subresource;
      target += r.api_group.empty() ? "" : "." + r.api_group;
      if (!r.name.empty()) target += fmt::format(" named {}", r.name);
    } else {
      target = r.path;
    }
    auto it = std::find_if(by_target.begin(), by_target.end(),
                           [&](const auto& p) { return p.first == target; });
    if (it == by_target.end()) {
      by_target.emplace_back(target, std::vector<std::string>{});
      it = by_target.end() - 1;
    }
    add_unique(it->second, r.verb);
  }
  std::vector<std::string> out;
  for (const auto& [target, verbs] : by_target)
    out.push_back(fmt::format("{} {}", joined(verbs), target));
  return out;
}

const RbacBinding* binding_of(const RbacPolicy& policy, const Object& obj) {
  for (const RbacBinding& b : policy.bindings()) {
    if (b.object == &obj) return &b;
  }
  return nullptr;
}

// Whether an object of the bundle exists before the install. Helm then adopts it instead of
// creating it: existingResourceConflict (pkg/action/validate.go) lets an install go on over an
// existing object that carries the release's ownership metadata, and the install updates the
// objects it adopts (kube.Client.Update), a patch by name.
using ExistsBefore = std::function<bool(const Object&)>;

std::vector<InstallNeed> needs_with(const Context& ctx, std::string_view release_namespace,
                                    const ExistsBefore& exists) {
  NeedList needs;
  // First, the CRDs the install needs and does not ship: they must exist before it.
  for (const auto& [group, resources] : missing_crd_groups(ctx)) {
    InstallNeed& n = needs.need(
        resource_request("create", "apiextensions.k8s.io", "customresourcedefinitions", ""));
    n.needed_by.push_back(
        fmt::format("the CRDs of {} ({}), which the install needs and does not ship", group,
                    some_of(resources, 6)));
    n.crd_prerequisites = n.needed_by.size();
  }
  for (const Object* obj : in_install_order(ctx.bundle)) {
    std::string resource = plural_of(ctx, *obj);
    std::string by = obj->display();
    if (hook_use(*obj) == HookUse::kInstallHook) {
      // before-hook-creation, the default delete policy: Helm deletes the hook's object first.
      needs.add("create", obj->group, resource, obj->namespace_, "", by);
      needs.add("delete", obj->group, resource, obj->namespace_, obj->name, by);
      continue;
    }
    // A Namespace is read and written in its own name: RequestInfo gives /api/v1/namespaces/NAME
    // the namespace NAME (apiserver's pkg/endpoints/request/requestinfo.go), so a Role in it can
    // grant both.
    bool namespace_object = obj->group.empty() && obj->kind == "Namespace";
    std::string scope = namespace_object ? obj->name : obj->namespace_;
    if (exists(*obj)) {
      by += ", which exists before the install: Helm adopts it";
      needs.add("patch", obj->group, resource, scope, obj->name, by);
    } else {
      needs.add("create", obj->group, resource, obj->namespace_, "", by);
    }
    // pkg/action/validate.go existingResourceConflict: Helm gets every object before creating
    // it, and any answer but NotFound or an object it may adopt stops the install.
    needs.add("get", obj->group, resource, scope, obj->name, by);
  }
  // Helm's storage driver keeps the release in Secrets of the release namespace
  // (pkg/storage/driver/secrets.go): it lists them to find the name free, creates the record,
  // updates its status, reads it back, and deletes old ones.
  for (std::string_view verb : {"get", "list", "create", "update", "delete"})
    needs.add(verb, "", "secrets", release_namespace, "", "Helm's release record");
  return needs.take();
}

// The bundle's objects the cluster snapshot already holds.
ExistsBefore in_snapshot(const Context& ctx) {
  return [&ctx](const Object& obj) {
    return ctx.cluster &&
           ctx.cluster->objects.find(obj.group, obj.kind, obj.namespace_, obj.name) != nullptr;
  };
}

}  // namespace

std::vector<Request> uncovered_rights(const RbacPolicy& policy, const Identity& who,
                                      std::string_view scope,
                                      const std::vector<PolicyRule>& rules) {
  std::vector<Request> out;
  auto ask = [&](Request r) {
    r.namespace_ = std::string(scope);
    if (!policy.authorize(who, r).allowed) out.push_back(std::move(r));
  };
  // BreakdownRule: one verb, group, resource and name at a time; a rule without groups or verbs
  // breaks down to nothing and asks for nothing.
  for (const PolicyRule& rule : rules) {
    for (const std::string& group : rule.api_groups) {
      for (const std::string& resource : rule.resources) {
        for (const std::string& verb : rule.verbs) {
          Request r = resource_request(verb, group, resource, scope);
          if (size_t slash = resource.find('/'); slash != std::string::npos) {
            r.resource = resource.substr(0, slash);
            r.subresource = resource.substr(slash + 1);
          }
          if (rule.resource_names.empty()) {
            ask(r);
            continue;
          }
          for (const std::string& name : rule.resource_names) {
            r.name = name;
            ask(r);
          }
        }
      }
    }
    for (const std::string& url : rule.non_resource_urls) {
      for (const std::string& verb : rule.verbs) {
        Request r;
        r.verb = verb;
        r.path = url;
        ask(r);
      }
    }
  }
  return out;
}

std::vector<InstallNeed> install_needs(const Context& ctx, std::string_view release_namespace) {
  return needs_with(ctx, release_namespace, in_snapshot(ctx));
}

bool InstallRights::allowed() const {
  return denials.empty() &&
         std::all_of(needs.begin(), needs.end(), [](const InstallNeed& n) { return n.allowed; });
}

namespace {

// `before` holds the rights the subject has before the install.
InstallRights rights_under(const Context& ctx, const RbacPolicy& before, const Identity& who,
                           std::string_view release_namespace) {
  InstallRights out;
  out.superuser = who.in_group("system:masters");
  out.needs = install_needs(ctx, release_namespace);
  for (InstallNeed& n : out.needs) {
    auto allowed = [&](const std::string& name) {
      Request r = n.request;
      r.name = name;
      return before.authorize(who, r).allowed;
    };
    n.allowed =
        n.names.empty() ? allowed("") : std::all_of(n.names.begin(), n.names.end(), allowed);
  }
  if (out.superuser) return out;

  for (const Object* obj : in_install_order(ctx.bundle)) {
    bool cluster_role = is_rbac(*obj, "ClusterRole");
    if (cluster_role || is_rbac(*obj, "Role")) {
      // RoleEscalationAuthorized asks for escalate with the request's name, which a create has
      // not: only escalate on every role of the scope lets a new role through.
      Request escalate = resource_request("escalate", kRbacGroup,
                                          cluster_role ? "clusterroles" : "roles", obj->namespace_);
      if (before.authorize(who, escalate).allowed) continue;
      EscalationDenial d;
      d.object = obj;
      d.scope = obj->namespace_;
      d.alternative = escalate;
      std::vector<Request> lacking = uncovered_rights(before, who, d.scope, rules_of(*obj));
      if (cluster_role && aggregated(*obj)) {
        std::vector<Request> all = uncovered_rights(before, who, "", full_authority());
        if (!all.empty()) {
          d.aggregation = true;
          lacking.insert(lacking.end(), all.begin(), all.end());
        }
      }
      if (lacking.empty()) continue;
      d.lacking = compact(lacking);
      out.denials.push_back(std::move(d));
      continue;
    }
    if (!is_rbac(*obj, "ClusterRoleBinding") && !is_rbac(*obj, "RoleBinding")) continue;
    const RbacBinding* b = binding_of(ctx.rbac, *obj);
    if (!b) continue;
    // BindingAuthorized: bind on the referenced role, by name, in the binding's namespace.
    Request bind = resource_request(
        "bind", kRbacGroup, b->role_kind == "Role" ? "roles" : "clusterroles", b->namespace_);
    bind.name = b->role_name;
    if (before.authorize(who, bind).allowed) continue;
    EscalationDenial d;
    d.object = obj;
    d.scope = b->namespace_;
    d.alternative = bind;
    d.role = b->role ? b->role->display() : fmt::format("{} {}", b->role_kind, b->role_name);
    if (!b->role) {
      // GetRoleReferenceRules fails, and the binding is refused unless bind allows it.
      d.role_missing = true;
      out.denials.push_back(std::move(d));
      continue;
    }
    std::vector<Request> lacking = uncovered_rights(before, who, d.scope, b->role->rules);
    if (lacking.empty()) continue;
    d.lacking = compact(lacking);
    out.denials.push_back(std::move(d));
  }
  return out;
}

}  // namespace

InstallRights install_rights(const Context& ctx, const Identity& who,
                             std::string_view release_namespace) {
  // The rights the subject holds before the install: the cluster's and the built-in ones.
  Bundle nothing;
  RbacPolicy before = RbacPolicy::build(nothing, ctx.cluster ? &ctx.cluster->objects : nullptr);
  return rights_under(ctx, before, who, release_namespace);
}

NamespaceAdminRights namespace_admin_rights(const Context& ctx,
                                            std::string_view release_namespace) {
  NamespaceAdminRights out;
  out.namespaces.emplace_back(release_namespace);
  for (const Object& obj : ctx.bundle.objects) {
    if (!obj.replaced() && !obj.namespace_.empty()) add_unique(out.namespaces, obj.namespace_);
  }
  std::sort(out.namespaces.begin(), out.namespaces.end());
  // The built-in ClusterRole admin bound in each namespace, as the RBAC docs grant a namespace's
  // owner.
  std::string yaml;
  for (const std::string& ns : out.namespaces) {
    yaml += fmt::format(
        "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {{name: "
        "admin, namespace: \"{}\"}}\nroleRef: {{apiGroup: rbac.authorization.k8s.io, kind: "
        "ClusterRole, name: admin}}\nsubjects: [{{apiGroup: rbac.authorization.k8s.io, kind: "
        "User, name: \"{}\"}}]\n",
        ns, kNamespaceAdmin);
  }
  auto loaded = load_texts({{"<namespace admin>", yaml}}, LoadOptions{});
  Bundle grants =
      loaded ? build_bundle(std::move(*loaded), BundleOptions{std::string(release_namespace)})
             : Bundle{};
  RbacPolicy before = RbacPolicy::build(grants, ctx.cluster ? &ctx.cluster->objects : nullptr);
  out.rights = rights_under(ctx, before, Identity::named_user(kNamespaceAdmin), release_namespace);
  return out;
}

namespace {

// Rules keyed by group, resource and names, their verbs merged, in a stable order, each with
// what needs it.
class RuleSet {
 public:
  void add(std::string_view verb, std::string_view group, std::string_view resource,
           std::vector<std::string> names, const std::vector<std::string>& needed_by) {
    std::sort(names.begin(), names.end());
    std::string key = fmt::format("{}|{}|{}", group, resource, joined(names, ","));
    auto [it, fresh] = by_key_.try_emplace(key);
    if (fresh) {
      it->second.rule.api_groups = {std::string(group)};
      it->second.rule.resources = {std::string(resource)};
      it->second.rule.resource_names = std::move(names);
    }
    add_unique(it->second.rule.verbs, std::string(verb));
    for (const std::string& by : needed_by)
      add_unique(it->second.needed_by, by);
  }
  void add_rules(const std::vector<PolicyRule>& rules, const std::string& needed_by) {
    for (PolicyRule r : rules) {
      r.node = {};
      auto it = std::find_if(verbatim_.begin(), verbatim_.end(),
                             [&](const GrantRule& g) { return g.rule == r; });
      if (it == verbatim_.end())
        it = verbatim_.insert(verbatim_.end(), GrantRule{std::move(r), {}});
      add_unique(it->needed_by, needed_by);
    }
  }
  bool empty() const { return by_key_.empty() && verbatim_.empty(); }
  std::vector<GrantRule> rules() const {
    std::vector<GrantRule> out;
    for (const auto& [key, rule] : by_key_)
      out.push_back(rule);
    out.insert(out.end(), verbatim_.begin(), verbatim_.end());
    return out;
  }

 private:
  std::map<std::string, GrantRule> by_key_;
  std::vector<GrantRule> verbatim_;  // the bundle's roles' rules, as written
};

}  // namespace

InstallerGrant installer_grant(const Context& ctx, std::string_view release_namespace) {
  InstallerGrant grant;
  // The namespaces the bundle creates exist before the install, made by a cluster admin, so
  // that what the installer does in them is a Role bound there: creating them during the
  // install would leave no way to bind anything in them but a cluster-wide grant.
  for (const Object* obj : in_install_order(ctx.bundle)) {
    if (obj->group.empty() && obj->kind == "Namespace" && hook_use(*obj) == HookUse::kNotHook) {
      add_unique(grant.created_namespaces, obj->name);
    }
  }
  ExistsBefore snapshot = in_snapshot(ctx);
  auto exists = [&](const Object& obj) {
    bool made_first = obj.group.empty() && obj.kind == "Namespace" &&
                      contains(grant.created_namespaces, obj.name);
    return made_first || snapshot(obj);
  };
  RuleSet cluster;
  std::map<std::string, RuleSet> namespaced;
  auto scope_of = [&](const std::string& ns) -> RuleSet& {
    return ns.empty() ? cluster : namespaced[ns];
  };
  for (const InstallNeed& n : needs_with(ctx, release_namespace, exists)) {
    for (size_t i = 0; i < n.crd_prerequisites; ++i)
      grant.notes.push_back("First, a cluster admin installs " + n.needed_by[i] + ".");
    if (n.needed_by.size() == n.crd_prerequisites) continue;
    const Request& r = n.request;
    std::vector<std::string> by(n.needed_by.begin() + static_cast<long>(n.crd_prerequisites),
                                n.needed_by.end());
    scope_of(r.namespace_).add(r.verb, r.api_group, r.resource, n.names, by);
  }
  for (const Object* obj : in_install_order(ctx.bundle)) {
    bool cluster_role = is_rbac(*obj, "ClusterRole");
    if (cluster_role && aggregated(*obj)) {
      // Only every right covers an aggregationRule; escalate on clusterroles is the one grant that
      // lets it through, and it is as strong.
      cluster.add("escalate", kRbacGroup, "clusterroles", {},
                  {fmt::format("{}, which has an aggregationRule", obj->display())});
      grant.notes.push_back(fmt::format(
          "{} has an aggregationRule: creating it needs every right, or escalate on "
          "clusterroles, which this grant gives; either lets the installer grant itself anything.",
          obj->display()));
      continue;
    }
    if (cluster_role || is_rbac(*obj, "Role")) {
      scope_of(obj->namespace_)
          .add_rules(rules_of(*obj),
                     fmt::format("{}, whose rights its creator must hold (the API server's "
                                 "escalation check)",
                                 obj->display()));
      continue;
    }
    if (!is_rbac(*obj, "ClusterRoleBinding") && !is_rbac(*obj, "RoleBinding")) continue;
    const RbacBinding* b = binding_of(ctx.rbac, *obj);
    if (!b) continue;
    // A role of the bundle is covered by the rights just granted, unless it aggregates.
    bool covered =
        b->role && b->role->object && !(b->role->cluster && aggregated(*b->role->object));
    if (covered) continue;
    scope_of(b->namespace_)
        .add("bind", kRbacGroup, b->role_kind == "Role" ? "roles" : "clusterroles", {b->role_name},
             {fmt::format("{}, which binds it", obj->display())});
  }
  grant.cluster_rules = cluster.rules();
  for (const auto& [ns, rules] : namespaced) {
    if (!rules.empty()) grant.namespace_rules[ns] = rules.rules();
  }
  return grant;
}

}  // namespace footprint
