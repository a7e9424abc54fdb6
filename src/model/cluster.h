// A snapshot of the cluster the bundle will be installed into: what `kubectl get ... -A -o yaml`
// returned, read offline. Checks and engines consult it for what already exists.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

#include "load/loader.h"
#include "model/namespaces.h"
#include "model/object.h"

namespace footprint {

// The kinds footprint reads from a cluster, as kubectl resource names, in the order
// snapshot_command() lists them.
inline constexpr auto kSnapshotResources = std::to_array<std::string_view>({
    "namespaces",
    "customresourcedefinitions",
    "mutatingwebhookconfigurations",
    "validatingwebhookconfigurations",
    "validatingadmissionpolicies",
    "validatingadmissionpolicybindings",
    "clusterroles",
    "clusterrolebindings",
    "roles",
    "rolebindings",
    "serviceaccounts",
    "services",
    "networkpolicies",
    "deployments",
    "daemonsets",
    "statefulsets",
});

// The one command that collects a snapshot: `kubectl get <kinds> -A -o yaml > cluster.yaml`.
std::string snapshot_command();

struct Cluster {
  // The snapshot's objects with the Bundle's lookups; its resource table knows the custom kinds
  // of the cluster's CRDs. Secrets are left out when loading: nothing reads them, and their data
  // must never reach an output.
  Bundle objects;
  size_t secrets_dropped = 0;

  // The cluster's CustomResourceDefinition of `group`/`kind`, or nullptr.
  const Object* crd_for(std::string_view group, std::string_view kind) const {
    return objects.crd_for(group, kind);
  }
  // True when the cluster serves a custom resource of `group` whose kind or plural is `name`.
  bool serves(std::string_view group, std::string_view name) const;
  bool has_group(std::string_view group) const;
};

// Reads a snapshot (a `kind: List`, or any stream of objects). Documents may be as large as a
// file: a snapshot is one document.
tl::expected<Cluster, std::vector<LoadError>> load_cluster(const std::string& path, unsigned jobs);
tl::expected<Cluster, std::vector<LoadError>> load_cluster_text(const std::string& name,
                                                                std::string text);

// The cluster's namespaces with their labels, plus those the bundle creates and the cluster does
// not have yet; sorted by name. default_namespaces() when the snapshot holds no Namespace.
std::vector<ClusterNamespace> cluster_namespaces(const Cluster& cluster, const Bundle& bundle);

// The bundle's resources plus the custom resources the cluster's CRDs serve (a null `cluster`
// adds none), for requests named on the command line and the footprint's kinds.
ResourceTable with_cluster_resources(const ResourceTable& bundle, const Cluster* cluster);

}  // namespace footprint
