// Restart counts sampled twice (`footprint restarts BEFORE AFTER`): a crash loop is easy to miss
// at one glance, and obvious as a count that grows between two samples.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "load/loader.h"

namespace footprint {

struct ContainerSample {
  std::string namespace_;
  std::string pod;
  std::string uid;  // metadata.uid: a pod recreated under the same name is another pod
  std::string container;
  bool init = false;
  int64_t restarts = 0;
  std::string state;        // "CrashLoopBackOff", "Running", "Terminated: Error", ...
  std::string last_reason;  // lastState.terminated.reason
  std::string last_exit_code;
};

// Every container status of the Pods of one `kubectl get pods -A -o yaml`; any other kind, and a
// restartCount that is not an int32 count, is an error with file:line.
tl::expected<std::vector<ContainerSample>, std::vector<LoadError>> read_pod_samples(
    const LoadedInput& input);

struct RestartGrowth {
  ContainerSample before;
  ContainerSample after;
  int64_t increase() const { return after.restarts - before.restarts; }
};

struct RestartComparison {
  std::vector<RestartGrowth> grew;  // most restarts added first
  // The kubelet never lowers a pod's restart count: a count that went down means the second
  // sample is the older one.
  std::vector<RestartGrowth> shrank;
  // Counts that went down on pods without metadata.uid: most likely recreated under the same
  // name, which only a uid would tell.
  std::vector<RestartGrowth> lowered_without_uid;
  std::vector<ContainerSample> only_before;  // pods gone (or recreated) by the second sample
  std::vector<ContainerSample> only_after;   // pods new in the second sample
  size_t compared = 0;                       // containers present in both
};

RestartComparison compare_restarts(const std::vector<ContainerSample>& before,
                                   const std::vector<ContainerSample>& after);

}  // namespace footprint
