// rbac-resourcenames-list-watch and the model it reports (find_list_watch_traps, shared with
// `footprint fix rbac` and the decision table): rules that grant list or watch only for named
// objects, which an informer's unnamed list never matches, and what the bundle shows about the
// operator's lists. Before a finding says a list is forbidden, it asks the authorizer whether
// another rule allows it.
#include <fmt/format.h>

#include <cctype>
#include <tuple>
#include <utility>

#include "analysis/context.h"
#include "analysis/rbac/rbac_internal.h"
#include "analysis/rbac/rbac_traps.h"

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

}  // namespace

std::vector<ListWatchTrap> find_list_watch_traps(const Bundle& bundle, const RbacPolicy& policy) {
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
                                        role.namespace_, Decision{}, "", Decision{},
                                        ListWatchEvidence::kNone, ""});
          continue;
        }
        for (const RbacBinding* b : bindings) {
          for (const Subject& s : b->subjects) {
            std::string ns = b->cluster ? "" : b->namespace_;
            Identity who = identity_of(s);
            Decision covered = policy.authorize(who, resource_request(verb, group, base, ns, sub));
            ListWatchTrap& t =
                traps.emplace_back(ListWatchTrap{&role, &rule, b, s, group, resource, ns, covered,
                                                 "", Decision{}, ListWatchEvidence::kNone, ""});
            if (covered.allowed) continue;
            if (!ns.empty()) {
              std::tie(t.informer_namespace, t.informer_grant) =
                  informer_elsewhere(policy, who, group, base, sub, ns);
            }
            if (!t.informer_namespace.empty()) {
              t.evidence = ListWatchEvidence::kInformer;
              continue;
            }
            t.named_by = object_named_by_containers(bundle, s, rule.resource_names);
            if (!t.named_by.empty()) t.evidence = ListWatchEvidence::kNamedByContainers;
          }
        }
      }
    }
  }
  return traps;
}

namespace {

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
    if (t.evidence == ListWatchEvidence::kInformer) {
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
    if (t.evidence == ListWatchEvidence::kNamedByContainers) {
      Finding& f = out.add(
          *t.role->object, Severity::kLow,
          fmt::format("{}. {} {}, but its containers name the object (`{}`): an operator that "
                      "reads one object usually lists and watches it with the field selector "
                      "metadata.name, which this rule allows. If it runs an unfiltered informer "
                      "instead, the cache never syncs and the pod crash-loops.",
                      grant, informer, denied, t.named_by),
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

}  // namespace footprint
