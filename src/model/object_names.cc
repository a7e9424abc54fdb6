#include "model/object_names.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <string_view>

#include "model/kubectl_json.h"
#include "model/names.h"
#include "model/resources.h"

namespace footprint {

namespace {

// The rules of k8s.io/apimachinery/pkg/util/validation/validation.go, with its messages.
enum class NameRule : uint8_t { kAny, kSubdomain, kLabel, kDns1035 };

constexpr std::string_view kLabelFormat = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kSubdomainFormat =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr std::string_view kDns1035Format = "[a-z]([-a-z0-9]*[a-z0-9])?";

// RegexError: the message, the examples and the pattern, as the API server words them.
std::string regex_error(std::string_view message, std::string_view format,
                        std::vector<std::string_view> examples) {
  std::string out = fmt::format("{} (e.g. ", message);
  for (size_t i = 0; i < examples.size(); ++i)
    out += fmt::format("{}'{}', ", i ? " or " : "", examples[i]);
  return out + fmt::format("regex used for validation is '{}')", format);
}

std::vector<std::string> rule_errors(NameRule rule, std::string_view name) {
  std::vector<std::string> out;
  switch (rule) {
    case NameRule::kAny:
      break;
    case NameRule::kSubdomain:
      if (name.size() > 253) out.emplace_back("must be no more than 253 characters");
      if (!matches_dns1123_subdomain(name)) {
        out.push_back(regex_error(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
            "'-' or '.', and must start and end with an alphanumeric character",
            kSubdomainFormat, {"example.com"}));
      }
      break;
    case NameRule::kLabel:
      if (name.size() > 63) out.emplace_back("must be no more than 63 characters");
      if (!matches_dns1123_label(name)) {
        out.push_back(matches_dns1123_subdomain(name)
                          ? std::string("must not contain dots")
                          : regex_error("a lowercase RFC 1123 label must consist of lower case "
                                        "alphanumeric characters or '-', and must start and end "
                                        "with an alphanumeric character",
                                        kLabelFormat, {"my-name", "123-abc"}));
      }
      break;
    case NameRule::kDns1035:
      if (name.size() > 63) out.emplace_back("must be no more than 63 characters");
      if (!matches_dns1123_label(name) || !(name.front() >= 'a' && name.front() <= 'z')) {
        out.push_back(regex_error(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start "
            "with an alphabetic character, and end with an alphanumeric character",
            kDns1035Format, {"my-name", "abc-123"}));
      }
      break;
  }
  return out;
}

// The kinds whose name rule is known: pkg/apis/core/validation (ValidateConfigMapName,
// ValidateSecretName, ValidatePodName, ValidateServiceAccountName: NameIsDNSSubdomain;
// ValidateServiceName: NameIsDNS1035Label; ValidateNamespaceName: a DNS label),
// pkg/apis/apps/validation (Deployments, ReplicaSets, DaemonSets: NameIsDNSSubdomain) and
// apiextensions' ValidateCustomResourceDefinition (NameIsDNSSubdomain).
NameRule name_rule(std::string_view group, std::string_view kind) {
  if (group.empty()) {
    if (kind == "ConfigMap" || kind == "Secret" || kind == "Pod" || kind == "ServiceAccount")
      return NameRule::kSubdomain;
    if (kind == "Service") return NameRule::kDns1035;
    if (kind == "Namespace") return NameRule::kLabel;
  }
  if (group == "apps" && (kind == "Deployment" || kind == "ReplicaSet" || kind == "DaemonSet"))
    return NameRule::kSubdomain;
  if (group == "apiextensions.k8s.io" && kind == "CustomResourceDefinition")
    return NameRule::kSubdomain;
  return NameRule::kAny;
}

FieldTypeError refused(const yaml::Node& at, std::string_view field, std::string_view value,
                       std::string_view why) {
  std::string quoted = go_json_string(value);
  return FieldTypeError{
      at.position(), fmt::format("{} is {}: the API server refuses the whole object (\"{}: Invalid "
                                 "value: {}: {}\")",
                                 field, quoted, field, quoted, why)};
}

}  // namespace

std::vector<std::string> dns1123_subdomain_errors(std::string_view name) {
  return rule_errors(NameRule::kSubdomain, name);
}

std::vector<std::string> dns1123_label_errors(std::string_view name) {
  return rule_errors(NameRule::kLabel, name);
}

std::vector<std::string> dns1035_label_errors(std::string_view name) {
  return rule_errors(NameRule::kDns1035, name);
}

std::vector<std::string> path_segment_errors(std::string_view name, bool prefix) {
  if (!prefix && (name == "." || name == "..")) return {fmt::format("may not be '{}'", name)};
  std::vector<std::string> out;
  for (std::string_view part : {"/", "%"}) {
    if (name.find(part) != std::string_view::npos)
      out.push_back(fmt::format("may not contain '{}'", part));
  }
  return out;
}

std::vector<FieldTypeError> refused_names(const yaml::Node& object) {
  std::vector<FieldTypeError> out;
  yaml::Node metadata = object.get("metadata");
  if (!metadata.is_mapping()) return out;
  std::string_view api_version = object.get("apiVersion").str();
  size_t slash = api_version.find('/');
  std::string_view group = slash == std::string_view::npos ? "" : api_version.substr(0, slash);
  std::string_view kind = object.get("kind").str();

  yaml::Node name_node = metadata.get("name");
  // A name of the wrong type is wrong_field_types' error.
  std::string_view name = name_node.is_scalar() && kubectl_scalar_type(name_node) == "string"
                              ? name_node.str()
                              : std::string_view{};
  if (!name.empty()) {
    std::vector<std::string> in_path = path_segment_errors(name);
    if (!in_path.empty()) {
      // client-go refuses to build the request: the API server never sees the object.
      out.push_back(FieldTypeError{
          name_node.position(),
          fmt::format("metadata.name is {}, which kubectl cannot send (\"invalid resource name "
                      "{}: [{}]\")",
                      go_json_string(name), go_json_string(name), fmt::join(in_path, " "))});
      return out;
    }
    for (const std::string& why : rule_errors(name_rule(group, kind), name))
      out.push_back(refused(name_node, "metadata.name", name, why));
    if (group == "apiextensions.k8s.io" && kind == "CustomResourceDefinition") {
      yaml::Node spec = object.get("spec");
      std::string required =
          fmt::format("{}.{}", spec.at({"names", "plural"}).str(), spec.get("group").str());
      if (name != required)
        out.push_back(refused(name_node, "metadata.name", name,
                              "must be spec.names.plural+\".\"+spec.group"));
    }
  }

  yaml::Node namespace_node = metadata.get("namespace");
  std::string_view ns =
      namespace_node.is_scalar() && kubectl_scalar_type(namespace_node) == "string"
          ? namespace_node.str()
          : std::string_view{};
  if (ns.empty()) return out;
  const ResourceInfo* info = ResourceTable::builtin().find_kind(group, kind);
  if (!info || info->scope != Scope::kNamespaced) return out;
  for (const std::string& why : rule_errors(NameRule::kLabel, ns))
    out.push_back(refused(namespace_node, "metadata.namespace", ns, why));
  return out;
}

}  // namespace footprint
