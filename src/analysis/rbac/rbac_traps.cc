// RBAC traps: rules and bindings that do not grant what their author meant, so the operator
// fails at run time. Before a finding says a request is forbidden, it asks the authorizer
// whether another rule allows it; a rule covered elsewhere is dead code, reported as such.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <tuple>
#include <utility>

#include "analysis/context.h"
#include "analysis/rbac/rbac_internal.h"
#include "model/webhook_client.h"

namespace footprint {

Identity identity_of(const Subject& subject) {
  switch (subject.kind) {
    case SubjectKind::kServiceAccount:
      return Identity::service_account(subject.namespace_, subject.name);
    case SubjectKind::kUser:
      return Identity::named_user(subject.name);
    case SubjectKind::kGroup:
      break;
  }
  return Identity{"", {subject.name}};
}

namespace {

// The first namespace other than `ns` where `who` may list and watch `resource` without naming
// an object, as the authorizer answers (a ClusterRoleBinding would have covered `ns` too, so only
// RoleBindings' namespaces are asked), and the grant there.
std::pair<std::string, Decision> informer_elsewhere(const RbacPolicy& policy, const Identity& who,
                                                    const std::string& group,
                                                    const std::string& base, const std::string& sub,
                                                    const std::string& ns) {
  std::vector<std::string> asked;
  for (const RbacBinding& b : policy.bindings()) {
    if (b.cluster || b.namespace_ == ns || contains(asked, b.namespace_)) continue;
    asked.push_back(b.namespace_);
    Decision list = policy.authorize(who, resource_request("list", group, base, b.namespace_, sub));
    if (list.allowed &&
        policy.authorize(who, resource_request("watch", group, base, b.namespace_, sub)).allowed)
      return {b.namespace_, list};
  }
  return {"", Decision{}};
}

}  // namespace

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
        // A named Lease is a leader-election lock: client-go's LeaseLock (leaselock.go) only
        // gets, creates and updates it by name, never lists, so list and watch there are unused
        // verbs, not an informer that cannot sync.
        if (group == "coordination.k8s.io" && base == "leases") continue;
        std::vector<const RbacBinding*> bindings = bindings_of(policy, role);
        // An aggregated role's rules are judged in the role that includes them.
        if (bindings.empty() && aggregated_into_another(policy, role)) continue;
        if (bindings.empty()) {
          traps.push_back(ListWatchTrap{&role, &rule, nullptr, Subject{}, group, resource,
                                        role.namespace_, Decision{}, "", Decision{}});
          continue;
        }
        for (const RbacBinding* b : bindings) {
          for (const Subject& s : b->subjects) {
            std::string ns = b->cluster ? "" : b->namespace_;
            Identity who = identity_of(s);
            Decision covered = policy.authorize(who, resource_request(verb, group, base, ns, sub));
            ListWatchTrap& t = traps.emplace_back(
                ListWatchTrap{&role, &rule, b, s, group, resource, ns, covered, "", Decision{}});
            if (!covered.allowed && !ns.empty()) {
              std::tie(t.informer_namespace, t.informer_grant) =
                  informer_elsewhere(policy, who, group, base, sub, ns);
            }
          }
        }
      }
    }
  }
  return traps;
}

namespace {

// Whether `text` holds `name` as a whole word: "--ca-secret=webhook-ca" holds webhook-ca.
bool holds_word(std::string_view text, std::string_view name) {
  auto part_of_name = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
  };
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    bool starts = at == 0 || !part_of_name(text[at - 1]);
    bool ends = at + name.size() == text.size() || !part_of_name(text[at + name.size()]);
    if (starts && ends) return true;
  }
  return false;
}

// The command-line argument or environment value of a container running as `subject` that names
// one of `objects`: the sign of an operator that reads that one object, typically with the field
// selector metadata.name that a resourceNames rule does allow (cert-manager's webhook reads its
// CA Secret that way, named by --dynamic-serving-ca-secret-name).
std::string object_named_by_containers(const Bundle& bundle, const Subject& subject,
                                       const std::vector<std::string>& objects) {
  if (subject.kind != SubjectKind::kServiceAccount) return "";
  for (const PodTemplate& t : pod_templates(bundle)) {
    if (t.owner->namespace_ != subject.namespace_) continue;
    if (service_account_of(t.spec) != subject.name) continue;
    yaml::Node containers = t.spec.get("containers");
    for (size_t c = 0; c < containers.size(); ++c) {
      std::vector<yaml::Node> values;
      for (const char* list : {"command", "args"}) {
        yaml::Node items = containers.item(c).get(list);
        for (size_t i = 0; i < items.size(); ++i)
          values.push_back(items.item(i));
      }
      yaml::Node env = containers.item(c).get("env");
      for (size_t i = 0; i < env.size(); ++i)
        values.push_back(env.item(i).get("value"));
      for (const yaml::Node& v : values) {
        if (!v.is_scalar()) continue;
        for (const std::string& object : objects) {
          if (holds_word(v.str(), object)) return std::string(v.str());
        }
      }
    }
  }
  return "";
}

std::string covered_text(const Decision& d) {
  return fmt::format("{} (through {})", d.role->display(), d.binding->display());
}

void run_resourcenames_list_watch(const Context& ctx, Findings& out) {
  for (const ListWatchTrap& t : find_list_watch_traps(ctx.bundle, ctx.rbac)) {
    std::string what = group_resource(t.api_group, t.resource);
    // One rule can trap several resources and subjects: each is its own finding.
    std::string trap_key =
        fmt::format("\n{}\n{}\n{}", what, t.namespace_, t.binding ? t.subject.display() : "");
    const ResourceInfo* info = ctx.bundle.resources.find_resource(
        t.api_group, std::string_view(t.resource).substr(0, t.resource.find('/')));
    // where() of the binding, except for cluster-scoped resources, which no namespace holds.
    auto where = [&](const std::string& ns) {
      return info && info->scope == Scope::kCluster ? std::string("cluster-wide")
                                                    : footprint::where(ns);
    };
    std::string grant =
        fmt::format("{} grants {} on {} only for resourceNames {}", t.role->display(),
                    fmt::join(t.rule->verbs, ", "), what, bracketed(t.rule->resource_names));
    std::string informer =
        "A list or watch that does not name one object, which is what a controller-runtime "
        "informer does, is forbidden by this rule.";
    if (!t.binding) {
      Finding& f = out.add(
          *t.role->object, Severity::kLow,
          fmt::format("{}. {} Nothing in the bundle binds this role yet; whoever it is bound to "
                      "will not be able to list or watch {} through it.",
                      grant, informer, what),
          "Drop list and watch from this rule, or grant them in a rule without resourceNames.",
          t.rule->node);
      f.key += trap_key;
      f.summary = fmt::format("{} cannot serve an informer on {}", t.role->display(), what);
      continue;
    }
    if (t.covered_by.allowed) {
      Finding& f = out.add(
          *t.role->object, Severity::kInfo,
          fmt::format("{}. {} Here that restriction is dead code: {} already allows {} to list "
                      "{} {}. In an install mode without that grant, the same rule would break "
                      "the operator.",
                      grant, informer, covered_text(t.covered_by), t.subject.display(), what,
                      where(t.namespace_)),
          "Remove list and watch from the resourceNames rule, and keep the unrestricted grant "
          "that covers them.",
          t.rule->node);
      f.key += trap_key;
      f.summary = fmt::format("A resourceNames list rule on {} is covered by {}", what,
                              t.covered_by.role->display());
      continue;
    }
    // What `footprint fix rbac` writes: a grant in the binding's scope.
    std::string fix_objects =
        t.namespace_.empty() ? "ClusterRole and ClusterRoleBinding" : "Role and RoleBinding";
    std::string widen = fmt::format(
        "grant get, list and watch on {} {} without resourceNames (`footprint fix rbac` writes "
        "that {})",
        what, where(t.namespace_), fix_objects);
    std::string selector =
        t.rule->resource_names.size() == 1
            ? t.rule->resource_names.front()
            : fmt::format("NAME, one watch per name of {}", bracketed(t.rule->resource_names));
    std::string denied = fmt::format(
        "{} has no other rule allowing it to list {} {} (bound "
        "through {})",
        t.subject.display(), what, where(t.namespace_), t.binding->display());
    if (!t.informer_namespace.empty()) {
      // The subject lists and watches the whole kind elsewhere: its code runs an informer over
      // the kind, and a cache spanning its namespaces runs it here too.
      Finding& f = out.add(
          *t.role->object, Severity::kHigh,
          fmt::format("{}. {} {}, yet {} lets it list and watch all {} in namespace {}, the "
                      "rights of an informer over {}: an operator whose informer cache spans its "
                      "namespaces lists {} {} as well, which is forbidden, so the cache never "
                      "syncs; controller-runtime managers exit; expect CrashLoopBackOff.",
                      grant, informer, denied, covered_text(t.informer_grant), what,
                      t.informer_namespace, what, what, where(t.namespace_)),
          fmt::format("Grant get, list and watch on {} {} without resourceNames (`footprint fix "
                      "rbac` writes that {}), or restrict the operator's informer with the field "
                      "selector metadata.name={}.",
                      what, where(t.namespace_), fix_objects, selector),
          t.rule->node);
      f.key += trap_key;
      f.summary = fmt::format("{} cannot list {} {}: its informer never syncs (CrashLoopBackOff)",
                              t.subject.display(), what, where(t.namespace_));
      f.affects.emplace_back("subjects", std::vector<std::string>{t.subject.display()});
      continue;
    }
    std::string evidence =
        object_named_by_containers(ctx.bundle, t.subject, t.rule->resource_names);
    if (!evidence.empty()) {
      Finding& f = out.add(
          *t.role->object, Severity::kLow,
          fmt::format("{}. {} {}, but its containers name the object (`{}`): an operator that "
                      "reads one object usually lists and watches it with the field selector "
                      "metadata.name, which this rule allows. If it runs an unfiltered informer "
                      "instead, the cache never syncs and the pod crash-loops.",
                      grant, informer, denied, evidence),
          fmt::format("Check that the operator watches {} by name (a field selector on "
                      "metadata.name); if it does not, {}.",
                      what, widen),
          t.rule->node);
      f.key += trap_key;
      f.summary = fmt::format(
          "{} may list {} {} only by name: fine for a field-selector watch, a crash loop for an "
          "informer",
          t.subject.display(), what, where(t.namespace_));
      f.affects.emplace_back("subjects", std::vector<std::string>{t.subject.display()});
      continue;
    }
    // RequestInfo (staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go) names a
    // list or watch after its field selector metadata.name=NAME, which a resourceNames rule
    // matches; only an unfiltered list fails, and nothing here shows the operator makes one.
    Finding& f = out.add(
        *t.role->object, Severity::kMedium,
        fmt::format("{}. The API server names a list or watch after its field selector "
                    "metadata.name=NAME, so only a watch of the named objects through that field "
                    "selector works; an informer over the kind is forbidden. {}, and nothing in "
                    "the bundle lets it list and watch {} without names anywhere, as an informer "
                    "would need. If the operator runs an informer over {} {}, its cache never "
                    "syncs and the pod crash-loops.",
                    grant, denied, what, what, where(t.namespace_)),
        fmt::format("If the operator runs an informer over {}, {}, or restrict it with the field "
                    "selector metadata.name={}; if it reads only the named objects, nothing "
                    "fails.",
                    what, widen, selector),
        t.rule->node);
    f.key += trap_key;
    f.summary = fmt::format(
        "{} may list {} {} only by name: a watch by field selector metadata.name works, an "
        "informer does not",
        t.subject.display(), what, where(t.namespace_));
    f.affects.emplace_back("subjects", std::vector<std::string>{t.subject.display()});
  }
}

}  // namespace

extern const Check kRbacResourceNamesListWatch{
    "rbac-resourcenames-list-watch",
    Severity::kInfo,
    Severity::kHigh,
    Impact::kInstall,
    "rbac",
    "A rule grants list or watch with resourceNames, which an informer's unnamed list never "
    "matches.",
    run_resourcenames_list_watch,
    "An informer lists and watches without naming an object, which a rule limited by resourceNames "
    "never allows; controller-runtime managers then never sync their cache and exit (the field "
    "report's 161 crash loops). A list or watch with the field selector metadata.name=NAME is "
    "named after NAME (the API server's RequestInfo), so such a rule does allow a watch of the "
    "named objects. High when nothing else lets the subject list there (checked with the "
    "authorizer) and the subject may list and watch the kind without names in another namespace, "
    "the sign of an informer over the kind; medium when nothing else lets it list there but "
    "nothing shows it lists the kind; low when its containers name the object in their arguments "
    "or environment (it likely watches it by name), or while nothing binds the role; info when "
    "another rule covers the request, which makes the restriction dead code. A named "
    "coordination.k8s.io Lease is not reported: leader election only gets, creates and updates "
    "its one lease, and never lists.",
    "Grant get, list and watch without resourceNames where the operator watches (`footprint fix "
    "rbac` writes the Role), or have the operator watch with the field selector metadata.name.",
    /*breaks_on_install=*/true};

namespace {

// For a rule that grants nothing for some requests, whether the subjects of its role get those
// requests from another rule: the first subject and request left without, or the covering
// decisions. `requests` are evaluated per binding, in that binding's scope.
struct Coverage {
  bool bound = false;
  std::vector<std::string> denied;  // "ServiceAccount a/b: create secrets in ns"
  std::vector<std::string> covered_by;
};

template <typename MakeRequests>
Coverage coverage(const RbacPolicy& policy, const RbacRole& role, MakeRequests make_requests) {
  Coverage c;
  for (const RbacBinding* b : bindings_of(policy, role)) {
    for (const Subject& s : b->subjects) {
      c.bound = true;
      for (const Request& r : make_requests(*b)) {
        Decision d = policy.authorize(identity_of(s), r);
        if (!d.allowed) {
          c.denied.push_back(fmt::format("{}: {}", s.display(), r.describe()));
          continue;
        }
        std::string by = covered_text(d);
        if (std::find(c.covered_by.begin(), c.covered_by.end(), by) == c.covered_by.end())
          c.covered_by.push_back(std::move(by));
      }
    }
  }
  return c;
}

// The verbs of `wanted` a rule lists, with "*" standing for all of them.
std::vector<std::string> listed_verbs(const PolicyRule& rule,
                                      std::initializer_list<const char*> wanted) {
  std::vector<std::string> out;
  for (const char* v : wanted) {
    if (verb_matches(rule, v)) out.emplace_back(v);
  }
  return out;
}

// A resource whose name holds a dot is no resource the API server serves (plurals are DNS
// labels): it is a pseudo-resource that an aggregated API server asks the authorizer about
// itself, through a SubjectAccessReview, with a name of its choosing. Calico's API server asks
// for create on tier.networkpolicies named "TIER.*" before it creates a policy in that tier.
bool pseudo_resource(std::string_view resource) {
  return resource.find('.') != std::string_view::npos;
}

// Cluster-wide objects that change how the API server treats everyone's requests: create on
// every one of them is never the fix for a rule that names a few.
bool cluster_control_resource(std::string_view resource) {
  static constexpr std::string_view kControl[] = {
      "customresourcedefinitions",         "mutatingwebhookconfigurations",
      "validatingwebhookconfigurations",   "validatingadmissionpolicies",
      "validatingadmissionpolicybindings", "mutatingadmissionpolicies",
      "mutatingadmissionpolicybindings",   "apiservices"};
  return std::find(std::begin(kControl), std::end(kControl), resource) != std::end(kControl);
}

// Another rule of the role that grants something on the resource without resourceNames: the
// operator's use of the resource is written there, and the named rule's create is a leftover.
bool unrestricted_rule_beside(const RbacRole& role, const PolicyRule& named,
                              const std::string& group, const std::string& resource) {
  return std::any_of(role.rules.begin(), role.rules.end(), [&](const PolicyRule& r) {
    return &r != &named && r.resource_names.empty() && api_group_matches(r, group) &&
           resource_matches(r, resource, "");
  });
}

void run_resourcenames_create(const Context& ctx, Findings& out) {
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin()) continue;
    for (const PolicyRule& rule : role.rules) {
      if (rule.resource_names.empty()) continue;
      std::vector<std::string> verbs = listed_verbs(rule, {"create", "deletecollection"});
      // A subresource create (pods/eviction, serviceaccounts/token) names its parent object.
      std::vector<std::pair<std::string, std::string>> targets;
      for (const auto& [group, resource] : literal_targets(rule)) {
        if (resource.find('/') == std::string::npos && !pseudo_resource(resource))
          targets.emplace_back(group, resource);
      }
      if (verbs.empty() || targets.empty()) continue;
      std::vector<std::string> resources;
      bool control = false;
      bool beside = true;
      for (const auto& [group, resource] : targets) {
        resources.push_back(group_resource(group, resource));
        control = control || cluster_control_resource(resource);
        beside = beside && unrestricted_rule_beside(role, rule, group, resource);
      }
      Coverage c = coverage(ctx.rbac, role, [&](const RbacBinding& b) {
        std::vector<Request> requests;
        for (const std::string& verb : verbs) {
          for (const auto& [group, resource] : targets)
            requests.push_back(
                resource_request(verb, group, resource, b.cluster ? "" : b.namespace_));
        }
        return requests;
      });
      std::string head = fmt::format(
          "{} lists {} on {} with resourceNames {}. A {} request carries no object name, so this "
          "rule never allows it",
          role.display(), fmt::join(verbs, " and "), fmt::join(resources, ", "),
          bracketed(rule.resource_names), fmt::join(verbs, " or "));
      // Widening is the fix only where creating any object of the kind is harmless; for
      // cluster-wide control objects the chart should ship the named objects instead.
      std::string fix =
          control
              ? fmt::format(
                    "Remove {} from this rule. If the operator must create these "
                    "objects, ship them in the chart instead: RBAC cannot limit {} "
                    "to names, and {} on every one of them lets it change how the "
                    "API server treats everyone's requests.",
                    fmt::join(verbs, " and "), fmt::join(verbs, " or "), fmt::join(verbs, " or "))
              : fmt::format(
                    "Move {} to a rule without resourceNames if the operator needs "
                    "it; keep resourceNames for get, update, patch and delete.",
                    fmt::join(verbs, " and "));
      Severity severity;
      std::string message;
      if (!c.bound) {
        severity = Severity::kLow;
        message = head + "; nothing in the bundle binds the role yet.";
      } else if (c.denied.empty()) {
        severity = Severity::kInfo;
        message = fmt::format(
            "{}, but the requests are allowed elsewhere ({}): the rule is dead "
            "code.",
            head, fmt::join(c.covered_by, "; "));
        fix = fmt::format("Remove {} from this rule.", fmt::join(verbs, " and "));
      } else if (beside) {
        // The role's unrestricted rule on the same resource says what the operator does with
        // it; a create that only the named rule lists is most likely never issued.
        severity = Severity::kLow;
        message = fmt::format(
            "{}. Another rule of the role grants the same resource without names, and does not "
            "list {}: the operator most likely never issues it, so nothing fails, but {} would "
            "be forbidden.",
            head, fmt::join(verbs, " or "), some_of(c.denied, 2));
        fix = fmt::format("Remove {} from this rule.", fmt::join(verbs, " and "));
      } else {
        severity = Severity::kMedium;
        message = fmt::format("{}, and nothing else allows it: {} is forbidden.", head,
                              some_of(c.denied, 2));
      }
      Finding& f = out.add(*role.object, severity, std::move(message), std::move(fix), rule.node);
      f.summary = fmt::format("{} never allows {} on {}", role.display(), fmt::join(verbs, " or "),
                              fmt::join(resources, ", "));
      if (!c.denied.empty()) f.affects.emplace_back("forbidden", c.denied);
    }
  }
}

}  // namespace

extern const Check kRbacResourceNamesCreate{
    "rbac-resourcenames-create",
    Severity::kInfo,
    Severity::kMedium,
    Impact::kInstall,
    "rbac",
    "create or deletecollection is listed with resourceNames, which those requests never carry.",
    run_resourcenames_create,
    "create and deletecollection requests carry no object name, so a rule that lists them with "
    "resourceNames never allows them. Medium when a bound subject has no other rule for the "
    "request (it is forbidden); low while the role is unbound, or when another rule of the role "
    "grants the same resource without names and without the verb (the operator most likely never "
    "issues it); info when another rule allows it (dead code). Pseudo-resources with a dot "
    "(Calico's tier.networkpolicies), which an aggregated API server authorizes itself with names "
    "of its own, are not reported. The fix never grants create on every CRD, webhook "
    "configuration, admission policy or APIService.",
    "Remove create and deletecollection from rules with resourceNames; grant them without names "
    "only where creating any object of the kind is acceptable."};

namespace {

// One rule of a Role that names cluster-scoped resources, and whether its requests are granted
// elsewhere.
struct RulePart {
  std::string text;     // "get, list on nodes"
  bool plural = false;  // several resources
  yaml::Node node;
  Coverage coverage;
};

// One finding per Role: its rules on cluster-scoped resources share one cause (rules written for
// a ClusterRole, as a chart's namespace-restricted mode copies them), listed as its parts.
void report_cluster_scoped_rules(const RbacRole& role, const std::vector<RulePart>& parts,
                                 Findings& out) {
  if (parts.empty()) return;
  std::vector<std::string> texts;
  std::vector<std::string> denied;
  std::vector<std::string> covered;
  bool bound = false;
  for (const RulePart& p : parts) {
    texts.push_back(p.text);
    bound = bound || p.coverage.bound;
    for (const std::string& d : p.coverage.denied)
      add_unique(denied, d);
    for (const std::string& c : p.coverage.covered_by)
      add_unique(covered, c);
  }
  bool one = parts.size() == 1;
  std::string head = fmt::format(
      "{} grants {}, {} cluster-scoped. A Role's rules apply only inside its namespace, so {} "
      "nothing",
      role.display(),
      one ? texts.front() : fmt::format("in {} rules: {}", parts.size(), some_of(texts, 4)),
      one ? (parts.front().plural ? "which are" : "which is") : "all",
      one ? "this rule grants" : "these rules grant");
  Severity severity;
  std::string message;
  std::string fix = fmt::format(
      "Move the {} to a ClusterRole bound with a ClusterRoleBinding, or "
      "remove {}.",
      one ? "rule" : "rules", one ? "it" : "them");
  if (!bound) {
    severity = Severity::kLow;
    message = head + "; nothing in the bundle binds the role yet.";
  } else if (denied.empty()) {
    severity = Severity::kInfo;
    message = fmt::format("{}. The same requests are allowed elsewhere ({}), so {} dead code.",
                          head, fmt::join(covered, "; "), one ? "the rule is" : "the rules are");
    fix = one ? "Remove the rule." : "Remove the rules.";
  } else {
    severity = Severity::kMedium;
    message = fmt::format("{}, and nothing else allows these requests: {} is forbidden.", head,
                          some_of(denied, 2));
  }
  Finding& f = out.add(*role.object, severity, std::move(message), std::move(fix),
                       one ? parts.front().node : role.object->node.get("rules"));
  f.summary = fmt::format("{} cannot grant cluster-scoped {}", role.display(),
                          one ? texts.front().substr(texts.front().find(" on ") + 4)
                              : fmt::format("resources ({} rules)", parts.size()));
  if (!one) f.affects.emplace_back("rules", texts);
  if (!denied.empty()) f.affects.emplace_back("forbidden", denied);
}

void run_role_cluster_resource(const Context& ctx, Findings& out) {
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin() || role.cluster) continue;
    std::vector<RulePart> parts;
    for (const PolicyRule& rule : role.rules) {
      std::vector<std::pair<std::string, std::string>> cluster_scoped;
      for (const auto& [group, resource] : literal_targets(rule)) {
        std::string base = resource.substr(0, resource.find('/'));
        const ResourceInfo* info = ctx.bundle.resources.find_resource(group, base);
        // A Role may hold get on its own Namespace object: the request is in that namespace.
        if (info && info->scope == Scope::kCluster && !(group.empty() && base == "namespaces"))
          cluster_scoped.emplace_back(group, resource);
      }
      if (cluster_scoped.empty()) continue;
      std::vector<std::string> names;
      for (const auto& [group, resource] : cluster_scoped)
        names.push_back(group_resource(group, resource));
      std::vector<std::string> verbs =
          contains(rule.verbs, "*") ? std::vector<std::string>{"get", "list"} : rule.verbs;
      Coverage c = coverage(ctx.rbac, role, [&](const RbacBinding&) {
        std::vector<Request> requests;
        for (const std::string& verb : verbs) {
          for (const auto& [group, resource] : cluster_scoped) {
            std::string base = resource.substr(0, resource.find('/'));
            std::string sub = resource.size() > base.size() ? resource.substr(base.size() + 1) : "";
            requests.push_back(resource_request(verb, group, base, "", sub));
          }
        }
        return requests;
      });
      parts.push_back(
          RulePart{fmt::format("{} on {}", fmt::join(rule.verbs, ", "), fmt::join(names, ", ")),
                   names.size() > 1, rule.node, std::move(c)});
    }
    report_cluster_scoped_rules(role, parts, out);
    for (const PolicyRule& rule : role.rules) {
      if (rule.non_resource_urls.empty()) continue;
      Finding& f = out.add(
          *role.object, Severity::kHigh,
          fmt::format("{} lists nonResourceURLs {}, which only a ClusterRole may hold: the API "
                      "server rejects this Role, and the install fails.",
                      role.display(), bracketed(rule.non_resource_urls)),
          "Move the nonResourceURLs rule to a ClusterRole bound with a ClusterRoleBinding.",
          rule.node);
      f.summary =
          fmt::format("The API server rejects {} (nonResourceURLs in a Role)", role.display());
    }
  }
}

}  // namespace

extern const Check kRbacRoleClusterResource{
    "rbac-role-cluster-resource",
    Severity::kInfo,
    Severity::kHigh,
    Impact::kInstall,
    "rbac",
    "A namespaced Role names cluster-scoped resources or URLs, which it cannot grant.",
    run_role_cluster_resource,
    "A Role's rules apply only to requests in its namespace, and requests for cluster-scoped "
    "resources (nodes, CRDs, webhook configurations) carry none, so such rules grant nothing; "
    "nonResourceURLs in a Role are rejected by the API server. High for nonResourceURLs (the "
    "install fails); medium when a bound subject has no other grant (the request is forbidden); "
    "low while unbound; info when another rule covers it. One finding per Role, listing its rules "
    "on cluster-scoped resources.",
    "Move the rule to a ClusterRole bound with a ClusterRoleBinding, or remove it."};

namespace {

// An aggregated API server (APIService) serves groups that are neither built in nor CRDs.
bool maybe_aggregated_api(const Context& ctx, const std::vector<std::string>& groups) {
  for (const std::string& g : groups) {
    if (g == "*" || ctx.bundle.resources.is_builtin_group(g)) return false;
    if (std::any_of(ctx.bundle.resources.all().begin(), ctx.bundle.resources.all().end(),
                    [&](const ResourceInfo& r) { return r.group == g; })) {
      return false;
    }
  }
  return !groups.empty();
}

// Names someone asks the authorizer about literally. The certificates admission plugin
// (plugin/pkg/admission/certificates/util.go, IsAuthorizedForSignerName) checks `approve` and
// `sign` on signers first for the signer's name and then for "<domain>/*". A rule whose verbs
// are all custom (approve, sign, use...) is only ever asked about by the code that defines the
// verb, through a SubjectAccessReview with names of its choosing: cert-manager's approver asks
// for "issuers.cert-manager.io/*" on its own signers resource.
bool literal_star_name(const PolicyRule& rule, std::string_view name) {
  static constexpr std::string_view kApiVerbs[] = {
      "get", "list", "watch", "create", "update", "patch", "delete", "deletecollection", "*"};
  bool custom_verbs_only =
      !rule.verbs.empty() &&
      std::none_of(rule.verbs.begin(), rule.verbs.end(), [](const std::string& v) {
        return std::find(std::begin(kApiVerbs), std::end(kApiVerbs), v) != std::end(kApiVerbs);
      });
  if (custom_verbs_only) return true;
  return api_group_matches(rule, "certificates.k8s.io") && resource_matches(rule, "signers", "") &&
         name.ends_with("/*") && name.find('*') == name.size() - 1;
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
        if (n.find_first_of("*?") != std::string::npos && !literal_star_name(rule, n))
          names.push_back(n);
      }
      if (resources.empty() && names.empty()) continue;
      bool aggregated = maybe_aggregated_api(ctx, rule.api_groups);
      std::string what;
      if (!resources.empty()) {
        what = fmt::format(
            "resources {} match only a subresource literally named \"*\", not every subresource",
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
            " The group {} is served by an aggregated API server, whose own authorization may "
            "ask for such names literally; then the rule works as written.",
            fmt::join(rule.api_groups, ", "));
      }
      Finding& f = out.add(
          *role.object, aggregated ? Severity::kInfo : Severity::kMedium, std::move(message),
          "List the subresources (pods/log, pods/exec...) or use \"*/subresource\" for one "
          "subresource of every resource; list exact names in resourceNames.",
          rule.node);
      f.summary = fmt::format("A wildcard in {} matches less than it appears to", role.display());
    }
  }
}

}  // namespace

extern const Check kRbacIneffectiveWildcard{
    "rbac-ineffective-wildcard",
    Severity::kInfo,
    Severity::kMedium,
    Impact::kInstall,
    "rbac",
    "A rule uses pods/*-style resources or glob-like resourceNames, which RBAC does not expand.",
    run_ineffective_wildcard,
    "The RBAC authorizer expands \"*\" only as a whole resource, a whole group, or */subresource; "
    "pods/* matches a subresource literally named \"*\", and resourceNames compare by equality. "
    "Medium: the rule grants less than its author meant. Names the API server itself asks for "
    "literally (a signer domain's <domain>/* for approve and sign) are not reported, nor names in "
    "rules whose verbs are all custom (approve, sign, use), which only the code defining the verb "
    "asks about; aggregated API servers may do the same, so rules on their groups are info.",
    "List the subresources, use */subresource for one subresource of every resource, and list "
    "exact names."};

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
      Finding& f = out.add(
          *b.object, Severity::kHigh,
          fmt::format("{} refers to a Role; a ClusterRoleBinding can refer only to a ClusterRole, "
                      "so the API server rejects it and the install fails.",
                      b.display()),
          "Refer to a ClusterRole, or use a RoleBinding in the Role's namespace.",
          b.object->node.get("roleRef"));
      f.summary = fmt::format("The API server rejects {} (it refers to a Role)", b.display());
      continue;
    }
    if (!b.cluster && b.role_kind == "Role" && role_in_other_namespace(ctx.rbac, b)) continue;
    Finding& f = out.add(
        *b.object, Severity::kMedium,
        fmt::format("{} refers to {} {}, which is neither in the bundle nor built into "
                    "Kubernetes: until someone creates it, {} get nothing from this binding.",
                    b.display(), b.role_kind, b.role_name, subjects_of(b)),
        fmt::format("Add the {} {} to the bundle, or fix roleRef.name.", b.role_kind, b.role_name),
        b.object->node.get("roleRef"));
    f.summary = fmt::format("{} refers to {} {}, which does not exist", b.display(), b.role_kind,
                            b.role_name);
  }
}

}  // namespace

extern const Check kRbacBindingMissingRole{
    "rbac-binding-missing-role",
    Severity::kMedium,
    Severity::kHigh,
    Impact::kInstall,
    "rbac",
    "A binding refers to a Role or ClusterRole that is not in the bundle and not built in.",
    run_binding_missing_role,
    "A binding to a role that neither the bundle nor Kubernetes defines grants nothing until "
    "someone creates the role; a ClusterRoleBinding that refers to a Role is rejected. High when "
    "the API server rejects the binding; medium otherwise.",
    "Add the role to the bundle, or fix roleRef."};

namespace {

void run_role_namespace_mismatch(const Context& ctx, Findings& out) {
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (b.builtin() || b.role || b.cluster || b.role_kind != "Role") continue;
    const RbacRole* other = role_in_other_namespace(ctx.rbac, b);
    if (!other) continue;
    Finding& f = out.add(
        *b.object, Severity::kHigh,
        fmt::format("{} refers to Role {}, which exists only in namespace {}. A RoleBinding looks "
                    "its Role up in its own namespace ({}), so {} get nothing from it.",
                    b.display(), b.role_name, other->namespace_, b.namespace_, subjects_of(b)),
        fmt::format("Put the RoleBinding in namespace {}, or create the Role in {}.",
                    other->namespace_, b.namespace_),
        b.object->node.get("roleRef"));
    f.summary = fmt::format("{} grants nothing: Role {} is in namespace {}", b.display(),
                            b.role_name, other->namespace_);
  }
}

}  // namespace

extern const Check kRbacRoleNamespaceMismatch{
    "rbac-role-namespace-mismatch",
    Severity::kHigh,
    Severity::kHigh,
    Impact::kInstall,
    "rbac",
    "A RoleBinding names a Role that exists only in another namespace.",
    run_role_namespace_mismatch,
    "A RoleBinding looks its Role up in its own namespace; one that names a Role of another "
    "namespace grants nothing. High: the operator does not get the rights it was meant to have.",
    "Put the RoleBinding in the Role's namespace, or create the Role where the binding is."};

namespace {

// Whether `account` is one of the controller-manager's per-controller ServiceAccounts in
// kube-system: the bootstrap policy (controller_policy.go) binds system:controller:NAME to
// kube-system/NAME, and the controller manager's client builder gets or creates that account
// before it runs the controller (client_builder_dynamic.go, getOrCreateServiceAccount).
bool controller_manager_account(const RbacPolicy& policy, const Subject& account) {
  if (account.namespace_ != "kube-system") return false;
  for (const RbacBinding& b : policy.bindings()) {
    if (!b.builtin() || b.in_cluster || !b.name.starts_with("system:controller:")) continue;
    for (const Subject& s : b.subjects) {
      if (s.kind == SubjectKind::kServiceAccount && s.namespace_ == account.namespace_ &&
          s.name == account.name)
        return true;
    }
  }
  return false;
}

void run_binding_missing_subject(const Context& ctx, Findings& out) {
  const Bundle& bundle = ctx.bundle;
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (b.builtin()) continue;
    for (const Subject& s : b.subjects) {
      if (s.kind != SubjectKind::kServiceAccount) continue;
      // The ServiceAccount controller creates "default" in every namespace.
      if (s.name == "default") continue;
      if (controller_manager_account(ctx.rbac, s)) continue;
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
      Finding& f = out.add(
          *b.object, severity,
          fmt::format("{} grants {} to {}, which no object in the bundle creates; {}.", b.display(),
                      b.role_kind + " " + b.role_name, s.display(), context),
          fmt::format("Add the ServiceAccount {}/{} to the bundle, or fix the subject's name and "
                      "namespace.",
                      s.namespace_, s.name),
          b.object->node.get("subjects"));
      f.summary = fmt::format("{} binds {}, which nothing creates", b.display(), s.display());
    }
  }
}

}  // namespace

extern const Check kRbacBindingMissingSubject{
    "rbac-binding-missing-subject",
    Severity::kInfo,
    Severity::kMedium,
    Impact::kInstall,
    "rbac",
    "A binding names a ServiceAccount that the bundle does not create.",
    run_binding_missing_subject,
    "A binding to a ServiceAccount the bundle does not create gives rights to whatever account of "
    "that name exists, or will exist. Medium when the bundle creates the namespace itself (nothing "
    "else can have made the account); low in another namespace; info in the release namespace. "
    "Accounts Kubernetes creates are never reported: default in every namespace, and the "
    "controller manager's per-controller accounts in kube-system (namespace-controller, "
    "generic-garbage-collector, ...).",
    "Add the ServiceAccount to the bundle, or fix the subject."};

}  // namespace footprint
