// Taints and tolerations as the scheduler matches them (staging/src/k8s.io/api/core/v1/
// toleration.go ToleratesTaint), for where a pod template's pods may run.
#pragma once

#include <string>
#include <vector>

#include "load/yaml.h"

namespace footprint {

struct Taint {
  std::string key;
  std::string value;
  std::string effect;  // NoSchedule, PreferNoSchedule or NoExecute
};

struct Toleration {
  std::string key;  // empty with Exists: every key
  std::string op;   // "Equal" (also when empty) or "Exists"
  std::string value;
  std::string effect;  // empty: every effect
};

// The tolerations of a pod spec (spec.tolerations).
std::vector<Toleration> read_tolerations(const yaml::Node& pod_spec);

bool tolerates(const Toleration& toleration, const Taint& taint);
bool tolerates(const std::vector<Toleration>& tolerations, const Taint& taint);

// True when no NoSchedule or NoExecute taint, whatever its key and value, keeps the pods off a
// node: an empty-key Exists toleration for both effects (or for every effect).
// PreferNoSchedule never keeps a pod off a node.
bool tolerates_every_taint(const std::vector<Toleration>& tolerations);

// The taints kubeadm and most distributions put on control-plane nodes: the current one, and the
// one clusters set up before Kubernetes 1.24 still carry.
const std::vector<Taint>& control_plane_taints();

}  // namespace footprint
