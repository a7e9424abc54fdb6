#include "analysis/finding.h"

#include <fmt/format.h>

namespace footprint {

namespace {
constexpr std::string_view kSeverityNames[] = {"info", "low", "medium", "high", "critical"};
constexpr std::string_view kImpactNames[] = {"other teams", "install", "privilege", "hygiene"};
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
