// The helpers of held_paths.h.
#include "analysis/rbac/held_paths.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <unordered_map>

#include "analysis/context.h"
#include "analysis/models/rbac_models.h"
#include "analysis/models/subject_index.h"

namespace footprint {

std::vector<std::vector<const HeldEscalation*>> held_by_subject(const Context& ctx,
                                                                std::string_view check) {
  std::vector<std::vector<const HeldEscalation*>> out;
  std::unordered_map<Subject, size_t, SubjectHash> index;  // into out
  for (const HeldEscalation& h : ctx.escalations) {
    if (h.path->check != check) continue;
    auto [at, added] = index.try_emplace(h.rights.subject, out.size());
    if (added) out.emplace_back();
    out[at->second].push_back(&h);
  }
  return out;
}

std::vector<const SubjectRights*> holders_of(const Context& ctx, std::string_view id) {
  std::vector<const SubjectRights*> out;
  for (const HeldEscalation& h : ctx.escalations) {
    if (h.path->id == id) out.push_back(&h.rights);
  }
  return out;
}

namespace {

// "in every namespace" for namespaced resources; nothing for cluster-scoped ones, where it would
// say nothing.
std::string scope_words(const Context& ctx, const SubjectRights& rights) {
  for (const Right& r : rights.rights) {
    for (const Request& q : r.requests) {
      const ResourceInfo* info = ctx.bundle.resources.find_resource(q.api_group, q.resource);
      bool cluster_scoped = info && info->scope == Scope::kCluster;
      if (!cluster_scoped || !q.namespace_.empty()) return " " + scopes_text(rights);
    }
  }
  return "";
}

}  // namespace

void report_held_paths(const Context& ctx, Findings& out, std::string_view check) {
  for (const std::vector<const HeldEscalation*>& group : held_by_subject(ctx, check))
    report_held_group(ctx, out, group);
}

void report_held_group(const Context& ctx, Findings& out,
                       std::span<const HeldEscalation* const> group) {
  SubjectRights all{group.front()->rights.subject, {}};
  Severity severity = Severity::kInfo;
  std::vector<std::string> sentences;
  std::vector<std::string> fixes;
  std::vector<std::string> summaries;
  for (const HeldEscalation* h : group) {
    all.rights.insert(all.rights.end(), h->rights.rights.begin(), h->rights.rights.end());
    severity = std::max(severity, h->severity);
    sentences.push_back(fmt::format("{}{}: {}", merge_verbs(h->rights.what()),
                                    scope_words(ctx, h->rights), h->path->consequence));
    add_unique(fixes, std::string(h->path->fix));
    add_unique(summaries, std::string(h->path->summary));
  }
  std::string who = all.subject.display();
  report_rights(out, all, severity,
                fmt::format("{}, through {}, may {}.", who, all.sources(),
                            fmt::join(sentences, "; and may ")),
                fmt::format("{}", fmt::join(fixes, " ")),
                fmt::format("{} may {}{}", who, fmt::join(summaries, ", "), scope_words(ctx, all)));
}

void run_held_paths(const Context& ctx, Findings& out) {
  report_held_paths(ctx, out, out.check());
}

namespace {

// The built-in roles a binding may hand out, strongest first.
constexpr std::array<std::string_view, 4> kBuiltinRoles = {"cluster-admin", "admin", "edit",
                                                           "view"};

// Whether `who` holds every rule of `role` in `ns` ("" cluster-wide): the API server's
// ConfirmNoEscalation (pkg/registry/rbac/validation), asked of the authorizer tuple by tuple, as
// Covers breaks rules down. "*" is asked literally, so only a wildcard covers it.
bool holds_all(const RbacPolicy& policy, const Identity& who, const RbacRole& role,
               const std::string& ns) {
  for (const PolicyRule& rule : role.rules) {
    for (const std::string& verb : rule.verbs) {
      for (const std::string& url : rule.non_resource_urls) {
        Request r;
        r.verb = verb;
        r.path = url;
        if (!policy.authorize(who, r).allowed) return false;
      }
      for (const std::string& group : rule.api_groups) {
        for (const std::string& resource : rule.resources) {
          size_t slash = resource.find('/');
          std::string sub = slash == std::string::npos ? "" : resource.substr(slash + 1);
          std::vector<std::string> names = rule.resource_names;
          if (names.empty()) names.emplace_back();
          for (const std::string& name : names) {
            Request r = resource_request(verb, group, resource.substr(0, slash), ns, sub, name);
            if (!policy.authorize(who, r).allowed) return false;
          }
        }
      }
    }
  }
  return true;
}

// The strongest built-in ClusterRole `who` may bind in `ns`: with bind on it
// (BindingAuthorized), or holding all its rules (escalation_check.go, policybased storage).
std::string_view strongest_bindable(const Context& ctx, const Identity& who,
                                    const std::string& ns) {
  for (std::string_view name : kBuiltinRoles) {
    const RbacRole* role = ctx.rbac.find_role(true, "", name);
    if (!role) continue;
    Request bind = resource_request("bind", kRbacGroup, "clusterroles", "", "", name);
    if (ctx.rbac.authorize(who, bind).allowed || holds_all(ctx.rbac, who, *role, ns)) return name;
  }
  return "";
}

}  // namespace

BindingReach binding_reach(const Context& ctx, const SubjectRights& writes) {
  BindingReach b;
  std::vector<std::string> what = writes.what();
  b.cluster_bindings = std::any_of(what.begin(), what.end(), [](const std::string& w) {
    return w.ends_with(" clusterrolebindings");
  });
  b.every_namespace = writes.cluster_wide();
  std::vector<std::string> scopes = writes.scopes();
  bool kube_system = contains(scopes, "kube-system");
  b.ns = b.every_namespace ? "" : kube_system ? "kube-system" : scopes.front();
  b.role = strongest_bindable(ctx, identity_of(writes.subject), b.ns);
  // admin and edit read Secrets and create pods: in kube-system that is its controllers'
  // ServiceAccounts, and so the whole cluster.
  bool strong = b.role == "cluster-admin" || b.role == "admin" || b.role == "edit";
  bool wide = b.every_namespace || kube_system;
  b.severity = strong && wide                            ? Severity::kCritical
               : wide                                    ? Severity::kHigh
               : foreign_namespace(ctx.namespaces, b.ns) ? Severity::kMedium
                                                         : Severity::kLow;
  return b;
}

std::optional<BindingReach> binding_reach_of(const Context& ctx, const Subject& subject) {
  for (const HeldEscalation& h : ctx.escalations) {
    if (h.path->id == "write-bindings" && h.rights.subject == subject)
      return binding_reach(ctx, h.rights);
  }
  return std::nullopt;
}

bool rewrites_clusterroles(const Context& ctx, const BoundRule& b, const Subject& subject) {
  if (!b.binding->cluster || !b.rule->resource_names.empty() ||
      !grants(ctx.bundle.resources, b, "escalate", kRbacGroup, "clusterroles")) {
    return false;
  }
  Identity who = identity_of(subject);
  return ctx.rbac.authorize(who, resource_request("update", kRbacGroup, "clusterroles", ""))
             .allowed ||
         ctx.rbac.authorize(who, resource_request("patch", kRbacGroup, "clusterroles", "")).allowed;
}

const BoundRule* clusterrole_rewrite(const Context& ctx, const Subject& subject) {
  for (const BoundRule& b : ctx.bound) {
    if (grants_everything(*b.rule)) continue;  // rbac-wildcard's
    bool holds = std::any_of(b.binding->subjects.begin(), b.binding->subjects.end(),
                             [&](const Subject& s) { return s == subject; });
    if (holds && rewrites_clusterroles(ctx, b, subject)) return &b;
  }
  return nullptr;
}

std::vector<const RbacRole*> unbound_roles(const Context& ctx,
                                           const std::set<const RbacRole*>& reported) {
  std::vector<const RbacRole*> out;
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin() || reported.count(&role) || !bindings_of(ctx.rbac, role).empty() ||
        aggregated_into_another(ctx.rbac, role)) {
      continue;
    }
    out.push_back(&role);
  }
  return out;
}

std::vector<UnboundHold> held_if_bound(const Context& ctx, const RbacRole& role,
                                       std::string_view check) {
  RbacBinding binding;
  binding.cluster = role.cluster;
  binding.namespace_ = role.namespace_;
  binding.role = &role;
  // Whoever the binding will name: one subject stands for them.
  binding.subjects.push_back(Subject{SubjectKind::kUser, "whoever binds it", ""});
  std::vector<BoundRule> bound;
  for (const PolicyRule& rule : role.rules)
    bound.push_back(BoundRule{&binding, &role, &rule});
  std::vector<UnboundHold> out;
  for (const HeldEscalation& h : held_escalations(ctx.bundle.resources, bound, ctx.namespaces)) {
    if (h.path->check != check) continue;
    for (const Right& r : h.rights.rights)
      out.push_back(UnboundHold{h.path, r.grant.rule, r.requests});
  }
  return out;
}

namespace {

// The chain of identity_chains.h that starts with the edge's path, which this check reports.
template <HopKind kind>
std::string chain_through(const Context& ctx, const HeldEscalation& held) {
  const IdentityChain* chain = chain_for(ctx, held.rights.subject, held.path->check);
  return chain && chain->hops.front().kind == kind ? chain->words() : "";
}

std::string rewrites_own_clusterrole(const Context& ctx, const HeldEscalation& held) {
  bool rewrites = std::any_of(
      held.rights.rights.begin(), held.rights.rights.end(),
      [&](const Right& r) { return rewrites_clusterroles(ctx, r.grant, held.rights.subject); });
  return rewrites ? "writing every right into a ClusterRole bound to it" : "";
}

}  // namespace

std::span<const IdentityEdge> identity_edges() {
  // bind is no edge of its own here: binding a role means writing a binding, which
  // rbac-binding-write rates by the strongest role it may bind.
  static constexpr IdentityEdge kEdges[] = {
      {.path = "impersonate", .to_cluster_admin = chain_through<HopKind::kImpersonate>},
      {.path = "request-tokens", .to_cluster_admin = chain_through<HopKind::kTokenRequest>},
      {.path = "escalate",
       .to_cluster_admin = rewrites_own_clusterrole,
       .named_by_binding_writes = true},
  };
  return kEdges;
}

namespace {

// Whether `subject` holds the path `id` through a bound rule `where` accepts, so that the check of
// the path reports it.
template <typename Where>
bool holds(const Context& ctx, const Subject& subject, std::string_view id, Where where) {
  for (const HeldEscalation& h : ctx.escalations) {
    if (h.path->id != id || !(h.rights.subject == subject)) continue;
    for (const Right& r : h.rights.rights) {
      if (where(r.grant)) return true;
    }
  }
  return false;
}

}  // namespace

std::string_view chain_check(const Context& ctx, const IdentityChain& chain) {
  const IdentityHop& first = chain.hops.front();
  const Subject& s = chain.subject;
  auto cluster = [](const BoundRule& b) { return b.binding->cluster; };
  auto kube_system = [](const BoundRule& b) {
    return !b.binding->cluster && b.binding->namespace_ == "kube-system";
  };
  auto any = [](const BoundRule&) { return true; };
  bool in_kube_system = !first.cluster_wide && first.ns == "kube-system";
  switch (first.kind) {
    case HopKind::kCreatePods:
      if (first.cluster_wide && holds(ctx, s, "create-workloads", cluster))
        return "rbac-workload-create-cluster-wide";
      if (in_kube_system && holds(ctx, s, "create-workloads", kube_system))
        return "rbac-kube-system-grant";
      break;
    case HopKind::kTokenSecret:
      if (first.cluster_wide && holds(ctx, s, "read-secrets", cluster))
        return "rbac-secrets-cluster-wide";
      if (in_kube_system && holds(ctx, s, "read-secrets", kube_system))
        return "rbac-kube-system-grant";
      break;
    case HopKind::kTokenRequest:
      if (holds(ctx, s, "request-tokens", any)) return "rbac-privilege-escalation";
      break;
    case HopKind::kImpersonate:
      if (holds(ctx, s, "impersonate", any)) return "rbac-privilege-escalation";
      break;
    case HopKind::kExec:
      if (holds(ctx, s, "exec-into-pods", any)) return "rbac-pod-exec";
      break;
  }
  return "rbac-identity-chain";
}

const IdentityChain* chain_for(const Context& ctx, const Subject& subject, std::string_view check) {
  for (const IdentityChain& c : ctx.identity_chains) {
    if (c.subject == subject) return chain_check(ctx, c) == check ? &c : nullptr;
  }
  return nullptr;
}

std::string chain_sentence(const IdentityChain& chain) {
  return fmt::format(" That is cluster-admin: it {}.", chain.words());
}

}  // namespace footprint
