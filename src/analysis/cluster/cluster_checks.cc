// Checks against the cluster the install goes into (--cluster): CRDs the bundle would change
// in ways the API server refuses or that break stored objects, and objects that already exist
// under another owner, which `helm install` refuses to adopt.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/context.h"
#include "analysis/rbac/rbac_internal.h"
#include "model/units.h"

namespace footprint {

namespace {

constexpr std::string_view kReleaseName = "meta.helm.sh/release-name";
constexpr std::string_view kReleaseNamespace = "meta.helm.sh/release-namespace";
constexpr std::string_view kManagedBy = "app.kubernetes.io/managed-by";
constexpr std::string_view kInstance = "app.kubernetes.io/instance";

struct Owner {
  std::string release;     // meta.helm.sh/release-name
  std::string namespace_;  // meta.helm.sh/release-namespace
  std::string managed_by;  // app.kubernetes.io/managed-by

  bool helm() const { return managed_by == "Helm" && !release.empty() && !namespace_.empty(); }
  std::string describe() const {
    if (!release.empty())
      return fmt::format("Helm release {} in namespace {}", release, namespace_);
    if (!managed_by.empty()) return fmt::format("{} (app.kubernetes.io/managed-by)", managed_by);
    return "no Helm release (created by kubectl or another tool)";
  }
  bool operator<(const Owner& o) const {
    return std::tie(release, namespace_, managed_by) <
           std::tie(o.release, o.namespace_, o.managed_by);
  }
};

Owner owner_of(const Object& existing) {
  return {std::string(existing.annotation(kReleaseName)),
          std::string(existing.annotation(kReleaseNamespace)),
          std::string(existing.metadata.at({"labels", kManagedBy}).str())};
}

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

struct CrdVersion {
  std::string name;
  bool served = false;
  bool storage = false;
};

std::vector<CrdVersion> versions_of(const Object& crd) {
  std::vector<CrdVersion> out;
  yaml::Node versions = crd.node.at({"spec", "versions"});
  for (size_t i = 0; i < versions.size(); ++i) {
    yaml::Node v = versions.item(i);
    out.push_back({std::string(v.get("name").str()), v.get("served").str() == "true",
                   v.get("storage").str() == "true"});
  }
  // apiextensions.k8s.io/v1beta1's single spec.version.
  std::string_view single = crd.node.at({"spec", "version"}).str();
  if (out.empty() && !single.empty()) out.push_back({std::string(single), true, true});
  return out;
}

const CrdVersion* find_version(const std::vector<CrdVersion>& versions, std::string_view name) {
  auto it = std::find_if(versions.begin(), versions.end(),
                         [&](const CrdVersion& v) { return v.name == name; });
  return it == versions.end() ? nullptr : &*it;
}

// A CRD of the bundle that replaces one the cluster has. The API server refuses the update when
// it removes a version from spec.versions that status.storedVersions still lists, or changes
// spec.scope or spec.names.kind of an established CRD
// (apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go). A version the
// cluster serves that the new CRD no longer serves breaks every client and manifest that uses it.
void run_crd_cluster_change(const Context& ctx, Findings& out) {
  if (!ctx.cluster) return;
  for (uint32_t i : ctx.bundle.of_kind("apiextensions.k8s.io", "CustomResourceDefinition")) {
    const Object& crd = ctx.bundle.objects[i];
    const Object* existing =
        ctx.cluster->objects.find("apiextensions.k8s.io", "CustomResourceDefinition", "", crd.name);
    if (!existing) continue;
    std::vector<CrdVersion> now = versions_of(*existing);
    std::vector<CrdVersion> next = versions_of(crd);
    std::vector<std::string> refused;
    std::vector<std::string> unserved;
    yaml::Node stored = existing->node.at({"status", "storedVersions"});
    for (size_t s = 0; s < stored.size(); ++s) {
      std::string_view v = stored.item(s).str();
      if (!find_version(next, v)) {
        refused.push_back(fmt::format(
            "drops version {}, which objects are stored in (status.storedVersions)", v));
      }
    }
    for (const char* field : {"scope", "names.kind"}) {
      std::string_view key = field;
      yaml::Node a = key == "scope" ? existing->node.at({"spec", "scope"})
                                    : existing->node.at({"spec", "names", "kind"});
      yaml::Node b =
          key == "scope" ? crd.node.at({"spec", "scope"}) : crd.node.at({"spec", "names", "kind"});
      if (a.str() != b.str() && !b.str().empty()) {
        refused.push_back(fmt::format("changes spec.{} from {} to {}, which is immutable", key,
                                      a.str(), b.str()));
      }
    }
    for (const CrdVersion& v : now) {
      if (!v.served) continue;
      const CrdVersion* after = find_version(next, v.name);
      bool dropped_stored = std::any_of(refused.begin(), refused.end(), [&](const std::string& r) {
        return r.starts_with("drops version " + v.name + ",");
      });
      if ((!after || !after->served) && !dropped_stored) unserved.push_back(v.name);
    }
    if (refused.empty() && unserved.empty()) continue;
    std::string owner = owner_of(*existing).describe();
    std::string message;
    Severity severity = Severity::kMedium;
    if (!refused.empty()) {
      severity = Severity::kHigh;
      message = fmt::format(
          "The cluster already has CRD {} (owned by {}), and this bundle's version {}: the API "
          "server rejects the update, so the install fails.",
          crd.name, owner, fmt::join(refused, "; and "));
    }
    if (!unserved.empty()) {
      if (!message.empty()) message += " It also ";
      message += fmt::format(
          "{}tops serving version{} {} that the cluster serves now: every client, controller "
          "and manifest that reads or writes {} through {} fails with \"the server could not "
          "find the requested resource\".",
          message.empty() ? fmt::format("The cluster already has CRD {} (owned by {}); this "
                                        "bundle's version s",
                                        crd.name, owner)
                          : "s",
          unserved.size() == 1 ? "" : "s", fmt::join(unserved, ", "), crd.name,
          unserved.size() == 1 ? "it" : "them");
    }
    Finding& f = out.add(
        crd, severity, std::move(message),
        fmt::format("Keep every version the cluster stores or serves in the CRD (served: true), "
                    "migrate stored objects and trim status.storedVersions before dropping one; "
                    "or leave this CRD out and keep the cluster's (owned by {}).",
                    owner));
    f.summary =
        !refused.empty()
            ? fmt::format("CRD {} cannot replace the cluster's: the update is rejected", crd.name)
            : fmt::format("CRD {} stops serving {} that the cluster serves", crd.name,
                          fmt::join(unserved, ", "));
    std::vector<std::string> changes = refused;
    for (const std::string& v : unserved)
      changes.push_back("no longer serves " + v);
    f.affects.emplace_back("changes", std::move(changes));
  }
}

}  // namespace

extern const Check kHelmOwnershipConflict{
    "helm-ownership-conflict",
    Severity::kHigh,
    Severity::kHigh,
    Impact::kInstall,
    "objects",
    "Objects of the bundle already exist in the cluster under another owner (needs --cluster).",
    run_helm_ownership,
    "Helm adopts an existing object only when it carries app.kubernetes.io/managed-by=Helm and the "
    "release's meta.helm.sh/release-name and release-namespace annotations (pkg/action/"
    "validate.go); any other owner makes `helm install` fail with \"invalid ownership "
    "metadata\", and --take-ownership or kubectl apply silently moves the object, which the "
    "owner's next upgrade takes back. High: the install will not work as given. One finding per "
    "current owner.",
    "Leave the objects out of the bundle through the chart's values, or hand them over on "
    "purpose.",
    /*breaks_on_install=*/true};

extern const Check kCrdClusterChange{
    "crd-cluster-change",
    Severity::kMedium,
    Severity::kHigh,
    Impact::kOtherTeams,
    "crds",
    "A CRD of the bundle changes the cluster's CRD of the same name incompatibly (needs "
    "--cluster).",
    run_crd_cluster_change,
    "The cluster's CRD is compared with the bundle's: removing a version that "
    "status.storedVersions "
    "lists, or changing spec.scope or spec.names.kind, is rejected by the API server (high: the "
    "install fails); no longer serving a version the cluster serves breaks every client and "
    "manifest of other teams that uses it (medium). The message names the CRD's current owner.",
    "Keep every stored and served version in the bundle's CRD, or leave the CRD to its owner.",
    /*breaks_on_install=*/true};

}  // namespace footprint
