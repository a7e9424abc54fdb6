// The namespaces a webhook's blast radius is measured against.
#pragma once

#include <string>
#include <tl/expected.hpp>
#include <vector>

#include "load/loader.h"
#include "model/object.h"
#include "model/selector.h"

namespace footprint {

constexpr const char* kNamespaceNameLabel = "kubernetes.io/metadata.name";
constexpr const char* kOtherTeamNamespace = "other-team";

// The control plane's own namespaces: kube-system, kube-public, kube-node-lease.
bool is_system_namespace(std::string_view name);
// The system namespaces and default, which every cluster has.
bool every_cluster_has(std::string_view name);

struct ClusterNamespace {
  std::string name;
  Labels labels;        // always includes kubernetes.io/metadata.name=<name>, set by the API server
  bool system = false;  // kube-system, kube-public, kube-node-lease
  // The release namespace, one the bundle creates, one it puts objects in (other than the
  // system namespaces and default), or one declared the operator's (Bundle::own_namespaces).
  bool operator_owned = false;
};

// A namespace of the cluster named `name`: the API server's name label added, and whether it is a
// system namespace or the install's own.
ClusterNamespace make_namespace(const Bundle& bundle, const std::string& name, Labels labels);

// kube-system, kube-public, kube-node-lease, default, the release namespace, the declared own
// namespaces, every namespace the bundle uses or creates (with the labels the bundle gives it)
// or pins a webhook to, and
// "other-team": an unlabelled namespace standing for every other team's. Sorted by name.
std::vector<ClusterNamespace> default_namespaces(const Bundle& bundle);

// The namespaces of a real cluster, from `kubectl get ns -o yaml` (a List of Namespaces).
tl::expected<std::vector<ClusterNamespace>, std::vector<LoadError>> load_namespaces(
    const std::string& path, const Bundle& bundle);

}  // namespace footprint
