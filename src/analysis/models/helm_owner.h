// Who owns an object that already exists in the cluster, as Helm reads it from the object's
// metadata: helm-ownership-conflict and crd-cluster-change name that owner.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <tuple>

#include "model/object.h"

namespace footprint {

inline constexpr std::string_view kReleaseName = "meta.helm.sh/release-name";
inline constexpr std::string_view kReleaseNamespace = "meta.helm.sh/release-namespace";
inline constexpr std::string_view kManagedBy = "app.kubernetes.io/managed-by";

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

inline Owner owner_of(const Object& existing) {
  return {std::string(existing.annotation(kReleaseName)),
          std::string(existing.annotation(kReleaseNamespace)),
          std::string(existing.metadata.at({"labels", kManagedBy}).str())};
}

}  // namespace footprint
