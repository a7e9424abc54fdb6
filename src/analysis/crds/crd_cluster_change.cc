// crd-cluster-change: CRDs of the bundle that would change the cluster's CRD of the same name
// (--cluster) in ways the API server refuses or that break stored objects.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"
#include "analysis/models/helm_owner.h"

namespace footprint {

namespace {

struct ServedVersion {
  std::string name;
  bool served = false;
  bool storage = false;
};

std::vector<ServedVersion> versions_of(const Object& crd) {
  std::vector<ServedVersion> out;
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

const ServedVersion* find_version(const std::vector<ServedVersion>& versions,
                                  std::string_view name) {
  auto it = std::find_if(versions.begin(), versions.end(),
                         [&](const ServedVersion& v) { return v.name == name; });
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
    std::vector<ServedVersion> now = versions_of(*existing);
    std::vector<ServedVersion> next = versions_of(crd);
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
    for (const ServedVersion& v : now) {
      if (!v.served) continue;
      const ServedVersion* after = find_version(next, v.name);
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

extern const Check kCrdClusterChange{
    .id = "crd-cluster-change",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kHigh,
    .impact = Impact::kOtherTeams,
    .area = Area::kCrds,
    .description =
        "A CRD of the bundle changes the cluster's CRD of the same name incompatibly (needs "
        "--cluster).",
    .run = run_crd_cluster_change,
    .rationale =
        "The cluster's CRD is compared with the bundle's: removing a version that "
        "status.storedVersions lists, or changing spec.scope or spec.names.kind, is rejected by "
        "the API server (high: the install fails); no longer serving a version the cluster serves "
        "breaks every client and manifest of other teams that uses it (medium). The message names "
        "the CRD's current owner.",
    .fix =
        "Keep every stored and served version in the bundle's CRD, or leave the CRD to its owner.",
    .breaks_on_install = true,
};

}  // namespace footprint
