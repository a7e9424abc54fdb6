#include "model/field_types.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <string_view>

#include "load/base64.h"
#include "model/kubectl_json.h"

namespace footprint {

namespace {

// What a field must be in JSON; the arrays and maps also say what their items must be. kInt32 is
// a number Go can store in an int32; kBytesMap's values are base64 text (Go's []byte).
enum class Json : uint8_t {
  kObject,
  kObjectArray,
  kStringArray,
  kStringMap,
  kBytesMap,
  kString,
  kNumber,
  kInt32,
  kBool
};

// The range the API server's validation accepts for an integer, and its message (field.Invalid),
// or field.Required's for 0 when `zero_is_absent` (a zero int32 reads as not given).
struct Range {
  int64_t min;
  int64_t max;
  std::string_view message;
  bool zero_is_absent = false;
};

// One field: its path from the object's root ("[]" steps into every item of a list), the JSON
// type the Go struct needs, and the names Go's encoding/json puts in its error ("json: cannot
// unmarshal string into Go struct field PolicyRule.rules.verbs of type []string"): the struct
// that holds the field and the field's Go type. Then what validation accepts of a value of the
// right type: a range, or the values of an enum (of each item, for a list), sorted as the API
// server lists them.
struct Field {
  std::string path;
  Json want;
  std::string_view go_struct;
  std::string_view go_type;
  // The initialisers are not redundant: they let table rows leave these out without GCC's
  // -Wmissing-field-initializers.
  std::optional<Range> range = {};             // NOLINT(readability-redundant-member-init)
  std::vector<std::string_view> allowed = {};  // NOLINT(readability-redundant-member-init)
};

// IsValidPortNum (k8s.io/apimachinery/pkg/util/validation/validation.go).
constexpr std::string_view kPortRange = "must be between 1 and 65535, inclusive";

struct KindFields {
  std::string_view group;
  std::vector<std::string_view> kinds;
  std::vector<Field> fields;
};

std::vector<Field> webhook_fields(std::string_view configuration, std::string_view webhook,
                                  bool mutating) {
  std::vector<Field> out = {
      {"webhooks", Json::kObjectArray, configuration,
       mutating ? "[]v1.MutatingWebhook" : "[]v1.ValidatingWebhook"},
      {"webhooks[].failurePolicy",
       Json::kString,
       webhook,
       "v1.FailurePolicyType",
       {},
       {"Fail", "Ignore"}},
      {"webhooks[].matchPolicy",
       Json::kString,
       webhook,
       "v1.MatchPolicyType",
       {},
       {"Equivalent", "Exact"}},
      {"webhooks[].sideEffects", Json::kString, webhook, "v1.SideEffectClass"},
      {"webhooks[].timeoutSeconds", Json::kInt32, webhook, "int32",
       Range{1, 30, "the timeout value must be between 1 and 30 seconds"}},
      {"webhooks[].namespaceSelector", Json::kObject, webhook, "v1.LabelSelector"},
      {"webhooks[].objectSelector", Json::kObject, webhook, "v1.LabelSelector"},
      {"webhooks[].admissionReviewVersions", Json::kStringArray, webhook, "[]string"},
      {"webhooks[].clientConfig", Json::kObject, webhook, "v1.WebhookClientConfig"},
      {"webhooks[].clientConfig.url", Json::kString, "WebhookClientConfig", "string"},
      {"webhooks[].clientConfig.service", Json::kObject, "WebhookClientConfig",
       "v1.ServiceReference"},
      {"webhooks[].clientConfig.service.name", Json::kString, "ServiceReference", "string"},
      {"webhooks[].clientConfig.service.namespace", Json::kString, "ServiceReference", "string"},
      {"webhooks[].clientConfig.service.port", Json::kInt32, "ServiceReference", "int32",
       Range{1, 65535, "port is not valid: must be between 1 and 65535, inclusive"}},
      {"webhooks[].rules", Json::kObjectArray, webhook, "[]v1.RuleWithOperations"},
      {"webhooks[].rules[].operations",
       Json::kStringArray,
       "RuleWithOperations",
       "[]v1.OperationType",
       {},
       {"*", "CONNECT", "CREATE", "DELETE", "UPDATE"}},
      {"webhooks[].rules[].apiGroups", Json::kStringArray, "RuleWithOperations", "[]string"},
      {"webhooks[].rules[].apiVersions", Json::kStringArray, "RuleWithOperations", "[]string"},
      {"webhooks[].rules[].resources", Json::kStringArray, "RuleWithOperations", "[]string"},
      {"webhooks[].rules[].scope",
       Json::kString,
       "RuleWithOperations",
       "v1.ScopeType",
       {},
       {"*", "Cluster", "Namespaced"}},
  };
  if (mutating) {
    out.push_back({"webhooks[].reinvocationPolicy",
                   Json::kString,
                   webhook,
                   "v1.ReinvocationPolicyType",
                   {},
                   {"IfNeeded", "Never"}});
  }
  return out;
}

// A workload's pod spec at `prefix` ("spec.template.spec"): the fields the workload, pod security
// and service account checks read, and those Helm values most often get wrong (an env value or
// an argument written as a number).
void add_pod_spec(std::vector<Field>& out, const std::string& prefix) {
  auto at = [&](std::string_view rest) { return fmt::format("{}.{}", prefix, rest); };
  std::vector<Field> fields;
  for (std::string_view list : {"containers", "initContainers"}) {
    auto in = [&](std::string_view rest) { return fmt::format("{}.{}[].{}", prefix, list, rest); };
    std::vector<Field> container = {
        {at(list), Json::kObjectArray, "PodSpec", "[]v1.Container"},
        {in("name"), Json::kString, "Container", "string"},
        {in("command"), Json::kStringArray, "Container", "[]string"},
        {in("args"), Json::kStringArray, "Container", "[]string"},
        {in("env"), Json::kObjectArray, "Container", "[]v1.EnvVar"},
        {in("env[].name"), Json::kString, "EnvVar", "string"},
        {in("env[].value"), Json::kString, "EnvVar", "string"},
        {in("ports"), Json::kObjectArray, "Container", "[]v1.ContainerPort"},
        // core/validation/validation.go, validateContainerPorts.
        {in("ports[].containerPort"), Json::kInt32, "ContainerPort", "int32",
         Range{1, 65535, kPortRange, true}},
        {in("securityContext"), Json::kObject, "Container", "v1.SecurityContext"},
        {in("securityContext.privileged"), Json::kBool, "SecurityContext", "bool"},
    };
    fields.insert(fields.end(), container.begin(), container.end());
  }
  std::vector<Field> pod = {
      {at("serviceAccountName"), Json::kString, "PodSpec", "string"},
      {at("hostNetwork"), Json::kBool, "PodSpec", "bool"},
      {at("hostPID"), Json::kBool, "PodSpec", "bool"},
      {at("hostIPC"), Json::kBool, "PodSpec", "bool"},
      {at("nodeSelector"), Json::kObject, "PodSpec", "map[string]string"},
      {at("tolerations"), Json::kObjectArray, "PodSpec", "[]v1.Toleration"},
      {at("securityContext"), Json::kObject, "PodSpec", "v1.PodSecurityContext"},
  };
  out.insert(out.end(), fields.begin(), fields.end());
  out.insert(out.end(), pod.begin(), pod.end());
}

// A pod template's metadata at `prefix` ("spec.template.metadata"): labels and annotations are
// maps of strings, as in every object's metadata.
void add_template_metadata(std::vector<Field>& out, const std::string& prefix) {
  out.push_back({prefix, Json::kObject, "PodTemplateSpec", "v1.ObjectMeta"});
  out.push_back({prefix + ".labels", Json::kStringMap, "ObjectMeta", "map[string]string"});
  out.push_back({prefix + ".annotations", Json::kStringMap, "ObjectMeta", "map[string]string"});
}

// A workload whose spec holds a pod template: `kind` with its spec of Go type `spec_type`, and
// `replicas` when the kind has them (apps/validation/validation.go: ValidateNonnegativeField).
std::vector<Field> workload_fields(std::string_view kind, std::string_view spec_struct,
                                   std::string_view spec_type, bool replicas) {
  std::vector<Field> out = {
      {"spec", Json::kObject, kind, spec_type},
      {"spec.template", Json::kObject, spec_struct, "v1.PodTemplateSpec"},
      {"spec.template.spec", Json::kObject, "PodTemplateSpec", "v1.PodSpec"},
  };
  if (replicas) {
    out.push_back(
        {"spec.replicas", Json::kInt32, spec_struct, "int32",
         Range{0, std::numeric_limits<int32_t>::max(), "must be greater than or equal to 0"}});
  }
  add_template_metadata(out, "spec.template.metadata");
  add_pod_spec(out, "spec.template.spec");
  return out;
}

std::vector<Field> role_fields(std::string_view role) {
  return {
      {"rules", Json::kObjectArray, role, "[]v1.PolicyRule"},
      {"rules[].apiGroups", Json::kStringArray, "PolicyRule", "[]string"},
      {"rules[].resources", Json::kStringArray, "PolicyRule", "[]string"},
      {"rules[].verbs", Json::kStringArray, "PolicyRule", "[]string"},
      {"rules[].resourceNames", Json::kStringArray, "PolicyRule", "[]string"},
      {"rules[].nonResourceURLs", Json::kStringArray, "PolicyRule", "[]string"},
      {"aggregationRule", Json::kObject, role, "v1.AggregationRule"},
      {"aggregationRule.clusterRoleSelectors", Json::kObjectArray, "AggregationRule",
       "[]v1.LabelSelector"},
  };
}

std::vector<Field> binding_fields(std::string_view binding) {
  return {
      {"roleRef", Json::kObject, binding, "v1.RoleRef"},
      {"roleRef.apiGroup", Json::kString, "RoleRef", "string"},
      {"roleRef.kind", Json::kString, "RoleRef", "string"},
      {"roleRef.name", Json::kString, "RoleRef", "string"},
      {"subjects", Json::kObjectArray, binding, "[]v1.Subject"},
      {"subjects[].kind", Json::kString, "Subject", "string"},
      {"subjects[].apiGroup", Json::kString, "Subject", "string"},
      {"subjects[].name", Json::kString, "Subject", "string"},
      {"subjects[].namespace", Json::kString, "Subject", "string"},
  };
}

std::vector<Field> cron_job_fields() {
  std::vector<Field> out = {
      {"spec", Json::kObject, "CronJob", "v1.CronJobSpec"},
      {"spec.jobTemplate", Json::kObject, "CronJobSpec", "v1.JobTemplateSpec"},
      {"spec.jobTemplate.spec", Json::kObject, "JobTemplateSpec", "v1.JobSpec"},
      {"spec.jobTemplate.spec.template", Json::kObject, "JobSpec", "v1.PodTemplateSpec"},
      {"spec.jobTemplate.spec.template.spec", Json::kObject, "PodTemplateSpec", "v1.PodSpec"},
  };
  add_template_metadata(out, "spec.jobTemplate.spec.template.metadata");
  add_pod_spec(out, "spec.jobTemplate.spec.template.spec");
  return out;
}

std::vector<Field> pod_fields() {
  std::vector<Field> out = {{"spec", Json::kObject, "Pod", "v1.PodSpec"}};
  add_pod_spec(out, "spec");
  return out;
}

// The kinds whose fields the RBAC, webhook, workload and Service checks read, and ConfigMaps and
// Secrets (k8s.io/api: rbac/v1, admissionregistration/v1, apps/v1, batch/v1 and core/v1
// types.go). The enums and ranges of webhooks are pkg/apis/admissionregistration/validation/
// validation.go's (validateValidatingWebhook, validateRuleWithOperations, validateRule) and
// k8s.io/apiserver/pkg/util/webhook/validation.go's (ValidateWebhookService).
const std::vector<KindFields>& table() {
  static const std::vector<KindFields> kTable = {
      {"rbac.authorization.k8s.io", {"Role"}, role_fields("Role")},
      {"rbac.authorization.k8s.io", {"ClusterRole"}, role_fields("ClusterRole")},
      {"rbac.authorization.k8s.io", {"RoleBinding"}, binding_fields("RoleBinding")},
      {"rbac.authorization.k8s.io", {"ClusterRoleBinding"}, binding_fields("ClusterRoleBinding")},
      {"admissionregistration.k8s.io",
       {"ValidatingWebhookConfiguration"},
       webhook_fields("ValidatingWebhookConfiguration", "ValidatingWebhook", false)},
      {"admissionregistration.k8s.io",
       {"MutatingWebhookConfiguration"},
       webhook_fields("MutatingWebhookConfiguration", "MutatingWebhook", true)},
      {"apps",
       {"Deployment"},
       workload_fields("Deployment", "DeploymentSpec", "v1.DeploymentSpec", true)},
      {"apps",
       {"StatefulSet"},
       workload_fields("StatefulSet", "StatefulSetSpec", "v1.StatefulSetSpec", true)},
      {"apps",
       {"DaemonSet"},
       workload_fields("DaemonSet", "DaemonSetSpec", "v1.DaemonSetSpec", false)},
      {"apps",
       {"ReplicaSet"},
       workload_fields("ReplicaSet", "ReplicaSetSpec", "v1.ReplicaSetSpec", true)},
      {"batch", {"Job"}, workload_fields("Job", "JobSpec", "v1.JobSpec", false)},
      {"batch", {"CronJob"}, cron_job_fields()},
      {"", {"Pod"}, pod_fields()},
      {"",
       {"Service"},
       {
           {"spec", Json::kObject, "Service", "v1.ServiceSpec"},
           {"spec.ports", Json::kObjectArray, "ServiceSpec", "[]v1.ServicePort"},
           // core/validation/validation.go, validateServicePort.
           {"spec.ports[].port", Json::kInt32, "ServicePort", "int32", Range{1, 65535, kPortRange}},
           {"spec.ports[].name", Json::kString, "ServicePort", "string"},
           {"spec.selector", Json::kObject, "ServiceSpec", "map[string]string"},
       }},
      // core/v1 types.go: ConfigMap.Data map[string]string, BinaryData and Secret.Data
      // map[string][]byte (base64 in JSON), Secret.StringData map[string]string.
      {"",
       {"ConfigMap"},
       {
           {"data", Json::kStringMap, "ConfigMap", "map[string]string"},
           {"binaryData", Json::kBytesMap, "ConfigMap", "map[string][]uint8"},
       }},
      {"",
       {"Secret"},
       {
           {"data", Json::kBytesMap, "Secret", "map[string][]uint8"},
           {"stringData", Json::kStringMap, "Secret", "map[string]string"},
       }},
  };
  return kTable;
}

// The JSON type kubectl sends for a node ("null" for an absent or null one).
std::string_view json_type(const yaml::Node& node) {
  if (node.is_mapping()) return "object";
  if (node.is_sequence()) return "array";
  std::string_view scalar = kubectl_scalar_type(node);
  if (scalar == "int" || scalar == "float") return "number";
  return scalar;  // "string", "bool", "null"
}

bool matches(Json want, std::string_view found) {
  switch (want) {
    case Json::kObject:
    case Json::kStringMap:
    case Json::kBytesMap:
      return found == "object";
    case Json::kObjectArray:
    case Json::kStringArray:
      return found == "array";
    case Json::kString:
      return found == "string";
    case Json::kNumber:
    case Json::kInt32:
      return found == "number";
    case Json::kBool:
      return found == "bool";
  }
  return false;
}

std::string_view described(Json want) {
  switch (want) {
    case Json::kObject:
    case Json::kStringMap:
    case Json::kBytesMap:
      return "a mapping";
    case Json::kObjectArray:
      return "a list of mappings";
    case Json::kStringArray:
      return "a list of strings";
    case Json::kString:
      return "a string";
    case Json::kNumber:
    case Json::kInt32:
      return "a number";
    case Json::kBool:
      return "a boolean";
  }
  return "";
}

class Checker {
 public:
  explicit Checker(std::vector<FieldTypeError>& out) : out_(out) {}

  // Walks `path` (the rest of field.path) from `node`, which is at `shown` ("rules[0]"). `shown`
  // is one buffer, extended and cut back at each step: nearly every field is right, and naming
  // each step in a new string cost more than the check.
  void walk(const Field& field, const yaml::Node& node, std::string_view path, std::string& shown) {
    size_t dot = path.find('.');
    std::string_view step = path.substr(0, dot);
    std::string_view rest = dot == std::string_view::npos ? "" : path.substr(dot + 1);
    bool each = step.ends_with("[]");
    if (each) step.remove_suffix(2);
    if (!node.is_mapping()) return;  // a wrong parent is reported by its own row
    yaml::Node child = node.get(step);
    if (!child || child.is_null()) return;  // absent: the field's zero value
    size_t parent = shown.size();
    if (parent != 0) shown += '.';
    shown += step;
    if (!each) {
      if (rest.empty()) {
        check(field, child, shown);
      } else {
        walk(field, child, rest, shown);
      }
    } else if (child.is_sequence()) {  // if not, the list's own row reports it
      size_t list = shown.size();
      for (size_t i = 0; i < child.size(); ++i) {
        fmt::format_to(std::back_inserter(shown), "[{}]", i);
        walk(field, child.item(i), rest, shown);
        shown.resize(list);
      }
    }
    shown.resize(parent);
  }

 private:
  void check(const Field& field, const yaml::Node& value, const std::string& shown) {
    std::string_view found = json_type(value);
    if (!matches(field.want, found)) {
      report(field, value, shown, found, field.go_type, described(field.want));
      return;
    }
    switch (field.want) {
      case Json::kStringArray:
      case Json::kObjectArray:
        check_items(field, value, shown);
        return;
      case Json::kStringMap:
      case Json::kBytesMap:
        check_values(field, value, shown);
        return;
      case Json::kInt32:
        check_int32(field, value, shown);
        return;
      case Json::kString:
        check_allowed(field, value, shown);
        return;
      default:
        return;
    }
  }

  void check_items(const Field& field, const yaml::Node& list, const std::string& shown) {
    std::string_view element = field.go_type.substr(2);  // "[]string" -> "string"
    bool strings = field.want == Json::kStringArray;
    for (size_t i = 0; i < list.size(); ++i) {
      std::string_view item = json_type(list.item(i));
      if (item != (strings ? "string" : "object") && item != "null") {
        report(field, list.item(i), fmt::format("{}[{}]", shown, i), item, element,
               strings ? "a string" : "a mapping");
        return;
      }
      if (strings && item == "string")
        check_allowed(field, list.item(i), fmt::format("{}[{}]", shown, i));
    }
  }

  // Map values: strings (or null, Go's zero value); base64 text for []byte. A key is shown as
  // field.Path shows it ("data[ca.crt]"), never a value.
  void check_values(const Field& field, const yaml::Node& map, const std::string& shown) {
    std::string_view element = field.go_type.substr(field.go_type.find(']') + 1);
    for (size_t i = 0; i < map.size(); ++i) {
      yaml::Node value = map.value(i);
      std::string_view type = json_type(value);
      std::string at = fmt::format("{}[{}]", shown, map.key(i).text());
      if (type != "string" && type != "null") {
        report(field, value, at, type, element, "a string");
        continue;
      }
      if (field.want == Json::kBytesMap && type == "string" && !base64_decode(value.str())) {
        out_.push_back(FieldTypeError{
            value.position(),
            fmt::format("{} is not base64: the API server refuses the whole object (Go's base64 "
                        "decoder: \"illegal base64 data\")",
                        at)});
      }
    }
  }

  void check_int32(const Field& field, const yaml::Node& value, const std::string& shown) {
    std::optional<int64_t> n = kubectl_int(value);
    if (!n || *n < std::numeric_limits<int32_t>::min() ||
        *n > std::numeric_limits<int32_t>::max()) {
      // Go's decoder quotes a number it cannot store, as kubectl sent it.
      auto sent = kubectl_json(value);
      if (!sent) return;  // as in report()
      out_.push_back(FieldTypeError{
          value.position(),
          fmt::format("{} is {}, not a 32-bit integer: the API server refuses the whole object "
                      "(\"json: cannot unmarshal number {} into Go struct field {}.{} of type "
                      "int32\")",
                      shown, *sent, *sent, field.go_struct, go_path(field))});
      return;
    }
    if (!field.range || (*n >= field.range->min && *n <= field.range->max)) return;
    std::string refusal =
        *n == 0 && field.range->zero_is_absent
            ? fmt::format("{}: Required value", shown)
            : fmt::format("{}: Invalid value: {}: {}", shown, *n, field.range->message);
    out_.push_back(FieldTypeError{
        value.position(), fmt::format("{} is {}: the API server refuses the whole object (\"{}\")",
                                      shown, *n, refusal)});
  }

  void check_allowed(const Field& field, const yaml::Node& value, const std::string& shown) {
    std::string_view text = value.str();
    if (field.allowed.empty() ||
        std::find(field.allowed.begin(), field.allowed.end(), text) != field.allowed.end()) {
      return;
    }
    std::vector<std::string> supported;
    for (std::string_view v : field.allowed)
      supported.push_back(go_json_string(v));
    std::string quoted = go_json_string(text);
    out_.push_back(FieldTypeError{
        value.position(),
        fmt::format("{} is {}, which the API server does not support: it refuses the whole object "
                    "(\"{}: Unsupported value: {}: supported values: {}\")",
                    shown, quoted, shown, quoted, fmt::join(supported, ", "))});
  }

  // Go names the field by its JSON path without list indexes.
  static std::string go_path(const Field& field) {
    std::string out;
    for (char c : field.path)
      if (c != '[' && c != ']') out += c;
    return out;
  }

  void report(const Field& field, const yaml::Node& at, const std::string& shown,
              std::string_view found, std::string_view go_type, std::string_view need) {
    // A scalar kubectl cannot encode at all (`!!int abc`) never reaches the decoder: the
    // object-not-encodable check names it.
    if (at.is_scalar() && !kubectl_json(at)) return;
    out_.push_back(FieldTypeError{
        at.position(),
        fmt::format("{} is {} where {} is needed: the API server refuses the whole object "
                    "(\"json: cannot unmarshal {} into Go struct field {}.{} of type {}\")",
                    shown, article(found), need, found, field.go_struct, go_path(field), go_type)});
  }

  static std::string article(std::string_view type) {
    if (type == "object") return "a mapping";
    if (type == "array") return "a list";
    if (type == "bool") return "a boolean";
    return fmt::format("a {}", type);
  }

  std::vector<FieldTypeError>& out_;
};

}  // namespace

std::vector<FieldTypeError> wrong_field_types(const yaml::Node& object) {
  std::vector<FieldTypeError> out;
  std::string_view api_version = object.get("apiVersion").str();
  size_t slash = api_version.find('/');
  std::string_view group = slash == std::string_view::npos ? "" : api_version.substr(0, slash);
  std::string_view kind = object.get("kind").str();
  // Every kind, custom ones included, carries ObjectMeta: a namespace of the wrong type would
  // otherwise be read as none and the object placed in the release namespace.
  static const std::vector<Field> kMetadata = {
      {"metadata.name", Json::kString, "ObjectMeta", "string"},
      {"metadata.namespace", Json::kString, "ObjectMeta", "string"},
      {"metadata.labels", Json::kStringMap, "ObjectMeta", "map[string]string"},
      {"metadata.annotations", Json::kStringMap, "ObjectMeta", "map[string]string"},
  };
  std::string shown;
  Checker metadata(out);
  for (const Field& field : kMetadata)
    metadata.walk(field, object, field.path, shown);
  for (const KindFields& k : table()) {
    if (k.group != group || std::find(k.kinds.begin(), k.kinds.end(), kind) == k.kinds.end())
      continue;
    Checker checker(out);
    for (const Field& field : k.fields)
      checker.walk(field, object, field.path, shown);
  }
  return out;
}

}  // namespace footprint
