// The checks of the Pod Security Standards, one function per revision, as the files
// staging/src/k8s.io/pod-security-admission/policy/check_<id>.go define them. Used by
// pod_security.cc, which picks the revisions for a level and a policy version.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/pod_security.h"

namespace footprint::pod_security {

// Why a revision rejects a pod; nothing when it allows it.
struct Failure {
  std::string_view reason;
  std::string detail;
};
using CheckFn = std::optional<Failure> (*)(const PodView& pod);

struct Revision {
  int minimum_minor;  // the first policy version v1.<minimum_minor> it applies to
  CheckFn check;
  // Baseline checks this restricted revision replaces when restricted is evaluated.
  std::vector<std::string_view> overrides;
};

struct Check {
  std::string_view id;
  // What the check asks of a pod, in words for the report (the ID is the package's token).
  std::string_view requirement;
  PodSecurityLevel level;
  std::vector<Revision> revisions;  // strictly increasing minimum_minor
};

// Every check of the package, baseline and restricted.
const std::vector<Check>& checks();

}  // namespace footprint::pod_security
