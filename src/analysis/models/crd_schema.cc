#include "analysis/models/crd_schema.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <re2/re2.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "analysis/models/crd_formats.h"
#include "analysis/models/crd_schema_values.h"
#include "model/kubectl_json.h"
#include "model/object_names.h"
#include "util/strings.h"

namespace footprint {

// Go's regexp, which kube-openapi matches `pattern` with, has RE2's syntax and semantics.
struct SchemaValidator::Patterns {
  std::unordered_map<std::string, std::unique_ptr<RE2>> compiled;

  // Null for a pattern Go refuses too: the API server refuses such a CRD, so no object meets it.
  const RE2* get(std::string_view pattern) {
    auto [it, added] = compiled.try_emplace(std::string(pattern));
    if (added) {
      RE2::Options options;
      options.set_log_errors(false);
      it->second = std::make_unique<RE2>(pattern, options);
    }
    return it->second->ok() ? it->second.get() : nullptr;
  }
};

SchemaValidator::SchemaValidator() : patterns_(std::make_unique<Patterns>()) {}
SchemaValidator::~SchemaValidator() = default;

namespace {

bool flag(const yaml::Node& schema, std::string_view key) {
  return kubectl_bool(schema.get(key)).value_or(false);
}

std::string child_path(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
}

// A property whose value the API server drops or replaces before validating: a null where the
// schema is not nullable (structural pruning of nulls, then defaulting).
bool null_dropped(const yaml::Node& value, const yaml::Node& schema) {
  return decode(value).type == JsonType::kNull && !flag(schema, "nullable");
}

class Walk {
 public:
  Walk(SchemaValidator::Patterns& patterns, SchemaValidation& out)
      : patterns_(patterns), out_(out) {}

  // kube-openapi's SchemaValidator: the type, then the string, format, number, array, enum and
  // object validators, each adding its errors.
  void value(const yaml::Node& node, const yaml::Node& schema, const std::string& path) {
    count_rules(schema);
    Decoded v = decode(node);
    if (v.type == JsonType::kNull) return;  // pruned, defaulted or nullable: the parent's call
    if (!type_matches(v, schema, node, path)) return;
    if (v.type == JsonType::kString) string_value(v, node, schema, path);
    if (v.type == JsonType::kInteger || v.type == JsonType::kNumber)
      number_value(v, node, schema, path);
    if (v.type == JsonType::kArray) array_value(node, schema, path);
    enum_value(v, node, schema, path);
    if (v.type == JsonType::kObject) object_value(node, schema, path, false);
  }

  // The resource's root: apiVersion, kind and metadata are the API server's (ObjectMeta has its
  // own validation), and status is reset on create when the status subresource is on.
  void root(const yaml::Node& node, const yaml::Node& schema, bool status_subresource) {
    status_subresource_ = status_subresource;
    if (!node.is_mapping()) return;
    count_rules(schema);
    object_value(node, schema, "", true);
  }

 private:
  void count_rules(const yaml::Node& schema) {
    yaml::Node rules = schema.get("x-kubernetes-validations");
    if (rules.is_sequence()) out_.cel_rules += static_cast<uint32_t>(rules.size());
  }

  void add(SchemaViolation::Kind kind, const yaml::Node& at, std::string path, std::string value,
           std::string error) {
    out_.violations.push_back({.kind = kind,
                               .at = at,
                               .path = std::move(path),
                               .value = std::move(value),
                               .error = std::move(error)});
  }
  void invalid(const yaml::Node& at, const std::string& path, std::string value,
               std::string_view body) {
    std::string error = fmt::format("{}: {}", path, body);
    add(SchemaViolation::Kind::kInvalid, at, path, std::move(value), std::move(error));
  }
  // field.Invalid with kube-openapi's "<path> in body ..." detail.
  void invalid_in_body(const yaml::Node& at, const std::string& path, const std::string& value,
                       std::string_view detail) {
    invalid(at, path, value, fmt::format("Invalid value: {}: {} in body {}", value, path, detail));
  }

  // typeValidator (validate/type.go): x-kubernetes-int-or-string allows integer and string; an
  // integer passes for a number.
  bool type_matches(const Decoded& v, const yaml::Node& schema, const yaml::Node& node,
                    const std::string& path) {
    std::string_view written = schema.get("type").str();
    std::vector<std::string_view> types;
    if (flag(schema, "x-kubernetes-int-or-string")) {
      types = {"integer", "string"};
    } else if (!written.empty()) {
      types = {written};
    }
    if (types.empty()) return true;
    std::string_view actual = json_type_name(v.type);
    for (std::string_view t : types) {
      if (t == actual || (t == "number" && v.type == JsonType::kInteger)) return true;
    }
    std::string quoted = go_quote(actual);
    invalid(node, path, quoted,
            fmt::format("Invalid value: {}: {} in body must be of type {}: {}", quoted, path,
                        fmt::join(types, ","), quoted));
    return false;
  }

  void string_value(const Decoded& v, const yaml::Node& node, const yaml::Node& schema,
                    const std::string& path) {
    std::string_view s = v.text;
    int64_t length = utf8_length(s);  // kube-openapi counts runes
    if (std::optional<int64_t> max = kubectl_int(schema.get("maxLength")); max && length > *max) {
      invalid(node, path, go_quote(s), fmt::format("Too long: may not be longer than {}", *max));
    }
    if (std::optional<int64_t> min = kubectl_int(schema.get("minLength")); min && length < *min) {
      invalid_in_body(node, path, go_quote(s),
                      fmt::format("should be at least {} chars long", *min));
    }
    if (yaml::Node pattern = schema.get("pattern"); pattern.is_scalar()) {
      const RE2* re = patterns_.get(pattern.str());
      if (re && !RE2::PartialMatch(s, *re)) {
        invalid_in_body(node, path, go_quote(s), fmt::format("should match '{}'", pattern.str()));
      }
    }
    std::string_view format = schema.get("format").str();
    if (!format.empty() && !format_matches(format, s)) {
      std::string quoted = go_quote(s);
      invalid(node, path, quoted,
              fmt::format("Invalid value: {}: {} in body must be of type {}: {}", quoted, path,
                          format, quoted));
    }
  }

  // numberValidator: the bound printed as an integer for an integer value (ExceedsMaximumInt).
  void number_value(const Decoded& v, const yaml::Node& node, const yaml::Node& schema,
                    const std::string& path) {
    double d = v.number;
    auto bound = [&](double b) {
      return v.type == JsonType::kInteger ? fmt::format("{}", static_cast<int64_t>(b))
                                          : go_float(b);
    };
    std::string shown = v.shown();
    if (std::optional<double> max = kubectl_float(schema.get("maximum"))) {
      bool exclusive = flag(schema, "exclusiveMaximum");
      if (d > *max || (exclusive && d >= *max)) {
        invalid_in_body(
            node, path, shown,
            fmt::format("should be less than {}{}", exclusive ? "" : "or equal to ", bound(*max)));
      }
    }
    if (std::optional<double> min = kubectl_float(schema.get("minimum"))) {
      bool exclusive = flag(schema, "exclusiveMinimum");
      if (d < *min || (exclusive && d <= *min)) {
        invalid_in_body(node, path, shown,
                        fmt::format("should be greater than {}{}", exclusive ? "" : "or equal to ",
                                    bound(*min)));
      }
    }
    if (std::optional<double> factor = kubectl_float(schema.get("multipleOf"));
        factor && *factor > 0) {
      double quotient = *factor < 1 ? 1 / *factor * d : d / *factor;
      if (std::trunc(quotient) != quotient) {
        invalid_in_body(node, path, shown,
                        fmt::format("should be a multiple of {}", go_float(*factor)));
      }
    }
  }

  void array_value(const yaml::Node& node, const yaml::Node& schema, const std::string& path) {
    yaml::Node items = schema.get("items");
    for (size_t i = 0; i < node.size(); ++i) {
      if (items.is_mapping()) value(node.item(i), items, fmt::format("{}[{}]", path, i));
    }
    auto size = static_cast<int64_t>(node.size());
    if (std::optional<int64_t> min = kubectl_int(schema.get("minItems")); min && size < *min) {
      invalid_in_body(node, path, fmt::format("{}", size),
                      fmt::format("should have at least {} items", *min));
    }
    if (std::optional<int64_t> max = kubectl_int(schema.get("maxItems")); max && size > *max) {
      invalid(node, path, fmt::format("{}", size),
              fmt::format("Too many: {}: must have at most {} items", size, *max));
    }
    std::string_view list_type = schema.get("x-kubernetes-list-type").str();
    if (list_type == "set") set_duplicates(node, path);
    if (list_type == "map") map_duplicates(node, schema.get("x-kubernetes-list-map-keys"), path);
  }

  // listtype.validateListSet: each value seen before is a duplicate once, at its second place.
  void report_duplicates(const yaml::Node& node, const std::vector<std::string>& keys,
                         const std::vector<std::string>& shown, const std::string& path) {
    std::map<std::string, int> seen;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (++seen[keys[i]] != 2) continue;
      std::string item_path = fmt::format("{}[{}]", path, i);
      invalid(node.item(i), item_path, shown[i], fmt::format("Duplicate value: {}", shown[i]));
    }
  }

  void set_duplicates(const yaml::Node& node, const std::string& path) {
    std::vector<std::string> keys;
    std::vector<std::string> shown;
    for (size_t i = 0; i < node.size(); ++i) {
      Decoded v = decode(node.item(i));
      keys.push_back(v.identity());
      shown.push_back(v.shown());
    }
    report_duplicates(node, keys, shown, path);
  }

  void map_duplicates(const yaml::Node& node, const yaml::Node& key_fields,
                      const std::string& path) {
    std::vector<std::string> keys;
    std::vector<std::string> shown;
    std::vector<std::string_view> fields;
    for (size_t k = 0; k < key_fields.size(); ++k)
      fields.push_back(key_fields.item(k).str());
    std::sort(fields.begin(), fields.end());  // Go prints a map's keys sorted
    for (size_t i = 0; i < node.size(); ++i) {
      yaml::Node item = node.item(i);
      Decoded d = decode(item);
      if (d.type != JsonType::kNull && d.type != JsonType::kObject) {
        invalid(item, fmt::format("{}[{}]", path, i), d.shown(),
                fmt::format("Invalid value: {}: must be an object for an array of list-type map",
                            d.shown()));
        return;
      }
      std::string key;
      std::vector<std::string> members;
      for (std::string_view f : fields) {
        yaml::Node field = item.get(f);
        if (!field) continue;
        Decoded fv = decode(field);
        key += fmt::format("{}={};", f, fv.identity());
        members.push_back(fmt::format("{}:{}", go_quote(f), fv.shown()));
      }
      keys.push_back(key);
      shown.push_back(fmt::format("map[string]interface {{}}{{{}}}", fmt::join(members, ", ")));
    }
    report_duplicates(node, keys, shown, path);
  }

  // commonValidator's enum, with its numeric conversion: 1 matches 1.0.
  void enum_value(const Decoded& v, const yaml::Node& node, const yaml::Node& schema,
                  const std::string& path) {
    yaml::Node values = schema.get("enum");
    if (!values.is_sequence() || values.size() == 0) return;
    std::vector<std::string> supported;
    for (size_t i = 0; i < values.size(); ++i) {
      Decoded e = decode(values.item(i));
      if (e.identity() == v.identity() || e.same_number(v)) return;
      supported.push_back(go_quote(e.type == JsonType::kString ? e.text : e.json()));
    }
    invalid(node, path, v.shown(),
            fmt::format("Unsupported value: {}: supported values: {}", v.shown(),
                        fmt::join(supported, ", ")));
  }

  void object_value(const yaml::Node& node, const yaml::Node& schema, const std::string& path,
                    bool is_root) {
    auto count = static_cast<int64_t>(node.size());
    if (std::optional<int64_t> min = kubectl_int(schema.get("minProperties"));
        min && count < *min) {
      invalid_in_body(node, path, fmt::format("{}", count),
                      fmt::format("should have at least {} properties", *min));
      return;
    }
    if (std::optional<int64_t> max = kubectl_int(schema.get("maxProperties"));
        max && count > *max) {
      invalid(node, path, fmt::format("{}", count),
              fmt::format("Too many: {}: must have at most {} items", count, *max));
      return;
    }
    yaml::Node properties = schema.get("properties");
    yaml::Node additional = schema.get("additionalProperties");
    bool keeps_unknown = flag(schema, "x-kubernetes-preserve-unknown-fields") ||
                         kubectl_bool(additional).value_or(false);
    bool embedded = flag(schema, "x-kubernetes-embedded-resource");
    for (size_t i = 0; i < node.size(); ++i) {
      std::string_view key = node.key(i).str();
      yaml::Node child = node.value(i);
      if ((is_root || embedded) && (key == "apiVersion" || key == "kind" || key == "metadata")) {
        if (is_root && key == "metadata") root_metadata(child, properties.get("metadata"));
        continue;
      }
      if (is_root && key == "status" && status_subresource_) continue;
      std::string child_at = child_path(path, key);
      if (yaml::Node property = properties.get(key)) {
        value(child, property, child_at);
      } else if (additional.is_mapping()) {
        value(child, additional, child_at);
      } else if (!keeps_unknown) {
        add(SchemaViolation::Kind::kUnknownField, node.key(i), child_at, "",
            fmt::format("unknown field \"{}\"", child_at));
      }
    }
    if (embedded) embedded_type_meta(node, path);
    yaml::Node required = schema.get("required");
    for (size_t r = 0; r < required.size(); ++r) {
      std::string_view key = required.item(r).str();
      if (is_root && (key == "apiVersion" || key == "kind" || key == "metadata")) continue;
      yaml::Node property = properties.get(key);
      yaml::Node present = node.get(key);
      // Defaulting fills a missing or null field in before validation.
      if (property.get("default")) continue;
      if (present && !null_dropped(present, property)) continue;
      std::string missing = child_path(path, key);
      invalid(node, missing, "", "Required value");
    }
  }

  // The schema may restrict the root's metadata.name and generateName, and nothing else of
  // metadata (the CRD's validation refuses more); the API server validates them with the rest.
  void root_metadata(const yaml::Node& node, const yaml::Node& schema) {
    if (!node.is_mapping()) return;
    yaml::Node properties = schema.get("properties");
    for (std::string_view key : {"name", "generateName"}) {
      yaml::Node property = properties.get(key);
      yaml::Node present = node.get(key);
      if (property.is_mapping() && present) value(present, property, child_path("metadata", key));
    }
  }

  // objectmeta.validateEmbeddedResource: apiVersion and kind are required strings, apiVersion a
  // group/version (ParseGroupVersion), kind a DNS-1035 label in any case; metadata as
  // ValidateObjectMeta checks it with ValidatePathSegmentName, the namespace where one is set.
  void embedded_type_meta(const yaml::Node& node, const std::string& path) {
    for (std::string_view key : {"apiVersion", "kind"}) {
      yaml::Node field = node.get(key);
      std::string at = child_path(path, key);
      Decoded v = decode(field);
      if (!field || (v.type == JsonType::kString && v.text.empty())) {
        invalid(field ? field : node, at, "", "Required value");
      } else if (v.type != JsonType::kString) {
        invalid(field, at, v.shown(),
                fmt::format("Invalid value: {}: must be a string", v.shown()));
      } else if (key == "apiVersion" && std::count(v.text.begin(), v.text.end(), '/') > 1) {
        invalid_value(field, at, std::string(v.text),
                      {fmt::format("unexpected GroupVersion string: {}", v.text)});
      } else if (key == "kind") {
        std::vector<std::string> errors = dns1035_label_errors(lower(v.text));
        if (!errors.empty())
          invalid_value(field, at, std::string(v.text),
                        {fmt::format("may have mixed case, but should otherwise match: {}",
                                     fmt::join(errors, ","))});
      }
    }
    yaml::Node metadata = node.get("metadata");
    std::string meta_path = child_path(path, "metadata");
    for (auto [key, prefix] : {std::pair{"name", false}, std::pair{"generateName", true}}) {
      yaml::Node field = metadata.get(key);
      if (field.is_scalar() && kubectl_scalar_type(field) == "string")
        invalid_value(field, child_path(meta_path, key), std::string(field.str()),
                      path_segment_errors(field.str(), prefix));
    }
    yaml::Node ns = metadata.get("namespace");
    if (ns.is_scalar() && kubectl_scalar_type(ns) == "string" && !ns.str().empty())
      invalid_value(ns, child_path(meta_path, "namespace"), std::string(ns.str()),
                    dns1123_label_errors(ns.str()));
  }

  void invalid_value(const yaml::Node& at, const std::string& path, const std::string& text,
                     const std::vector<std::string>& messages) {
    for (const std::string& message : messages)
      out_.violations.push_back(
          invalid_string(SchemaViolation::Kind::kInvalid, at, path, text, message));
  }

  SchemaValidator::Patterns& patterns_;
  SchemaValidation& out_;
  bool status_subresource_ = false;
};

}  // namespace

SchemaViolation invalid_string(SchemaViolation::Kind kind, const yaml::Node& at,
                               std::string_view path, std::string_view value,
                               std::string_view message) {
  std::string quoted = go_quote(value);
  std::string error = fmt::format("{}: Invalid value: {}: {}", path, quoted, message);
  return {.kind = kind,
          .at = at,
          .path = std::string(path),
          .value = std::move(quoted),
          .error = std::move(error)};
}

SchemaValidation SchemaValidator::validate(const yaml::Node& schema, const yaml::Node& object,
                                           bool status_subresource) {
  SchemaValidation out;
  Walk walk(*patterns_, out);
  walk.root(object, schema, status_subresource);
  return out;
}

}  // namespace footprint
