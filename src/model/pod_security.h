// The Pod Security Standards as Kubernetes' Pod Security Admission evaluates them
// (staging/src/k8s.io/pod-security-admission): the checks of each level, each in the revision
// that applies at a policy version, and the pod-security.kubernetes.io/* namespace labels.
// docs/pod-security.md lists the checks with their sources.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "load/yaml.h"
#include "model/selector.h"

namespace footprint {

enum class PodSecurityLevel : uint8_t { kPrivileged, kBaseline, kRestricted };

std::string_view level_name(PodSecurityLevel level);  // "privileged", "baseline", "restricted"

// The newest policy version any check has a revision for (registry.go's maxVersion): "latest",
// and every later version, evaluate as this one.
constexpr int kNewestPolicyMinor = 37;

// A policy version: v1.<minor>, or latest.
struct PolicyVersion {
  bool latest = true;
  int minor = kNewestPolicyMinor;

  static PolicyVersion v1(int minor) { return {false, minor}; }
  // The minor version the checks are picked for: latest and later versions clamp to the newest.
  int effective_minor() const;
  std::string to_string() const;  // "latest" or "v1.24"
};

// A pod as Pod Security Admission sees it: its metadata (for annotations) and its spec. For a
// workload this is the pod template, which is what each pod the controller creates carries.
struct PodView {
  yaml::Node metadata;
  yaml::Node spec;
};

struct PodSecurityViolation {
  std::string_view check;  // the package's check ID, e.g. "allowPrivilegeEscalation"
  // What the check asks, in words for people, e.g. "seccomp profile RuntimeDefault or Localhost"
  std::string_view requirement;
  PodSecurityLevel level;   // the level whose check this is
  std::string_view reason;  // the package's short reason, e.g. "host namespaces"
  std::string detail;       // which containers or fields, and what to set them to
};

// The checks of `level` at `version` that the pod fails, in the package's order (baseline
// checks, then restricted ones, each by ID). Nothing for privileged.
std::vector<PodSecurityViolation> pod_security_violations(const PodView& pod,
                                                          PodSecurityLevel level,
                                                          PolicyVersion version = {});

// The strictest level whose checks the pod passes at `version`.
PodSecurityLevel pod_security_level(const PodView& pod, PolicyVersion version = {});

// The enforce mode of a namespace, from its labels as api.PolicyToEvaluate reads them: an
// invalid level enforces restricted and an invalid version latest, as the package does.
struct EnforcePolicy {
  bool labelled = false;  // pod-security.kubernetes.io/enforce is set
  PodSecurityLevel level = PodSecurityLevel::kPrivileged;  // the API server's default
  PolicyVersion version;
  std::vector<std::string> errors;  // invalid label values

  std::string to_string() const;  // "restricted:v1.24", "privileged:latest"
};

constexpr std::string_view kEnforceLabel = "pod-security.kubernetes.io/enforce";
constexpr std::string_view kEnforceVersionLabel = "pod-security.kubernetes.io/enforce-version";

EnforcePolicy enforce_policy(const Labels& namespace_labels);

// The capabilities baseline lets containers add: the container runtimes' default set
// (check_capabilities_baseline.go).
bool baseline_capability(std::string_view capability);

// One check of the package: its ID, level and the minor versions its revisions start at.
struct PodSecurityCheckInfo {
  std::string_view id;
  PodSecurityLevel level;
  std::vector<int> revisions;
};
std::vector<PodSecurityCheckInfo> pod_security_checks();

}  // namespace footprint
