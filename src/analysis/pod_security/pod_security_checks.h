// Pod Security Admission over the bundle's workloads: each pod template's level, and whether the
// enforce label of the namespace it lands in lets its pods be created.
#pragma once

#include <string>
#include <vector>

#include "model/object.h"
#include "model/pod_security.h"

namespace footprint {

struct Context;

struct WorkloadPodSecurity {
  const Object* workload = nullptr;
  PodView pod;
  // Where the namespace's labels come from: "bundle", "cluster" (--namespaces); "unknown" when
  // the bundle does not create the namespace and --namespaces was not given, "unlisted" when
  // --namespaces does not list it either.
  std::string labels_from;
  EnforcePolicy enforce;
  // The strictest level the pods pass, at the enforced version (latest when not labelled).
  PodSecurityLevel level = PodSecurityLevel::kPrivileged;
  // The checks of the enforced level the pods fail: they are never created while non-empty.
  std::vector<PodSecurityViolation> enforce_violations;
  // What keeps the pods from the next level up; empty at restricted.
  std::vector<PodSecurityViolation> next_level;
};

// Every workload with a pod template, in input order.
std::vector<WorkloadPodSecurity> workload_pod_security(const Context& context);

}  // namespace footprint
