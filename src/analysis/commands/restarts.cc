#include "analysis/commands/restarts.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

#include "model/kubectl_json.h"

namespace footprint {

namespace {

// ContainerStatus.restartCount is an int32 (k8s.io/api/core/v1) that the kubelet counts up from
// 0. A value kubectl would not decode into it, or a negative one, is no count: read as 0 it would
// hide a crash loop. Absent is 0, as the decoder leaves it.
tl::expected<int64_t, std::string> restart_count(const yaml::Node& node) {
  std::string_view type = node.is_scalar() ? kubectl_scalar_type(node) : "";
  if (!node || type == "null") return 0;
  std::optional<int64_t> value = kubectl_int(node);
  if (!value) {
    std::string what = type.empty()      ? "a list or mapping"
                       : type == "float" ? "a fraction, or a number out of range"
                                         : fmt::format("a YAML {}", type);
    return tl::unexpected(
        fmt::format("restartCount is {}, not the integer kubectl writes (an int32)", what));
  }
  if (*value > std::numeric_limits<int32_t>::max() || *value < 0) {
    return tl::unexpected(fmt::format(
        "restartCount {} is not a count the kubelet writes (0 up to 2147483647, an int32)",
        *value));
  }
  return *value;
}

// The container's current state as kubectl shows it: a waiting reason (CrashLoopBackOff,
// ImagePullBackOff), Running, or the terminated reason.
std::string state_of(const yaml::Node& status) {
  yaml::Node state = status.get("state");
  if (state.get("waiting")) {
    std::string_view reason = state.at({"waiting", "reason"}).str();
    return reason.empty() ? "Waiting" : std::string(reason);
  }
  if (state.get("running")) return "Running";
  if (state.get("terminated")) {
    std::string_view reason = state.at({"terminated", "reason"}).str();
    return reason.empty() ? "Terminated" : fmt::format("Terminated: {}", reason);
  }
  return "";
}

using Key = std::tuple<std::string, std::string, std::string, std::string, bool>;

Key key_of(const ContainerSample& s) {
  return {s.namespace_, s.pod, s.uid, s.container, s.init};
}

}  // namespace

tl::expected<std::vector<ContainerSample>, std::vector<LoadError>> read_pod_samples(
    const LoadedInput& input) {
  std::vector<ContainerSample> out;
  std::vector<LoadError> errors;
  for (const RawObject& raw : input.objects) {
    if (raw.node.get("kind").str() != "Pod") {
      errors.push_back(LoadError{input.files[raw.file], raw.position,
                                 fmt::format("expected Pod objects (kubectl get pods -A -o yaml), "
                                             "found {}",
                                             raw.node.get("kind").str())});
      continue;
    }
    yaml::Node metadata = raw.node.get("metadata");
    for (const char* field : {"initContainerStatuses", "containerStatuses"}) {
      yaml::Node statuses = raw.node.at({"status", field});
      for (size_t i = 0; i < statuses.size(); ++i) {
        yaml::Node s = statuses.item(i);
        ContainerSample c;
        c.namespace_ = std::string(metadata.get("namespace").str());
        c.pod = std::string(metadata.get("name").str());
        c.uid = std::string(metadata.get("uid").str());
        c.container = std::string(s.get("name").str());
        c.init = std::string_view(field) == "initContainerStatuses";
        auto restarts = restart_count(s.get("restartCount"));
        if (!restarts) {
          yaml::Node at = s.get("restartCount");
          errors.push_back(LoadError{input.files[raw.file], at.position(), restarts.error()});
          continue;
        }
        c.restarts = *restarts;
        c.state = state_of(s);
        c.last_reason = std::string(s.at({"lastState", "terminated", "reason"}).str());
        c.last_exit_code = std::string(s.at({"lastState", "terminated", "exitCode"}).str());
        out.push_back(std::move(c));
      }
    }
  }
  if (!errors.empty()) return tl::unexpected(std::move(errors));
  return out;
}

RestartComparison compare_restarts(const std::vector<ContainerSample>& before,
                                   const std::vector<ContainerSample>& after) {
  RestartComparison out;
  std::map<Key, const ContainerSample*> first;
  for (const ContainerSample& s : before)
    first[key_of(s)] = &s;
  std::map<Key, bool> seen;
  for (const ContainerSample& s : after) {
    auto it = first.find(key_of(s));
    if (it == first.end()) {
      out.only_after.push_back(s);
      continue;
    }
    seen[it->first] = true;
    ++out.compared;
    if (s.restarts > it->second->restarts) out.grew.push_back({*it->second, s});
    if (s.restarts >= it->second->restarts) continue;
    // Without a uid, a pod recreated under the same name (a StatefulSet's) cannot be told from
    // the same pod: its count starting again is no proof of the samples' order.
    (s.uid.empty() ? out.lowered_without_uid : out.shrank).push_back({*it->second, s});
  }
  for (const ContainerSample& s : before) {
    if (!seen.count(key_of(s))) out.only_before.push_back(s);
  }
  // Worst first: the most restarts added between the samples, then the most in total.
  std::stable_sort(out.grew.begin(), out.grew.end(),
                   [](const RestartGrowth& a, const RestartGrowth& b) {
                     return std::pair(a.increase(), a.after.restarts) >
                            std::pair(b.increase(), b.after.restarts);
                   });
  return out;
}

}  // namespace footprint
