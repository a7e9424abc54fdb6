#include "model/field_types.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "model/kubectl_json.h"

namespace footprint {

namespace {

// What a field must be in JSON; the arrays also say what their items must be.
enum class Json : uint8_t { kObject, kObjectArray, kStringArray, kString, kNumber, kBool };

// One field: its path from the object's root ("[]" steps into every item of a list), the JSON
// type the Go struct needs, and the names Go's encoding/json puts in its error ("json: cannot
// unmarshal string into Go struct field PolicyRule.rules.verbs of type []string"): the struct
// that holds the field and the field's Go type.
struct Field {
  std::string path;
  Json want;
  std::string_view go_struct;
  std::string_view go_type;
};

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
      {"webhooks[].failurePolicy", Json::kString, webhook, "v1.FailurePolicyType"},
      {"webhooks[].matchPolicy", Json::kString, webhook, "v1.MatchPolicyType"},
      {"webhooks[].sideEffects", Json::kString, webhook, "v1.SideEffectClass"},
      {"webhooks[].timeoutSeconds", Json::kNumber, webhook, "int32"},
      {"webhooks[].namespaceSelector", Json::kObject, webhook, "v1.LabelSelector"},
      {"webhooks[].objectSelector", Json::kObject, webhook, "v1.LabelSelector"},
      {"webhooks[].admissionReviewVersions", Json::kStringArray, webhook, "[]string"},
      {"webhooks[].clientConfig", Json::kObject, webhook, "v1.WebhookClientConfig"},
      {"webhooks[].clientConfig.url", Json::kString, "WebhookClientConfig", "string"},
      {"webhooks[].clientConfig.service", Json::kObject, "WebhookClientConfig",
       "v1.ServiceReference"},
      {"webhooks[].clientConfig.service.name", Json::kString, "ServiceReference", "string"},
      {"webhooks[].clientConfig.service.namespace", Json::kString, "ServiceReference", "string"},
      {"webhooks[].clientConfig.service.port", Json::kNumber, "ServiceReference", "int32"},
      {"webhooks[].rules", Json::kObjectArray, webhook, "[]v1.RuleWithOperations"},
      {"webhooks[].rules[].operations", Json::kStringArray, "RuleWithOperations",
       "[]v1.OperationType"},
      {"webhooks[].rules[].apiGroups", Json::kStringArray, "RuleWithOperations", "[]string"},
      {"webhooks[].rules[].apiVersions", Json::kStringArray, "RuleWithOperations", "[]string"},
      {"webhooks[].rules[].resources", Json::kStringArray, "RuleWithOperations", "[]string"},
      {"webhooks[].rules[].scope", Json::kString, "RuleWithOperations", "v1.ScopeType"},
  };
  if (mutating) {
    out.push_back(
        {"webhooks[].reinvocationPolicy", Json::kString, webhook, "v1.ReinvocationPolicyType"});
  }
  return out;
}

// A workload's pod spec at `prefix` ("spec.template.spec"): the fields the workload, pod security
// and service account checks read.
void add_pod_spec(std::vector<Field>& out, const std::string& prefix) {
  auto at = [&](std::string_view rest) { return fmt::format("{}.{}", prefix, rest); };
  std::vector<Field> fields = {
      {at("containers"), Json::kObjectArray, "PodSpec", "[]v1.Container"},
      {at("initContainers"), Json::kObjectArray, "PodSpec", "[]v1.Container"},
      {at("containers[].name"), Json::kString, "Container", "string"},
      {at("containers[].securityContext"), Json::kObject, "Container", "v1.SecurityContext"},
      {at("containers[].securityContext.privileged"), Json::kBool, "SecurityContext", "bool"},
      {at("serviceAccountName"), Json::kString, "PodSpec", "string"},
      {at("hostNetwork"), Json::kBool, "PodSpec", "bool"},
      {at("hostPID"), Json::kBool, "PodSpec", "bool"},
      {at("hostIPC"), Json::kBool, "PodSpec", "bool"},
      {at("nodeSelector"), Json::kObject, "PodSpec", "map[string]string"},
      {at("tolerations"), Json::kObjectArray, "PodSpec", "[]v1.Toleration"},
      {at("securityContext"), Json::kObject, "PodSpec", "v1.PodSecurityContext"},
  };
  out.insert(out.end(), fields.begin(), fields.end());
}

// A workload whose spec holds a pod template: `kind` with its spec of Go type `spec_type`.
std::vector<Field> workload_fields(std::string_view kind, std::string_view spec_struct,
                                   std::string_view spec_type) {
  std::vector<Field> out = {
      {"spec", Json::kObject, kind, spec_type},
      {"spec.template", Json::kObject, spec_struct, "v1.PodTemplateSpec"},
      {"spec.template.spec", Json::kObject, "PodTemplateSpec", "v1.PodSpec"},
  };
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
  add_pod_spec(out, "spec.jobTemplate.spec.template.spec");
  return out;
}

std::vector<Field> pod_fields() {
  std::vector<Field> out = {{"spec", Json::kObject, "Pod", "v1.PodSpec"}};
  add_pod_spec(out, "spec");
  return out;
}

// The kinds whose fields the RBAC, webhook, workload and Service checks read (k8s.io/api: rbac/v1,
// admissionregistration/v1, apps/v1, batch/v1 and core/v1 types.go).
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
       workload_fields("Deployment", "DeploymentSpec", "v1.DeploymentSpec")},
      {"apps",
       {"StatefulSet"},
       workload_fields("StatefulSet", "StatefulSetSpec", "v1.StatefulSetSpec")},
      {"apps", {"DaemonSet"}, workload_fields("DaemonSet", "DaemonSetSpec", "v1.DaemonSetSpec")},
      {"apps",
       {"ReplicaSet"},
       workload_fields("ReplicaSet", "ReplicaSetSpec", "v1.ReplicaSetSpec")},
      {"batch", {"Job"}, workload_fields("Job", "JobSpec", "v1.JobSpec")},
      {"batch", {"CronJob"}, cron_job_fields()},
      {"", {"Pod"}, pod_fields()},
      {"",
       {"Service"},
       {
           {"spec", Json::kObject, "Service", "v1.ServiceSpec"},
           {"spec.ports", Json::kObjectArray, "ServiceSpec", "[]v1.ServicePort"},
           {"spec.ports[].port", Json::kNumber, "ServicePort", "int32"},
           {"spec.ports[].name", Json::kString, "ServicePort", "string"},
           {"spec.selector", Json::kObject, "ServiceSpec", "map[string]string"},
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
      return found == "object";
    case Json::kObjectArray:
    case Json::kStringArray:
      return found == "array";
    case Json::kString:
      return found == "string";
    case Json::kNumber:
      return found == "number";
    case Json::kBool:
      return found == "bool";
  }
  return false;
}

std::string_view described(Json want) {
  switch (want) {
    case Json::kObject:
      return "a mapping";
    case Json::kObjectArray:
      return "a list of mappings";
    case Json::kStringArray:
      return "a list of strings";
    case Json::kString:
      return "a string";
    case Json::kNumber:
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
      report(field, value, shown, found, field.go_type);
      return;
    }
    if (field.want != Json::kStringArray && field.want != Json::kObjectArray) return;
    std::string_view element = field.go_type.substr(2);  // "[]string" -> "string"
    std::string_view want = field.want == Json::kStringArray ? "string" : "object";
    for (size_t i = 0; i < value.size(); ++i) {
      std::string_view item = json_type(value.item(i));
      if (item != want && item != "null") {
        report(field, value.item(i), fmt::format("{}[{}]", shown, i), item, element);
        return;
      }
    }
  }

  void report(const Field& field, const yaml::Node& at, const std::string& shown,
              std::string_view found, std::string_view go_type) {
    // Go names the field by its JSON path without list indexes.
    std::string go_path;
    for (char c : field.path)
      if (c != '[' && c != ']') go_path += c;
    std::string_view need = go_type == field.go_type           ? described(field.want)
                            : field.want == Json::kStringArray ? "a string"
                                                               : "a mapping";
    out_.push_back(FieldTypeError{
        at.position(),
        fmt::format("{} is {} where {} is needed: the API server refuses the whole object "
                    "(\"json: cannot unmarshal {} into Go struct field {}.{} of type {}\")",
                    shown, article(found), need, found, field.go_struct, go_path, go_type)});
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
      {"metadata.labels", Json::kObject, "ObjectMeta", "map[string]string"},
      {"metadata.annotations", Json::kObject, "ObjectMeta", "map[string]string"},
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
