// Priority and preemption: the PriorityClasses a bundle creates, the system classes its pods
// use, and the classes its pods name that nothing creates. docs/cluster-wide.md explains the
// severities.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/object.h"
#include "model/workloads.h"

namespace footprint {

// The highest value a PriorityClass other than the two system ones may have
// (pkg/apis/scheduling/types.go HighestUserDefinablePriority).
constexpr int64_t kHighestUserPriority = 1'000'000'000;

struct PriorityClassUse {
  std::string name;
  const Object* priority_class = nullptr;  // null: a system class, or one the bundle lacks
  bool system = false;                     // system-cluster-critical or system-node-critical
  std::optional<int64_t> value;            // unknown for a class the bundle lacks
  bool global_default = false;
  bool preempts = true;  // preemptionPolicy PreemptLowerPriority, the default; false for Never
  std::vector<const Object*> users;     // workloads whose pods name it, in input order
  std::vector<yaml::Node> user_fields;  // each user's priorityClassName
};

// The bundle's PriorityClasses in input order, then the other classes its pod templates (`pods`)
// name, by name.
std::vector<PriorityClassUse> priority_classes(const Bundle& bundle,
                                               std::span<const PodTemplate> pods);

}  // namespace footprint
