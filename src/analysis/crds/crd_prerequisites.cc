// CRDs an install needs before it can work: other projects' APIs its objects use (crd-missing),
// and its own API when neither the bundle nor anything it runs installs the CRDs
// (crd-not-installed), as in a namespace-restricted install whose CRDs are applied by hand.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/context.h"
#include "analysis/crds/crd_models.h"
#include "analysis/rbac/rbac_internal.h"
#include "analysis/webhooks/webhook_reach.h"
#include "model/units.h"

namespace footprint {

namespace {

void run_crd_missing(const Context& ctx, Findings& out) {
  for (const MissingCrd& m : ctx.missing_crds) {
    if (own_group(ctx, m.group)) continue;  // crd-not-installed's
    // Kinds whose CRDs the cluster already has (--cluster) are satisfied, as when another
    // release installed prometheus-operator's CRDs.
    std::vector<std::string> kinds;
    for (const auto& [k, n] : m.kinds) {
      if (!ctx.cluster || !ctx.cluster->serves(m.group, k)) kinds.push_back(k);
    }
    if (kinds.empty()) continue;
    const std::string& kind = kinds.front();
    const Object* first = nullptr;
    size_t count = 0;
    for (const Object& obj : ctx.bundle.objects) {
      if (obj.group != m.group || obj.scope != Scope::kUnknown || !contains(kinds, obj.kind))
        continue;
      if (!first) first = &obj;
      ++count;
    }
    Finding& f = out.add(
        *first, Severity::kMedium,
        fmt::format("{} use{} kind{} {} of group {}, another project's API that the "
                    "bundle ships no CustomResourceDefinition for: the cluster must already have "
                    "these CRDs. Without them the install fails with \"no matches for kind {} in "
                    "version {}\".",
                    count_of(count, "object"), count == 1 ? "s" : "", kinds.size() == 1 ? "" : "s",
                    fmt::join(kinds, ", "), m.group, kind, first->api_version),
        fmt::format("Install the CRDs of group {} before this bundle (from the project that owns "
                    "that API), or turn these objects off in the chart's values.",
                    m.group));
    about_shared(f, m.group);  // one finding per API group
    f.summary =
        fmt::format("Needs the CRDs of {} ({}) in the cluster first", m.group, some_of(kinds, 2));
    f.affects.emplace_back("kinds", std::move(kinds));
  }
}

}  // namespace

extern const Check kCrdMissing{
    "crd-missing",
    Severity::kMedium,
    Severity::kMedium,
    Impact::kInstall,
    "objects",
    "Objects use kinds of another project's API whose CRDs the bundle does not ship.",
    run_crd_missing,
    "Objects whose kind belongs to another project's API (a PodMonitor of prometheus-operator) "
    "apply only where that project's CRDs are installed; otherwise kubectl and Helm fail with \"no "
    "matches for kind\". Medium: a prerequisite to check, not a fault of the bundle. The install's "
    "own API is crd-not-installed's.",
    "Install that project's CRDs first, or turn the objects off in the chart's values.",
    /*breaks_on_install=*/true};

namespace {

// Where the install refers to one of its own groups: resources named by webhooks and roles,
// kinds of its objects, and the first object that refers to it.
struct GroupUse {
  std::vector<std::string> resources;
  std::vector<std::string> referrers;  // "webhook w", "ClusterRole r", "Kind obj"
  const Object* anchor = nullptr;
  yaml::Node at;
  bool used = false;  // by a webhook or an object, not only named in a role
};

void note(GroupUse& use, const std::string& resource, std::string referrer, const Object& anchor,
          const yaml::Node& at) {
  std::string base = resource.substr(0, resource.find('/'));
  if (base != "*" && !contains(use.resources, base)) use.resources.push_back(base);
  if (!contains(use.referrers, referrer)) use.referrers.push_back(std::move(referrer));
  if (!use.anchor) {
    use.anchor = &anchor;
    use.at = at;
  }
}

bool shipped(const Bundle& bundle, std::string_view group) {
  return std::any_of(bundle.resources.all().begin(), bundle.resources.all().end(),
                     [&](const ResourceInfo& r) { return !r.builtin && r.group == group; });
}

void run_crd_not_installed(const Context& ctx, Findings& out) {
  const HiddenFootprint& hidden = ctx.hidden;
  // A subject that may create any CRD may install these at run time.
  for (const CrdWriter& w : hidden.writers) {
    if (w.creates()) return;
  }
  std::map<std::string, GroupUse> uses;
  auto wanted = [&](const std::string& group) {
    return own_group(ctx, group) && !shipped(ctx.bundle, group) &&
           std::none_of(
               hidden.commands.begin(), hidden.commands.end(), [&](const CrdInstallCommand& c) {
                 return std::any_of(c.crd_names.begin(), c.crd_names.end(),
                                    [&](const std::string& n) { return n.ends_with("." + group); });
               });
  };
  for (const AdmissionWebhook& w : ctx.admission.webhooks) {
    for (const AdmissionRule& rule : w.rules) {
      for (const std::string& g : rule.api_groups) {
        if (!wanted(g)) continue;
        for (const std::string& r : rule.resources)
          note(uses[g], r, "webhook " + w.name, *w.configuration, w.node);
        uses[g].used = true;
      }
    }
  }
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin()) continue;
    for (const PolicyRule& rule : role.rules) {
      for (const std::string& g : rule.api_groups) {
        if (!wanted(g)) continue;
        for (const std::string& r : rule.resources)
          note(uses[g], r, role.display(), *role.object, rule.node);
      }
    }
  }
  for (const Object& obj : ctx.bundle.objects) {
    if (obj.scope == Scope::kUnknown && wanted(obj.group)) {
      note(uses[obj.group], obj.kind, obj.display(), obj, obj.node.get("kind"));
      uses[obj.group].used = true;
    }
  }
  for (auto& [group, use] : uses) {
    // Resources the cluster already serves (--cluster) need nothing installed.
    if (ctx.cluster) {
      const std::string& g = group;  // clang before 16 cannot capture a structured binding
      std::erase_if(use.resources, [&](const std::string& r) { return ctx.cluster->serves(g, r); });
    }
    // Rules with only "*" resources name no kind anyone must install (istiod still lists the
    // retired config.istio.io that way).
    if (use.resources.empty()) continue;
    // Roles alone, on a group owned only by its domain, may name an optional API the operator
    // discovers first: Calico's components look for projectcalico.org and switch modes by whether
    // it is served, so installing it on the finding's advice would change the product. Only what
    // a webhook or an object of the bundle uses is needed unconditionally.
    if (!use.used && ctx.own.by_domain_only.count(group)) continue;
    std::string consequence =
        "Until someone installs these CRDs, the operator's informers fail (\"the server could not "
        "find the requested resource\"), its webhooks never see a request, and nobody can create "
        "its resources.";
    Finding& f = out.add(
        *use.anchor, Severity::kHigh,
        fmt::format("The install's own API group {} ({}) is used by {}, but no "
                    "CustomResourceDefinition of the bundle defines it and nothing the bundle "
                    "runs installs it. {}",
                    group, some_of(use.resources, 4), some_of(use.referrers, 2), consequence),
        fmt::format("Install the CRDs of {} before this bundle, from the operator's release of "
                    "the same version, with `kubectl apply --server-side` (large CRDs exceed the "
                    "262,144-byte annotation limit of client-side apply); then check their "
                    "conversion webhooks and caBundle (`footprint fix crds`).",
                    group),
        use.at);
    about_shared(f, group);  // one finding per API group
    f.summary = fmt::format(
        "You must install the CRDs of {} yourself: nothing in this install "
        "does ({})",
        group, some_of(use.resources, 2));
    f.affects.emplace_back("resources", use.resources);
    f.affects.emplace_back("used by", use.referrers);
    f.affects.emplace_back("why own", std::vector<std::string>{ctx.own.groups.at(group)});
  }
}

}  // namespace

extern const Check kCrdNotInstalled{
    "crd-not-installed",
    Severity::kHigh,
    Severity::kHigh,
    Impact::kInstall,
    "crds",
    "The install's own API group has no CRD in the bundle, and nothing it runs installs one.",
    run_crd_not_installed,
    "The install's own API group (found from its CRDs, run-time installers, controller roles or a "
    "shared domain) is used by its webhooks, roles or objects, but no CRD of the bundle defines it "
    "and nothing it runs installs one, as in a namespace-restricted install whose CRDs are applied "
    "separately. High: informers fail and nobody can create the operator's resources until someone "
    "installs them. Not reported when only roles name a group owned only by its domain: such an "
    "operator may discover the API and switch modes by whether it exists (Calico's "
    "projectcalico.org), so it is not needed unconditionally.",
    "Install the CRDs of that group first, from the same release, with kubectl apply "
    "--server-side.",
    /*breaks_on_install=*/true};

}  // namespace footprint
