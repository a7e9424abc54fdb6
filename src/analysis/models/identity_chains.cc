// identity_chains() (identity_chains.h): a breadth-first search per subject over the identities
// it can become, each identity's hops asked of the RBAC engine once and kept.
#include "analysis/models/identity_chains.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>

#include "analysis/models/rbac_models.h"
#include "analysis/models/rights.h"

namespace footprint {

namespace {

constexpr std::string_view kMasters = "system:masters";

// The bindings that name an identity, asked as RbacPolicy::authorize asks but without the
// reasons of a denial, which most of these questions get.
class Grants {
 public:
  // With `bundle_only`, only the bundle's own bindings count.
  Grants(const RbacPolicy& policy, const Identity& who, bool bundle_only = false)
      : policy_(policy), bindings_(policy.bindings_of(who)) {
    if (bundle_only) {
      std::erase_if(bindings_, [&](uint32_t i) { return policy.bindings()[i].builtin(); });
    }
    for (uint32_t i : bindings_) {
      const RbacBinding& b = policy.bindings()[i];
      if (!b.cluster) namespaces_.push_back(b.namespace_);
    }
    std::sort(namespaces_.begin(), namespaces_.end());
    namespaces_.erase(std::unique(namespaces_.begin(), namespaces_.end()), namespaces_.end());
  }

  // The first binding that allows `r`, or null.
  const RbacBinding* allows(const Request& r) const {
    for (uint32_t i : bindings_) {
      const RbacBinding& b = policy_.bindings()[i];
      bool in_scope = b.cluster || (!r.namespace_.empty() && b.namespace_ == r.namespace_);
      if (!in_scope || !b.role) continue;
      for (const PolicyRule& rule : b.role->rules) {
        if (rule_allows(rule, r)) return &b;
      }
    }
    return nullptr;
  }
  const RbacBinding* allows(std::string_view verb, std::string_view group,
                            std::string_view resource, std::string_view ns,
                            std::string_view sub = "", std::string_view name = "") const {
    return allows(resource_request(verb, group, resource, ns, sub, name));
  }
  bool empty() const { return bindings_.empty(); }

  // Whether a ClusterRoleBinding may allow the request for some object name: resourceNames are
  // not looked at, so a false is certain and a true only possible.
  bool cluster_may(std::string_view verb, std::string_view group, std::string_view resource,
                   std::string_view sub) const {
    for (uint32_t i : bindings_) {
      const RbacBinding& b = policy_.bindings()[i];
      if (!b.cluster || !b.role) continue;
      for (const PolicyRule& rule : b.role->rules) {
        if (verb_matches(rule, verb) && api_group_matches(rule, group) &&
            resource_matches(rule, resource, sub)) {
          return true;
        }
      }
    }
    return false;
  }
  // The namespaces of the RoleBindings, sorted: anywhere else only ClusterRoleBindings hold.
  const std::vector<std::string>& namespaces() const { return namespaces_; }

 private:
  const RbacPolicy& policy_;
  std::vector<uint32_t> bindings_;
  std::vector<std::string> namespaces_;
};

// A pod that runs as an account: exec into it is that account's token.
struct RunningPod {
  const Object* owner;
  Subject account;
};

// The identities a chain may pass through, and the pods that run as them.
struct Identities {
  // ServiceAccounts that exist and some binding names, sorted: by namespace, then name.
  std::vector<Subject> accounts;
  std::vector<Subject> users;
  std::vector<Subject> groups;
  std::vector<std::string> namespaces;  // of `accounts`, in order
  // Per entry of `namespaces`: its accounts (the range of `accounts` from the first), its pods
  // (indices into `pods`, ascending).
  std::vector<uint32_t> first_account;
  std::vector<std::vector<uint32_t>> pods_in;
  std::vector<RunningPod> pods;

  // The index of `ns` in `namespaces`, or npos.
  size_t namespace_index(std::string_view ns) const {
    auto it = std::lower_bound(namespaces.begin(), namespaces.end(), ns);
    return it != namespaces.end() && *it == ns ? static_cast<size_t>(it - namespaces.begin())
                                               : std::string::npos;
  }
  std::span<const Subject> accounts_in(size_t i) const {
    size_t end = i + 1 < namespaces.size() ? first_account[i + 1] : accounts.size();
    return std::span(accounts).subspan(first_account[i], end - first_account[i]);
  }
};

Subject account(std::string_view ns, std::string_view name) {
  return Subject{SubjectKind::kServiceAccount, std::string(name), std::string(ns)};
}

void sort_unique(std::vector<Subject>& list) {
  std::sort(list.begin(), list.end());
  list.erase(std::unique(list.begin(), list.end()), list.end());
}

// Whether a pod spec carries the account's token: automountServiceAccountToken false leaves it
// out (the ServiceAccount admission plugin mounts the projected token only otherwise).
bool mounts_token(const yaml::Node& spec) {
  return spec.get("automountServiceAccountToken").str() != "false";
}

Identities gather(const RbacPolicy& policy, const Bundle& bundle, std::span<const PodTemplate> pods,
                  const Bundle* cluster) {
  // A ServiceAccount exists when the bundle or the snapshot holds it, when it is "default"
  // (the ServiceAccount controller makes one in every namespace), or when the bootstrap policy
  // binds it (the kube-system controllers, which kube-controller-manager creates).
  std::vector<Subject> existing;
  auto add_objects = [&](const Bundle& b) {
    for (uint32_t i : b.of_kind("", "ServiceAccount")) {
      const Object& o = b.objects[i];
      if (!o.replaced()) existing.push_back(account(o.namespace_, o.name));
    }
  };
  add_objects(bundle);
  if (cluster) add_objects(*cluster);
  sort_unique(existing);
  Identities out;
  for (const RbacBinding& b : policy.bindings()) {
    for (const Subject& s : b.subjects) {
      if (s.kind == SubjectKind::kUser) {
        if (s.name != "system:anonymous") out.users.push_back(s);
      } else if (s.kind == SubjectKind::kGroup) {
        out.groups.push_back(s);
      } else {
        Subject sa = account(s.namespace_.empty() ? b.namespace_ : s.namespace_, s.name);
        bool bootstrap = b.builtin() && !b.in_cluster;
        if (bootstrap || sa.name == "default" ||
            std::binary_search(existing.begin(), existing.end(), sa)) {
          out.accounts.push_back(std::move(sa));
        }
      }
    }
  }
  sort_unique(out.users);
  sort_unique(out.groups);
  sort_unique(out.accounts);
  for (uint32_t i = 0; i < out.accounts.size(); ++i) {
    if (out.namespaces.empty() || out.namespaces.back() != out.accounts[i].namespace_) {
      out.namespaces.push_back(out.accounts[i].namespace_);
      out.first_account.push_back(i);
    }
  }
  out.pods_in.resize(out.namespaces.size());
  auto add_pods = [&](std::span<const PodTemplate> templates) {
    for (const PodTemplate& p : templates) {
      Subject sa = account(p.owner->namespace_, service_account_of(p.spec));
      if (mounts_token(p.spec) &&
          std::binary_search(out.accounts.begin(), out.accounts.end(), sa)) {
        out.pods_in[out.namespace_index(sa.namespace_)].push_back(
            static_cast<uint32_t>(out.pods.size()));
        out.pods.push_back(RunningPod{p.owner, std::move(sa)});
      }
    }
  };
  add_pods(pods);
  std::vector<PodTemplate> cluster_pods;
  if (cluster) cluster_pods = pod_templates(*cluster);
  add_pods(cluster_pods);
  return out;
}

std::string where(const RbacBinding& b, std::string_view ns) {
  return b.cluster ? std::string("in every namespace") : fmt::format("in namespace {}", ns);
}

IdentityHop hop(HopKind kind, const Subject& to, std::string request, std::string_view ns,
                const RbacBinding* b) {
  IdentityHop h{kind, to, std::move(request), std::string(ns), b->cluster, b, nullptr};
  if (!ns.empty()) h.request += " " + where(*b, ns);
  return h;
}

// Whether a ClusterRoleBinding of `g` may grant a hop into some namespace. When none does,
// only the namespaces of its RoleBindings hold hops, and every other is skipped unasked.
bool hops_cluster_wide(const Grants& g) {
  for (const WorkloadResource& w : kPodCreators) {
    if (g.cluster_may("create", w.group, w.resource, "")) return true;
  }
  return g.cluster_may("create", "", "secrets", "") ||
         g.cluster_may("create", "", "serviceaccounts", "token") ||
         g.cluster_may("impersonate", "", "serviceaccounts", "") ||
         g.cluster_may("create", "", "pods", "exec") || g.cluster_may("get", "", "pods", "exec") ||
         g.cluster_may("create", "", "pods", "attach") ||
         g.cluster_may("get", "", "pods", "attach") ||
         g.cluster_may("update", "", "pods", "ephemeralcontainers") ||
         g.cluster_may("patch", "", "pods", "ephemeralcontainers");
}

// Indices into ids.namespaces, ascending, of the namespaces where `g` may grant a hop.
std::vector<size_t> hop_namespaces(const Identities& ids, const Grants& g) {
  std::vector<size_t> out;
  if (hops_cluster_wide(g)) {
    out.resize(ids.namespaces.size());
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = i;
    return out;
  }
  for (const std::string& ns : g.namespaces()) {
    if (size_t i = ids.namespace_index(ns); i != std::string::npos) out.push_back(i);
  }
  return out;  // ascending: both lists are sorted
}

// Every hop `from` may take, in a fixed order; with `bundle_only`, those the bundle's own
// bindings grant.
std::vector<IdentityHop> hops_of(const RbacPolicy& policy, const Identities& ids,
                                 const Subject& from, bool bundle_only) {
  std::vector<IdentityHop> out;
  Grants g(policy, identity_of(from), bundle_only);
  if (g.empty()) return out;
  const std::vector<size_t> namespaces = hop_namespaces(ids, g);
  for (size_t i : namespaces) {
    const std::string& ns = ids.namespaces[i];
    const RbacBinding* pods = nullptr;
    std::string pods_request;
    for (const WorkloadResource& w : kPodCreators) {
      pods = g.allows("create", w.group, w.resource, ns);
      if (pods) {
        pods_request = "create " + group_resource(w.group, w.resource);
        break;
      }
    }
    // The creator reads the Secret back to learn the token the controller wrote into it.
    const RbacBinding* secrets = g.allows("create", "", "secrets", ns);
    if (secrets && !g.allows("get", "", "secrets", ns) && !g.allows("list", "", "secrets", ns) &&
        !g.allows("watch", "", "secrets", ns)) {
      secrets = nullptr;
    }
    // Pods first (the right most findings name), then a token request, impersonation and token
    // Secrets.
    for (const Subject& sa : ids.accounts_in(i)) {
      if (sa == from) continue;
      if (pods) out.push_back(hop(HopKind::kCreatePods, sa, pods_request, ns, pods));
      if (const RbacBinding* b = g.allows("create", "", "serviceaccounts", ns, "token", sa.name))
        out.push_back(hop(HopKind::kTokenRequest, sa, "create serviceaccounts/token", ns, b));
      if (const RbacBinding* b = g.allows("impersonate", "", "serviceaccounts", ns, "", sa.name))
        out.push_back(hop(HopKind::kImpersonate, sa, "impersonate serviceaccounts", ns, b));
      if (secrets)
        out.push_back(hop(HopKind::kTokenSecret, sa, "create and read secrets", ns, secrets));
    }
  }
  // The pods of those namespaces, in the order they were found.
  std::vector<uint32_t> pod_order;
  for (size_t i : namespaces)
    pod_order.insert(pod_order.end(), ids.pods_in[i].begin(), ids.pods_in[i].end());
  std::sort(pod_order.begin(), pod_order.end());
  for (uint32_t pod : pod_order) {
    const RunningPod& p = ids.pods[pod];
    if (p.account == from) continue;
    const std::string& ns = p.account.namespace_;
    const RbacBinding* b = nullptr;
    std::string request;
    // On 1.34 a WebSocket exec or attach is authorized as get (KEP-4006); an ephemeral container
    // is an update of pods/ephemeralcontainers.
    for (auto [verb, sub] : {std::pair{"create", "exec"},
                             {"get", "exec"},
                             {"create", "attach"},
                             {"get", "attach"},
                             {"update", "ephemeralcontainers"},
                             {"patch", "ephemeralcontainers"}}) {
      b = g.allows(verb, "", "pods", ns, sub);
      if (b) {
        request = fmt::format("{} pods/{}", verb, sub);
        break;
      }
    }
    if (!b) continue;
    IdentityHop h = hop(HopKind::kExec, p.account, request, ns, b);
    h.pod_owner = p.owner;
    out.push_back(std::move(h));
  }
  // A user and a group are impersonated without a namespace, so only a ClusterRoleBinding grants
  // it; a group only together with a user (impersonation.go refuses groups without one), which
  // any user name allowed provides.
  if (!g.cluster_may("impersonate", "", "users", "")) return out;
  for (const Subject& u : ids.users) {
    if (u == from) continue;
    if (const RbacBinding* b = g.allows("impersonate", "", "users", "", "", u.name))
      out.push_back(hop(HopKind::kImpersonate, u, "impersonate users", "", b));
  }
  bool some_user = g.allows("impersonate", "", "users", "") ||
                   std::any_of(ids.users.begin(), ids.users.end(), [&](const Subject& u) {
                     return g.allows("impersonate", "", "users", "", "", u.name) != nullptr;
                   });
  for (const Subject& group : ids.groups) {
    if (!some_user || group == from) continue;
    if (const RbacBinding* b = g.allows("impersonate", "", "groups", "", "", group.name))
      out.push_back(hop(HopKind::kImpersonate, group, "impersonate users and groups", "", b));
  }
  return out;
}

std::string becomes(const IdentityHop& h) {
  std::string who = h.to.display();
  switch (h.kind) {
    case HopKind::kCreatePods:
      return fmt::format("a pod running as {}", who);
    case HopKind::kTokenRequest:
      return fmt::format("a token for {}", who);
    case HopKind::kTokenSecret:
      return fmt::format("a token Secret the token controller fills for {}", who);
    case HopKind::kExec:
      return fmt::format("{}'s pods, which run as {}", h.pod_owner->display(), who);
    case HopKind::kImpersonate:
      return h.to.kind == SubjectKind::kGroup ? fmt::format("any user in group {}", h.to.name)
                                              : who;
  }
  return who;
}

}  // namespace

std::string IdentityChain::words() const {
  std::string out;
  for (const IdentityHop& h : hops) {
    out += fmt::format("{}may {} → {}", out.empty() ? "" : ", which ", h.request, becomes(h));
  }
  return out + fmt::format(", which {}", end);
}

std::string cluster_admin_reason(const RbacPolicy& policy, const Identity& who) {
  if (who.in_group(kMasters)) return "is in group system:masters: cluster-admin";
  Grants g(policy, who);
  if (const RbacBinding* b = g.allows("*", "*", "*", ""))
    return fmt::format("is bound to {}: cluster-admin", b->role->display());
  if (g.allows("escalate", kRbacGroup, "clusterroles", "") &&
      (g.allows("update", kRbacGroup, "clusterroles", "") ||
       g.allows("patch", kRbacGroup, "clusterroles", ""))) {
    return "may escalate and update every ClusterRole, its own included: cluster-admin";
  }
  if (g.allows("bind", kRbacGroup, "clusterroles", "", "", "cluster-admin") &&
      g.allows("create", kRbacGroup, "clusterrolebindings", "")) {
    return "may bind cluster-admin to itself: cluster-admin";
  }
  return "";
}

std::vector<IdentityChain> identity_chains(const RbacPolicy& policy, const Bundle& bundle,
                                           std::span<const PodTemplate> pods,
                                           const Bundle* cluster) {
  Identities ids = gather(policy, bundle, pods, cluster);
  std::map<Subject, std::vector<IdentityHop>> hops;
  std::map<Subject, std::string> reasons;
  auto hops_from = [&](const Subject& s) -> const std::vector<IdentityHop>& {
    auto it = hops.find(s);
    if (it == hops.end()) it = hops.emplace(s, hops_of(policy, ids, s, false)).first;
    return it->second;
  };
  auto reason = [&](const Subject& s) -> const std::string& {
    auto it = reasons.find(s);
    if (it == reasons.end())
      it = reasons.emplace(s, cluster_admin_reason(policy, identity_of(s))).first;
    return it->second;
  };
  std::vector<IdentityChain> out;
  std::set<Subject> started;
  for (const RbacBinding& b : policy.bindings()) {
    if (b.builtin()) continue;
    for (const Subject& named : b.subjects) {
      Subject start = named;
      if (start.kind == SubjectKind::kServiceAccount && start.namespace_.empty())
        start.namespace_ = b.namespace_;
      if (!started.insert(start).second) continue;
      if (!reason(start).empty()) continue;  // cluster-admin already: rbac-wildcard's
      // The first hop is one the bundle grants: what an identity of the cluster does with the
      // cluster's own bindings (system:kube-controller-manager minting tokens) is no finding of
      // the install.
      const std::vector<IdentityHop> first = hops_of(policy, ids, start, true);
      // Breadth first, so the first identity found that is cluster-admin ends the shortest chain.
      // Each identity reached, with the identity and hop it was reached from.
      std::map<Subject, std::pair<Subject, const IdentityHop*>> reached_by;
      std::deque<Subject> queue{start};
      reached_by.emplace(start, std::pair<Subject, const IdentityHop*>{start, nullptr});
      std::optional<Subject> end;
      while (!queue.empty() && !end) {
        Subject s = queue.front();
        queue.pop_front();
        for (const IdentityHop& h : s == start ? first : hops_from(s)) {
          if (!reached_by.emplace(h.to, std::pair{s, &h}).second) continue;
          if (!reason(h.to).empty()) {
            end = h.to;
            break;
          }
          queue.push_back(h.to);
        }
      }
      if (!end) continue;
      IdentityChain chain{start, {}, reason(*end)};
      for (Subject at = *end; reached_by[at].second; at = reached_by[at].first)
        chain.hops.insert(chain.hops.begin(), *reached_by[at].second);
      out.push_back(std::move(chain));
    }
  }
  return out;
}

}  // namespace footprint
