#include "analysis/config.h"

#include <fmt/format.h>

#include <cctype>
#include <filesystem>

#include "analysis/check.h"
#include "analysis/fingerprint.h"

namespace footprint {

namespace {

bool name_matches(std::string_view pattern, std::string_view name) {
  if (pattern.empty()) return true;
  if (pattern.ends_with("*")) return name.starts_with(pattern.substr(0, pattern.size() - 1));
  return pattern == name;
}

}  // namespace

bool valid_date(std::string_view date) {
  if (date.size() != 10 || date[4] != '-' || date[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!std::isdigit(static_cast<unsigned char>(date[i]))) return false;
  }
  int year = std::stoi(std::string(date.substr(0, 4)));
  int month = std::stoi(std::string(date.substr(5, 2)));
  int day = std::stoi(std::string(date.substr(8, 2)));
  if (month < 1 || month > 12 || day < 1) return false;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0);
}

bool IgnoreRule::matches(const Finding& finding) const {
  return (check == "*" || check == finding.check) &&
         (fingerprint.empty() || fingerprint == footprint::fingerprint(finding)) &&
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
    } else if (key == "trustAnnotations") {
      bool boolean = value.is_scalar() && value.is_plain() &&
                     (value.str() == "true" || value.str() == "false");
      if (!boolean) {
        return fail(value,
                    fmt::format("trustAnnotations must be true or false, not \"{}\"", value.str()));
      }
      config.trust_annotations = value.str() == "true";
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
          } else if (field == "fingerprint") {
            rule.fingerprint = text_value;
          } else if (field == "reason") {
            rule.reason = text_value;
          } else if (field == "owner") {
            rule.owner = text_value;
          } else if (field == "ticket") {
            rule.ticket = text_value;
          } else if (field == "expires") {
            if (!valid_date(text_value)) {
              return fail(item.value(f), fmt::format("expires must be a date as YYYY-MM-DD, not "
                                                     "\"{}\"",
                                                     text_value));
            }
            rule.expires = text_value;
          } else {
            return fail(item.key(f),
                        fmt::format("unknown field \"{}\" in an ignore entry (expected check, "
                                    "kind, namespace, name, fingerprint, reason, owner, ticket, "
                                    "expires)",
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
        if (!rule.fingerprint.empty() &&
            (rule.fingerprint.size() != 32 ||
             rule.fingerprint.find_first_not_of("0123456789abcdef") != std::string::npos)) {
          return fail(item.get("fingerprint"),
                      "fingerprint must be the 32 hex digits a JSON report gives a finding");
        }
        config.ignore.push_back(std::move(rule));
      }
    } else {
      return fail(root.key(i),
                  fmt::format("unknown setting \"{}\" (expected failOn, trustAnnotations or "
                              "ignore)",
                              key));
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
