#include "analysis/models/cr_object_meta.h"

#include <string>

#include "model/kubectl_json.h"
#include "model/object_names.h"

namespace footprint {

namespace {

// The string a metadata field holds; empty when absent or not a string (wrong_field_types).
std::string_view meta_string(const yaml::Node& node) {
  return node.is_scalar() && kubectl_scalar_type(node) == "string" ? node.str()
                                                                   : std::string_view{};
}

void add_invalid(std::vector<SchemaViolation>& out, const yaml::Node& at, std::string_view path,
                 std::string_view value, const std::vector<std::string>& messages) {
  for (const std::string& message : messages)
    out.push_back(invalid_string(SchemaViolation::Kind::kObjectMeta, at, path, value, message));
}

}  // namespace

std::vector<SchemaViolation> object_meta_violations(const yaml::Node& object, bool namespaced) {
  std::vector<SchemaViolation> out;
  yaml::Node metadata = object.get("metadata");
  if (!metadata.is_mapping()) return out;
  yaml::Node name_node = metadata.get("name");
  yaml::Node generate_node = metadata.get("generateName");
  std::string_view name = meta_string(name_node);
  std::string_view generate = meta_string(generate_node);
  if (!generate.empty()) {
    std::string masked(generate);
    if (masked.size() > 1 && masked.back() == '-') masked.back() = 'a';  // maskTrailingDash
    add_invalid(out, generate_node, "metadata.generateName", generate,
                dns1123_subdomain_errors(masked));
  }
  if (name.empty() && generate.empty()) {
    out.push_back({.kind = SchemaViolation::Kind::kObjectMeta,
                   .at = metadata,
                   .path = "metadata.name",
                   .value = "",
                   .error = "metadata.name: Required value: name or generateName is required"});
  } else if (!name.empty() && path_segment_errors(name).empty()) {
    add_invalid(out, name_node, "metadata.name", name, dns1123_subdomain_errors(name));
  }
  yaml::Node namespace_node = metadata.get("namespace");
  std::string_view ns = meta_string(namespace_node);
  if (namespaced && !ns.empty())
    add_invalid(out, namespace_node, "metadata.namespace", ns, dns1123_label_errors(ns));
  return out;
}

}  // namespace footprint
