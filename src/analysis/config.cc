#include "analysis/config.h"

#include <fmt/format.h>

#include <filesystem>

#include "analysis/check.h"

namespace footprint {

namespace {

bool name_matches(std::string_view pattern, std::string_view name) {
  if (pattern.empty()) return true;
  if (pattern.ends_with("*")) return name.starts_with(pattern.substr(0, pattern.size() - 1));
  return pattern == name;
}

}  // namespace

bool IgnoreRule::matches(const Finding& finding) const {
  return (check == "*" || check == finding.check) &&
         (kind.empty() || kind == finding.object.kind) &&
         (namespace_.empty() || namespace_ == finding.object.namespace_) &&
         name_matches(name, finding.object.name);
}

tl::expected<Config, LoadError> parse_config(const std::string& path, std::string_view text) {
  auto fail = [&](const yaml::Node& at, std::string message) {
    return tl::unexpected(
        LoadError{path, at ? at.position() : yaml::Position{}, std::move(message)});
  };
  auto docs = yaml::parse(text);
  if (!docs) return tl::unexpected(LoadError{path, docs.error().position, docs.error().message});
  Config config;
  config.path = path;
  if (docs->empty() || docs->front().root.is_null()) return config;
  if (docs->size() > 1) return fail((*docs)[1].root, "expected a single YAML document");
  yaml::Node root = docs->front().root;
  if (!root.is_mapping()) return fail(root, "expected a mapping with failOn and ignore");
  for (size_t i = 0; i < root.size(); ++i) {
    std::string_view key = root.key(i).text();
    yaml::Node value = root.value(i);
    if (key == "failOn") {
      // "none" as --fail-on takes it: never fail on findings.
      auto severity = parse_severity(value.str());
      if (!severity && value.str() != "none") {
        return fail(value, fmt::format("failOn must be info, low, medium, high, critical or none, "
                                       "not \"{}\"",
                                       value.str()));
      }
      config.fail_on = severity;
    } else if (key == "ignore") {
      if (!value.is_sequence()) return fail(value, "ignore must be a list");
      for (size_t r = 0; r < value.size(); ++r) {
        yaml::Node item = value.item(r);
        if (!item.is_mapping()) return fail(item, "each ignore entry must be a mapping");
        IgnoreRule rule;
        rule.position = item.position();
        for (size_t f = 0; f < item.size(); ++f) {
          std::string_view field = item.key(f).text();
          std::string text_value(item.value(f).str());
          if (field == "check") {
            rule.check = text_value;
          } else if (field == "kind") {
            rule.kind = text_value;
          } else if (field == "namespace") {
            rule.namespace_ = text_value;
          } else if (field == "name") {
            rule.name = text_value;
          } else if (field == "reason") {
            rule.reason = text_value;
          } else {
            return fail(item.key(f), fmt::format("unknown field \"{}\" in an ignore entry "
                                                 "(expected check, kind, namespace, name, reason)",
                                                 field));
          }
        }
        if (rule.check.empty()) return fail(item, "an ignore entry needs a check (an ID or \"*\")");
        if (rule.check != "*" && !find_check(rule.check)) {
          return fail(item.get("check"), fmt::format("unknown check \"{}\"; `footprint checks` "
                                                     "lists them",
                                                     rule.check));
        }
        if (rule.reason.empty()) return fail(item, "an ignore entry needs a reason");
        config.ignore.push_back(std::move(rule));
      }
    } else {
      return fail(root.key(i),
                  fmt::format("unknown setting \"{}\" (expected failOn or ignore)", key));
    }
  }
  return config;
}

tl::expected<Config, LoadError> load_config(const std::string& path) {
  std::string file = path.empty() ? kConfigFileName : path;
  std::error_code ec;
  if (path.empty() && !std::filesystem::exists(file, ec)) return Config{};
  auto text = read_text_file(file);
  if (!text) return tl::unexpected(LoadError{file, {}, "cannot read: " + text.error()});
  return parse_config(file, *text);
}

}  // namespace footprint
