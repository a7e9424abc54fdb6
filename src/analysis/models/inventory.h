// The install footprint: what a bundle creates, counted the way a platform engineer would count
// it by hand from `helm template` output.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/object.h"

namespace footprint {

struct KindCount {
  // The kind, or "Kind.group" when two groups in the bundle share a kind name.
  std::string key;
  std::string group;
  uint32_t cluster = 0;
  uint32_t namespaced = 0;
  uint32_t unknown = 0;  // custom kinds whose CRD is not in the bundle
  uint32_t total() const { return cluster + namespaced + unknown; }
};

struct NamespaceUsage {
  std::string name;
  uint32_t objects = 0;
  bool created = false;  // the bundle has a Namespace object for it
  bool release = false;  // the default namespace (-n), where unnamespaced objects land
  std::vector<std::pair<std::string, uint32_t>> kinds;  // kind key -> count, by key
};

struct Inventory {
  uint32_t files = 0;
  uint64_t input_bytes = 0;
  uint32_t objects = 0;
  uint32_t cluster_scoped = 0;
  uint32_t namespaced = 0;
  uint32_t unknown_scope = 0;
  std::vector<KindCount> kinds;            // sorted by key
  std::vector<NamespaceUsage> namespaces;  // sorted by name
  // Admission webhooks are counted one by one, not by configuration object.
  uint32_t mutating_configurations = 0;
  uint32_t validating_configurations = 0;
  uint32_t mutating_webhooks = 0;
  uint32_t validating_webhooks = 0;
  uint32_t webhooks() const { return mutating_webhooks + validating_webhooks; }
  // Helm hooks that installing the release does not run (pre-upgrade, post-delete...): left out of
  // the counts above, listed apart with their phases. The checks still analyse them.
  struct LaterHook {
    std::string phases;  // "pre-upgrade, pre-rollback"
    std::string object;  // "Job gpu-operator/gpu-operator-upgrade-crd"
  };
  std::vector<LaterHook> later_hooks;
  // What the bundle may add to the cluster at run time, beyond its objects: CRDs created by its
  // workloads (hidden_footprint_summary in analysis/crds.h). Filled in by the caller, since it
  // needs the RBAC policy.
  std::vector<std::string> hidden_footprint;
};

// `known`, when given, resolves the scope of kinds whose CRD is not in the bundle (with --cluster,
// the cluster's CRDs), so that only kinds nobody defines count as of unknown scope.
Inventory take_inventory(const Bundle& bundle, const ResourceTable* known = nullptr);

}  // namespace footprint
