// RBAC checks on rights that lead to more rights: wildcards, escalate/bind/impersonate and tokens,
// roles bound to broad groups.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "analysis/context.h"
#include "analysis/models/rbac_models.h"
#include "analysis/models/rights.h"
#include "analysis/models/subject_index.h"
#include "analysis/rbac/held_paths.h"
#include "analysis/rbac/rbac_internal.h"

namespace footprint {

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
                           [&](const std::string& g) { return ctx.own.owns(g); });
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

// What a rule over every resource of every group allows, in words: the rule_risks() marks, and
// what its write verbs do to every team's objects.
std::vector<std::string> reach_of_every_resource(const PolicyRule& rule) {
  std::vector<std::string> out = rule_risks(rule);
  if (verb_matches(rule, "patch") || verb_matches(rule, "update"))
    out.emplace_back("changes every team's workloads");
  if (verb_matches(rule, "delete") || verb_matches(rule, "deletecollection"))
    out.emplace_back("deletes anything");
  return out;
}

void run_wildcard(const Context& ctx, Findings& out) {
  std::vector<RoleGrants> bound = by_role(ctx.bound);
  ForeignNamespaces foreign(ctx.namespaces);
  auto rate = [&](const BoundRule& b, const WildcardReach& w) {
    std::string ns = scope_of(b);
    if (!b.rule->non_resource_urls.empty()) return Severity::kLow;  // /healthz, /metrics...
    if (w.everything) {
      if (ns.empty() || ns == "kube-system") return Severity::kCritical;
      return foreign(ns) ? Severity::kHigh : Severity::kMedium;
    }
    if (w.own_only) return Severity::kLow;
    if (w.builtin) {
      bool all_resources = contains(b.rule->resources, "*") && contains(b.rule->verbs, "*");
      bool powerful = covers_every_resource(*b.rule) && !reach_of_every_resource(*b.rule).empty();
      if (ns.empty()) return all_resources || powerful ? Severity::kHigh : Severity::kMedium;
      if (ns == "kube-system") return Severity::kHigh;
      return foreign(ns) ? Severity::kMedium : Severity::kLow;
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
    // Held only by a group of people (administrators): the fix is who joins it.
    std::vector<const Subject*> subjects;
    for (const BoundRule& b : holders_of) {
      for (const Subject& subject : b.binding->subjects)
        subjects.push_back(&subject);
    }
    const Subject* people_only =
        !subjects.empty() && std::all_of(subjects.begin(), subjects.end(),
                                         [](const Subject* s) { return people_group(*s); })
            ? subjects.front()
            : nullptr;
    std::string equivalent =
        severity == Severity::kCritical
            ? " That is cluster-admin: full control of the cluster, every team's workloads and "
              "credentials included."
        : wildcard_reach(ctx, *worst->rule).everything
            ? fmt::format(" That is full control of namespace {}.", scope_of(*worst))
            : "";
    std::vector<std::string> reaches;
    if (!wildcard_reach(ctx, *worst->rule).everything && covers_every_resource(*worst->rule))
      reaches = reach_of_every_resource(*worst->rule);
    if (!reaches.empty()) {
      equivalent += fmt::format(
          " Over every resource that means it {} {}.", fmt::join(reaches, ", "),
          scope_of(*worst).empty() ? "in every namespace" : "in namespace " + scope_of(*worst));
    }
    Finding& f = out.add(
        object_of(*worst), severity,
        fmt::format("{} uses \"*\": {}, granted to {}. It covers verbs and resources that future "
                    "Kubernetes versions and CRDs add.{}",
                    g.role->builtin() ? g.role->display() + " (built in)" : g.role->display(),
                    fmt::join(rules, "; "), holders(holders_of), equivalent),
        people_only ? people_group_fix(*people_only)
        : severity == Severity::kCritical
            ? "Bind a ClusterRole that lists what the operator needs instead; keep \"*\" only on "
              "the operator's own API group."
            : "List the verbs, resources and API groups the operator uses.",
        node_of(*worst));
    f.summary =
        severity == Severity::kCritical
            ? fmt::format("{} is cluster-admin ({})", some_of(subject_list(holders_of), 1),
                          g.role->display())
        : !reaches.empty()
            ? fmt::format("{} {} {}", some_of(subject_list(holders_of), 1), some_of(reaches, 3),
                          scope_of(*worst).empty() ? "in every namespace"
                                                   : "in namespace " + scope_of(*worst))
            : fmt::format("\"*\" in {}: {}", g.role->display(), some_of(rules, 1));
    if (!reaches.empty()) f.affects.emplace_back("reaches", reaches);
    f.affects.emplace_back("rules", rules);
    f.affects.emplace_back("subjects", subject_list(holders_of));
  }
  // Roles nothing binds yet: whoever binds them later gets the wildcard.
  for (const RbacRole* role : unbound_roles(ctx, reported)) {
    for (const PolicyRule& rule : role->rules) {
      if (!has_wildcard(rule)) continue;
      WildcardReach w = wildcard_reach(ctx, rule);
      Finding& f = out.add(*role->object, Severity::kInfo,
                           fmt::format("{} uses \"*\": {}. Nothing in the bundle binds it yet; "
                                       "whoever binds it gets that.",
                                       role->display(), w.text),
                           "List the verbs, resources and API groups the role needs.", rule.node);
      f.summary = fmt::format("\"*\" in unbound {}", role->display());
      break;
    }
  }
}

}  // namespace

extern const Check kRbacWildcard{
    .id = "rbac-wildcard",
    .min_severity = Severity::kInfo,
    .max_severity = Severity::kCritical,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description =
        "A rule grants \"*\" in verbs, resources or apiGroups, or a binding grants cluster-admin.",
    .run = run_wildcard,
    .rationale =
        "\"*\" grants what future Kubernetes versions and CRDs add, and every verb on every "
        "resource of every group is cluster-admin. Critical for everything granted cluster-wide or "
        "in kube-system; high for everything in another team's namespace, for every verb on every "
        "resource of a built-in group cluster-wide, and for a rule over every resource of every "
        "group cluster-wide that reaches Secrets, exec or other teams' workloads; medium for other "
        "built-in wildcards cluster-wide, other projects' groups, and built-in wildcards in "
        "another team's namespace; low in the operator's own namespace and on the install's own "
        "API group (the kubebuilder default); info for roles nothing binds. The message names the "
        "API groups. A rule over every resource of every group is reported here once, with what it "
        "reaches, and not again by the other privilege checks.",
    .fix =
        "List the verbs, resources and groups the operator uses; keep \"*\" to its own API group.",
};

namespace {

// "escalate clusterroles", "impersonate uids", "create serviceaccounts/token".
std::string right_words(const Request& q) {
  return fmt::format("{} {}{}", q.verb, q.resource,
                     q.subresource.empty() ? "" : "/" + q.subresource);
}

// Where a bound rule applies, rated as this check rates rights short of cluster-admin.
Severity scoped_severity(const ForeignNamespaces& foreign, const BoundRule& b) {
  std::string ns = scope_of(b);
  return ns.empty() || ns == "kube-system" ? Severity::kHigh
         : foreign(ns)                     ? Severity::kMedium
                                           : Severity::kLow;
}

// The positions of the bundle's bound rules, which order a subject's rights as its bindings list
// them; looked up per right, so by key.
class BoundOrder {
 public:
  explicit BoundOrder(const std::vector<BoundRule>& bound) : size_(bound.size()) {
    for (size_t i = 0; i < bound.size(); ++i)
      index_.try_emplace({bound[i].binding, bound[i].rule}, i);
  }
  size_t operator()(const BoundRule& b) const {
    auto it = index_.find({b.binding, b.rule});
    return it == index_.end() ? size_ : it->second;
  }

 private:
  std::map<std::pair<const RbacBinding*, const PolicyRule*>, size_t> index_;
  size_t size_;
};

// Whether rbac-binding-write rates `subject` critical, naming its ClusterRole rewrite there.
bool binding_write_critical(const Context& ctx, const Subject& subject) {
  std::optional<BindingReach> reach = binding_reach_of(ctx, subject);
  return reach && reach->severity == Severity::kCritical;
}

// How a subject reaches cluster-admin along the identity edges of its paths.
struct Takeover {
  std::string how;
  // The takeover is one rbac-binding-write already reports as critical for this subject.
  bool folded = false;
};

Takeover takeover_of(const Context& ctx, const std::vector<const HeldEscalation*>& held) {
  Takeover out;
  for (const IdentityEdge& edge : identity_edges()) {
    for (const HeldEscalation* h : held) {
      if (h->path->id != edge.path) continue;
      std::string how = edge.to_cluster_admin(ctx, *h);
      if (how.empty()) continue;
      bool folded = edge.named_by_binding_writes && binding_write_critical(ctx, h->rights.subject);
      // A takeover of its own wins over one rbac-binding-write holds.
      if (out.how.empty() || (out.folded && !folded)) out = Takeover{std::move(how), folded};
    }
  }
  return out;
}

void report_escalations(const Context& ctx, const BoundOrder& order,
                        const ForeignNamespaces& foreign, Findings& out,
                        const std::vector<const HeldEscalation*>& held) {
  const Subject& subject = held.front()->rights.subject;
  std::vector<const Right*> rights;
  for (const HeldEscalation* h : held) {
    for (const Right& r : h->rights.rights)
      rights.push_back(&r);
  }
  std::stable_sort(rights.begin(), rights.end(), [&](const Right* a, const Right* b) {
    return order(a->grant) < order(b->grant);
  });
  std::vector<std::string> words;
  std::vector<std::string> sources;
  std::vector<std::string> roles;
  Severity severity = Severity::kInfo;
  for (const Right* r : rights) {
    for (const Request& q : r->requests)
      add_unique(words, right_words(q));
    add_unique(sources, fmt::format("{} (through {})", r->grant.role->display(),
                                    r->grant.binding->display()));
    add_unique(roles, r->grant.role->display());
    severity = std::max(severity, scoped_severity(foreign, r->grant));
  }
  Takeover takeover = takeover_of(ctx, held);
  if (!takeover.how.empty() && !takeover.folded) severity = Severity::kCritical;
  const BoundRule& first = rights.front()->grant;
  Finding& f = out.add(
      object_of(first), severity,
      fmt::format("{} can {}, through {}: it can gain permissions it was not given{}.",
                  subject.display(), fmt::join(words, ", "), some_of(sources, 2),
                  takeover.folded
                      ? fmt::format(", up to cluster-admin ({}; rated with its binding writes in "
                                    "rbac-binding-write, which names both paths)",
                                    takeover.how)
                  : !takeover.how.empty()
                      ? fmt::format(", up to cluster-admin ({})", takeover.how)
                      : ", up to what the roles and accounts in its reach hold"),
      "Remove these verbs unless the operator's purpose is managing RBAC or tokens, and then "
      "restrict them with resourceNames.",
      node_of(first));
  about_shared(f, subject.display());  // one finding per subject
  f.summary = fmt::format("{} can {}", subject.display(), some_of(words, 2));
  f.affects.emplace_back("rights", words);
  f.affects.emplace_back("subjects", std::vector<std::string>{subject.display()});
  f.affects.emplace_back("roles", roles);
  // Subjects that hold the same requests join into one finding (join_same_rights); one whose
  // takeover names its own path keeps a finding of its own.
  if (takeover.how.empty()) f.affects.emplace_back("grants", granted_requests(rights));
}

void run_privilege_escalation(const Context& ctx, Findings& out) {
  std::set<const RbacRole*> reported;
  BoundOrder order(ctx.bound);
  ForeignNamespaces foreign(ctx.namespaces);
  for (const std::vector<const HeldEscalation*>& held : held_by_subject(ctx, out.check())) {
    report_escalations(ctx, order, foreign, out, held);
    for (const HeldEscalation* h : held) {
      for (const Right& r : h->rights.rights)
        reported.insert(r.grant.role);
    }
  }
  for (const RbacRole* role : unbound_roles(ctx, reported)) {
    std::vector<UnboundHold> holds = held_if_bound(ctx, *role, out.check());
    if (holds.empty()) continue;
    // Reported at the first rule that gives a path, listing every path of the role.
    const PolicyRule* first = holds.front().rule;
    std::vector<std::string> words;
    for (const UnboundHold& h : holds) {
      if (h.rule < first) first = h.rule;
      for (const Request& q : h.requests)
        add_unique(words, right_words(q));
    }
    Finding& f = out.add(*role->object, Severity::kInfo,
                         fmt::format("{} allows {}; nothing in the bundle binds it yet, but "
                                     "whoever is bound to it can gain permissions it was not "
                                     "given.",
                                     role->display(), fmt::join(words, ", ")),
                         "Remove these verbs unless the role is meant for managing RBAC or tokens.",
                         first->node);
    f.summary = fmt::format("Unbound {} allows {}", role->display(), some_of(words, 2));
  }
}

}  // namespace

extern const Check kRbacPrivilegeEscalation{
    .id = "rbac-privilege-escalation",
    .min_severity = Severity::kInfo,
    .max_severity = Severity::kCritical,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description = "A rule grants escalate, bind, impersonate, or create on serviceaccounts/token.",
    .run = run_privilege_escalation,
    .rationale =
        "escalate, bind, impersonate and serviceaccounts/token let the holder gain permissions it "
        "was not given (Kubernetes' RBAC good practices: \"Escalate verb\", \"Bind verb\", "
        "\"Impersonate verb\", \"Token request\"). Critical when that reaches cluster-admin: "
        "impersonating or minting a token for an identity that is cluster-admin or becomes it "
        "(the identity chain the finding names: any user in system:masters, "
        "clusterrole-aggregation-controller in kube-system, which may escalate any ClusterRole, "
        "a ServiceAccount bound to cluster-admin), or escalate with update on every ClusterRole "
        "cluster-wide (it may rewrite its own); "
        "high for other cluster-wide or kube-system rights; medium in another team's namespace; "
        "low in the operator's own; info when unbound. One finding per subject, naming the roles "
        "it holds them through; subjects holding the same requests share one, unless it names "
        "their own way to cluster-admin. bind together with creating ClusterRoleBindings is rated "
        "by "
        "rbac-binding-write, which names the strongest role it may bind; so is escalate with "
        "update on every ClusterRole when that subject's binding writes are already critical (high "
        "here).",
    .fix =
        "Remove these verbs unless managing RBAC or tokens is the operator's purpose, and restrict "
        "them with resourceNames.",
};

namespace {

// The objects a role lets anyone read when that is all it does: every rule reads (get, list,
// watch) named objects other than Secrets, such as a ConfigMap that publishes the installed
// version. Empty for any other role.
std::vector<std::string> named_reads_only(const RbacRole* role) {
  std::vector<std::string> objects;
  if (!role || role->rules.empty()) return objects;
  for (const PolicyRule& rule : role->rules) {
    bool reads = !rule.verbs.empty() &&
                 std::all_of(rule.verbs.begin(), rule.verbs.end(), [](const std::string& v) {
                   return v == "get" || v == "list" || v == "watch";
                 });
    bool plain = rule.non_resource_urls.empty() && !rule.resources.empty() &&
                 std::none_of(rule.resources.begin(), rule.resources.end(),
                              [](const std::string& r) { return r == "*" || r == "secrets"; });
    if (!reads || !plain || rule.resource_names.empty()) return {};
    for (const std::string& resource : rule.resources) {
      for (const std::string& name : rule.resource_names)
        add_unique(objects, fmt::format("{} {}", resource, name));
    }
  }
  return objects;
}

// Who a broad subject is, in words: anyone without credentials, every authenticated user, every
// service account (of one namespace); nothing for a named user, account or other group.
struct Audience {
  std::string who;
  bool anonymous = false;
  bool one_namespace = false;
};

std::optional<Audience> broad_audience(const Subject& s) {
  if ((s.kind == SubjectKind::kGroup && s.name == "system:unauthenticated") ||
      (s.kind == SubjectKind::kUser && s.name == "system:anonymous")) {
    return Audience{"anyone who can reach the API server, without credentials", true, false};
  }
  if (s.kind != SubjectKind::kGroup) return std::nullopt;
  if (s.name == "system:authenticated") {
    return Audience{"every authenticated user and service account", false, false};
  }
  if (s.name == "system:serviceaccounts") {
    return Audience{"every service account in every namespace", false, false};
  }
  if (s.name.starts_with("system:serviceaccounts:")) {
    return Audience{fmt::format("every service account in namespace {}",
                                s.name.substr(std::string_view("system:serviceaccounts:").size())),
                    false, true};
  }
  return std::nullopt;
}

void run_broad_group_binding(const Context& ctx, Findings& out) {
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (b.builtin()) continue;
    // The role's risks cost an authorizer question per rule and path: only asked for bindings
    // to broad subjects, which few are.
    if (std::none_of(b.subjects.begin(), b.subjects.end(),
                     [](const Subject& s) { return broad_audience(s).has_value(); })) {
      continue;
    }
    std::vector<std::string> published = named_reads_only(b.role);
    std::set<std::string> risks;
    if (b.role) {
      for (const PolicyRule& rule : b.role->rules) {
        for (const std::string& r : rule_risks(rule))
          risks.insert(r);
      }
    }
    for (const Subject& s : b.subjects) {
      std::optional<Audience> audience = broad_audience(s);
      if (!audience) continue;
      const std::string& who = audience->who;
      bool anonymous = audience->anonymous;
      bool one_namespace = audience->one_namespace;
      // Everyone holding a right is what makes the right dangerous: powerful rights granted to
      // a broad group are a takeover; read access is a disclosure.
      Severity severity = anonymous        ? Severity::kCritical
                          : !risks.empty() ? (one_namespace ? Severity::kHigh : Severity::kCritical)
                          : one_namespace  ? Severity::kLow
                                           : Severity::kMedium;
      if (!anonymous && !published.empty()) {
        // Reading a few named objects that are not Secrets is a deliberate publication (a
        // version ConfigMap clients check), not a grant anyone can abuse.
        Finding& f = out.add(
            *b.object, Severity::kLow,
            fmt::format("{} lets {} read only {}{}: a deliberate publication of named objects "
                        "that are not Secrets, which reveals their contents to {} and nothing "
                        "more.",
                        b.display(), s.kind == SubjectKind::kGroup ? "group " + s.name : s.name,
                        some_of(published, 4),
                        b.cluster ? "" : fmt::format(" in namespace {}", b.namespace_), who),
            fmt::format("Keep it if these objects hold nothing confidential: removing the binding "
                        "breaks every client that reads {} with its own credentials. Move "
                        "anything confidential out of them instead.",
                        some_of(published, 2)),
            b.object->node.get("subjects"));
        f.summary = fmt::format("{} lets {} read {}", b.display(), who, some_of(published, 2));
        f.affects.emplace_back("readable", published);
        continue;
      }
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
    .id = "rbac-broad-group-binding",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kCritical,
    .impact = Impact::kOtherTeams,
    .area = Area::kRbac,
    .description =
        "A binding grants a role to system:authenticated, system:unauthenticated or all service "
        "accounts.",
    .run = run_broad_group_binding,
    .rationale =
        "Binding a role to system:unauthenticated, system:authenticated or every service account "
        "gives it to everyone in that group. Critical for anyone without credentials, and for "
        "powerful rights (secrets, workloads, exec, escalation, webhooks, CRDs) to every user or "
        "account; high for powerful rights to every account of one namespace; medium for other "
        "rights to broad groups; low for other rights in one namespace, and for a role that only "
        "reads named objects other than Secrets (a version ConfigMap published on purpose).",
    .fix = "Bind the role to the operator's own ServiceAccount instead of a group.",
};

}  // namespace footprint
