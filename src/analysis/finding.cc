#include "analysis/finding.h"

#include <fmt/format.h>

#include "model/kubectl_json.h"

namespace footprint {

namespace {
constexpr std::string_view kSeverityNames[] = {"info", "low", "medium", "high", "critical"};
constexpr std::string_view kImpactNames[] = {"other teams", "install", "privilege", "hygiene"};

bool encloses(const yaml::Node& outer, const yaml::Node& inner) {
  return outer.begin_offset() <= inner.begin_offset() && inner.end_offset() <= outer.end_offset();
}

// A list item by what it is: its name when it has one (a container, a webhook, a port), else
// its content in canonical JSON (a rule), so reordering the list keeps it.
std::string item_label(const yaml::Node& item) {
  yaml::Node name = item.is_mapping() ? item.get("name") : yaml::Node{};
  if (name.is_scalar()) return fmt::format("[{}]", name.text());
  return fmt::format("[{}]", kubectl_json(item).value_or(std::string(item.text())));
}

// Where `target` sits under `root`, by mapping keys and item labels ("spec.containers[app].image"):
// neither lines nor formatting nor the order of lists change it. When `target` is not found by
// its byte range (an alias), its content stands in.
std::string path_to(const yaml::Node& root, const yaml::Node& target) {
  std::string path;
  yaml::Node node = root;
  for (size_t depth = 0; depth < yaml::Limits{}.max_depth && !(node == target); ++depth) {
    yaml::Node next;
    for (size_t i = 0; i < node.size() && !next; ++i) {
      if (node.is_mapping()) {
        if (node.key(i) == target) return path + "." + std::string(node.key(i).text()) + ":";
        if (node.value(i) == target || encloses(node.value(i), target)) {
          next = node.value(i);
          path += "." + std::string(node.key(i).text());
        }
      } else if (node.is_sequence() && (node.item(i) == target || encloses(node.item(i), target))) {
        next = node.item(i);
        path += item_label(next);
      }
    }
    if (!next) return kubectl_json(target).value_or(std::string(target.text()));
    node = next;
  }
  return path;
}

}  // namespace

std::string_view impact_name(Impact impact) {
  return kImpactNames[static_cast<size_t>(impact)];
}

std::string some_of(const std::vector<std::string>& names, size_t shown) {
  if (names.size() <= shown + 1) return fmt::format("{}", fmt::join(names, ", "));
  return fmt::format("{} and {} more",
                     fmt::join(names.begin(), names.begin() + static_cast<ptrdiff_t>(shown), ", "),
                     names.size() - shown);
}

std::string_view severity_name(Severity severity) {
  return kSeverityNames[static_cast<size_t>(severity)];
}

std::optional<Severity> parse_severity(std::string_view name) {
  for (size_t i = 0; i < std::size(kSeverityNames); ++i) {
    if (kSeverityNames[i] == name) return static_cast<Severity>(i);
  }
  return std::nullopt;
}

Finding& about_shared(Finding& f, std::string identity) {
  f.about = std::move(identity);
  f.key.clear();
  return f;
}

Finding& Findings::add(const Object& object, Severity severity, std::string message,
                       std::string remediation, const yaml::Node& at) {
  Finding f;
  f.check = check_;
  f.impact = impact_;
  f.severity = severity;
  f.object = object.id();
  f.object_index = object.index;
  f.file = bundle_.file_of(object);
  f.position = at ? at.position() : object.position;
  f.helm_template = object.helm_source;
  f.message = std::move(message);
  f.remediation = std::move(remediation);
  if (at && at != object.node) f.key = path_to(object.node, at);
  findings_.push_back(std::move(f));
  return findings_.back();
}

Finding& Findings::add_at(ObjectId object, std::string file, yaml::Position position,
                          Severity severity, std::string message, std::string remediation) {
  Finding f;
  f.check = check_;
  f.impact = impact_;
  f.severity = severity;
  f.object = std::move(object);
  f.object_index = kNoObject;
  f.file = std::move(file);
  f.position = position;
  f.message = std::move(message);
  f.remediation = std::move(remediation);
  findings_.push_back(std::move(f));
  return findings_.back();
}

}  // namespace footprint
