#include "load/helm_tests.h"

#include <fmt/format.h>

#include <algorithm>

#include "util/strings.h"

namespace footprint {

// Helm splits the annotation on commas and matches each trimmed, lower-cased event
// (pkg/releaseutil/manifest_sorter.go); test-success is kept for Helm 2 charts.
bool helm_test_hook(const RawObject& object) {
  yaml::Node hook = object.node.get("metadata").get("annotations").get("helm.sh/hook");
  if (!hook.is_scalar()) return false;
  std::string_view events = hook.str();
  bool any = false;
  while (true) {
    size_t comma = events.find(',');
    std::string event = lower(trim(events.substr(0, comma)));
    if (event != "test" && event != "test-success") return false;
    any = true;
    if (comma == std::string_view::npos) break;
    events.remove_prefix(comma + 1);
  }
  return any;
}

std::string helm_test_note(const RawObject& object, const std::string& file) {
  std::string where = object.helm_source.empty() ? fmt::format("{}:{}", file, object.position.line)
                                                 : object.helm_source;
  return fmt::format(
      "left out {} {} ({}): a Helm test hook, which `helm test` runs and installing does not "
      "create",
      object.node.get("kind").str(), object.node.get("metadata").get("name").str(), where);
}

}  // namespace footprint
