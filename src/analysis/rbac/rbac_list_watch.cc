// rbac-resourcenames-list-watch: reports the Context's list_watch_traps, found by
// find_list_watch_traps (models/list_watch_traps.cc), rules that grant list or watch only for named
// objects.
#include <fmt/format.h>

#include "analysis/context.h"
#include "analysis/rbac/rbac_internal.h"
#include "analysis/rbac/rbac_traps.h"

namespace footprint {

namespace {

void run_resourcenames_list_watch(const Context& ctx, Findings& out) {
  for (const ListWatchTrap& t : ctx.list_watch_traps) {
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
    .id = "rbac-resourcenames-list-watch",
    .min_severity = Severity::kInfo,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kRbac,
    .description =
        "A rule grants list or watch with resourceNames, which an informer's unnamed list never "
        "matches.",
    .run = run_resourcenames_list_watch,
    .rationale =
        "An informer lists and watches without naming an object, which a rule limited by "
        "resourceNames never allows; controller-runtime managers then never sync their cache and "
        "exit (the field report's 161 crash loops). A list or watch with the field selector "
        "metadata.name=NAME is named after NAME (the API server's RequestInfo), so such a rule "
        "does allow a watch of the named objects. High when nothing else lets the subject list "
        "there (checked with the authorizer) and the subject may list and watch the kind without "
        "names in another namespace, the sign of an informer over the kind; medium when nothing "
        "else lets it list there but nothing shows it lists the kind; low when its containers name "
        "the object in their arguments or environment (it likely watches it by name), or while "
        "nothing binds the role; info when another rule covers the request, which makes the "
        "restriction dead code. A named coordination.k8s.io Lease is not reported: leader election "
        "only gets, creates and updates its one lease, and never lists.",
    .fix =
        "Grant get, list and watch without resourceNames where the operator watches (`footprint "
        "fix rbac` writes the Role), or have the operator watch with the field selector "
        "metadata.name.",
    .breaks_on_install = true,
};

}  // namespace footprint
