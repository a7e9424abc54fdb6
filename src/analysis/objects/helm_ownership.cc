// helm-ownership-conflict: objects that already exist in the cluster (--cluster) under another
// owner, which `helm install` refuses to adopt.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/context.h"
#include "analysis/models/helm_owner.h"
#include "model/units.h"

namespace footprint {

namespace {

constexpr std::string_view kInstance = "app.kubernetes.io/instance";

// The release the bundle is installed as: the command's, or the instance label its objects
// carry (Helm charts set it to the release name), or "" when unknown.
std::string release_of(const Context& ctx) {
  if (!ctx.release.empty()) return ctx.release;
  for (const Object& obj : ctx.bundle.objects) {
    std::string_view instance = obj.metadata.at({"labels", kInstance}).str();
    if (!instance.empty()) return std::string(instance);
  }
  return "";
}

const Object* existing_of(const Context& ctx, const Object& obj) {
  return ctx.cluster->objects.find(obj.group, obj.kind, obj.namespace_, obj.name);
}

// Helm's ownership check (pkg/action/validate.go, checkOwnership): an object that already
// exists joins the release only when it carries app.kubernetes.io/managed-by=Helm and
// meta.helm.sh/release-name and release-namespace equal to the release's; otherwise install and
// upgrade fail with "invalid ownership metadata", unless --take-ownership is given.
void run_helm_ownership(const Context& ctx, Findings& out) {
  if (!ctx.cluster) return;
  std::string release = release_of(ctx);
  std::map<Owner, std::vector<const Object*>> conflicts;
  for (const Object& obj : ctx.bundle.objects) {
    if (obj.replaced() || obj.name.ends_with("*")) continue;
    const Object* existing = existing_of(ctx, obj);
    if (!existing) continue;
    Owner owner = owner_of(*existing);
    bool ours = owner.helm() && owner.namespace_ == ctx.bundle.default_namespace &&
                (release.empty() || owner.release == release);
    if (!ours) conflicts[owner].push_back(&obj);
  }
  for (const auto& [owner, objects] : conflicts) {
    std::vector<std::string> names;
    names.reserve(objects.size());
    for (const Object* o : objects)
      names.push_back(o->display());
    Finding& f = out.add(
        *objects.front(), Severity::kHigh,
        fmt::format("{} of the bundle already exist{} in the cluster, owned by {}: {}. "
                    "`helm install` refuses them (\"exists and cannot be imported into the "
                    "current release: invalid ownership metadata\"); with --take-ownership, or "
                    "with kubectl apply, they silently change hands and the current owner's next "
                    "upgrade or uninstall undoes this install's version.",
                    count_of(objects.size(), "object"), objects.size() == 1 ? "s" : "",
                    owner.describe(), some_of(names, 4)),
        owner.release.empty()
            ? fmt::format("Leave these objects out of the bundle (the chart's values usually "
                          "have a switch), or hand them over on purpose: add the label {}=Helm "
                          "and the annotations {} and {} of this release.",
                          kManagedBy, kReleaseName, kReleaseNamespace)
            : fmt::format(
                  "Leave these objects out of the bundle (the chart's values usually "
                  "have a switch{}) and let release {} keep them, or install into that "
                  "release.",
                  std::all_of(objects.begin(), objects.end(),
                              [](const Object* o) { return o->kind == "CustomResourceDefinition"; })
                      ? ", e.g. crds.enabled=false"
                      : "",
                  owner.release));
    f.summary = fmt::format("{} already belong{} to {}: helm install fails",
                            count_of(objects.size(), "object"), objects.size() == 1 ? "s" : "",
                            owner.describe());
    f.affects.emplace_back("objects", std::move(names));
  }
}

}  // namespace

extern const Check kHelmOwnershipConflict{
    .id = "helm-ownership-conflict",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kObjects,
    .description =
        "Objects of the bundle already exist in the cluster under another owner (needs --cluster).",
    .run = run_helm_ownership,
    .rationale =
        "Helm adopts an existing object only when it carries app.kubernetes.io/managed-by=Helm and "
        "the release's meta.helm.sh/release-name and release-namespace annotations "
        "(pkg/action/validate.go); any other owner makes `helm install` fail with \"invalid "
        "ownership metadata\", and --take-ownership or kubectl apply silently moves the object, "
        "which the owner's next upgrade takes back. High: the install will not work as given. One "
        "finding per current owner.",
    .fix =
        "Leave the objects out of the bundle through the chart's values, or hand them over on "
        "purpose.",
    .breaks_on_install = true,
};

}  // namespace footprint
