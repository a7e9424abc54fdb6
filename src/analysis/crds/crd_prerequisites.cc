// CRDs an install needs before it can work: its own API when neither the bundle nor anything it
// runs installs the CRDs (crd-not-installed), as in a namespace-restricted install whose CRDs
// are applied by hand. Other projects' APIs are crd-missing's (objects/crd_missing.cc).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/context.h"
#include "analysis/models/ownership.h"
#include "model/units.h"

namespace footprint {

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
    return ctx.own.owns(group) && !shipped(ctx.bundle, group) &&
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
    .id = "crd-not-installed",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kCrds,
    .description =
        "The install's own API group has no CRD in the bundle, and nothing it runs installs one.",
    .run = run_crd_not_installed,
    .rationale =
        "The install's own API group (found from its CRDs, run-time installers, controller roles "
        "or a shared domain) is used by its webhooks, roles or objects, but no CRD of the bundle "
        "defines it and nothing it runs installs one, as in a namespace-restricted install whose "
        "CRDs are applied separately. High: informers fail and nobody can create the operator's "
        "resources until someone installs them. Not reported when only roles name a group owned "
        "only by its domain: such an operator may discover the API and switch modes by whether it "
        "exists (Calico's projectcalico.org), so it is not needed unconditionally.",
    .fix =
        "Install the CRDs of that group first, from the same release, with kubectl apply "
        "--server-side.",
    .breaks_on_install = true,
};

}  // namespace footprint
