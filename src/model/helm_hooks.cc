#include "model/helm_hooks.h"

#include <algorithm>

#include "util/strings.h"

namespace footprint {

std::vector<std::string> helm_hook_events(const Object& obj) {
  std::vector<std::string> events;
  std::string_view text = obj.annotation("helm.sh/hook");
  size_t pos = 0;
  while (pos < text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    std::string event(trim(text.substr(pos, comma - pos)));
    if (!event.empty()) events.push_back(std::move(event));
    pos = comma + 1;
  }
  return events;
}

bool created_at_install(const Object& obj) {
  std::vector<std::string> events = helm_hook_events(obj);
  return events.empty() || std::any_of(events.begin(), events.end(), [](const std::string& e) {
           return e == "pre-install" || e == "post-install";
         });
}

std::string later_hook_phases(const Object& obj) {
  if (created_at_install(obj)) return "";
  return joined(helm_hook_events(obj), ", ");
}

}  // namespace footprint
