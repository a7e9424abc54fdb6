#include "analysis/commands/restarts.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <tuple>

namespace footprint {

namespace {

int64_t to_int(std::string_view text) {
  int64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
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
        c.restarts = to_int(s.get("restartCount").str());
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
    if (s.restarts < it->second->restarts) out.shrank.push_back({*it->second, s});
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
