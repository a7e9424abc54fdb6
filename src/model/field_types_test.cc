// Fields of the wrong type. The API server decodes a request body into the Go types of
// k8s.io/api (rbac/v1, admissionregistration/v1, core/v1 types.go) with encoding/json, whose
// UnmarshalTypeError reads "json: cannot unmarshal <JSON type> into Go struct field
// <struct>.<JSON path> of type <Go type>", and refuses the object whole.
#include "model/field_types.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;

std::vector<FieldTypeError> errors_of(const std::string& yaml) {
  auto docs = yaml::parse(yaml);
  EXPECT_TRUE(docs.has_value());
  if (!docs || docs->empty()) return {};
  return wrong_field_types(docs->front().root);
}

struct MistypedDocument {
  const char* yaml;
  const char* message;  // expected start of the only error
  uint32_t line;
};

TEST(WrongFieldTypes, EachIsNamedWithWhatTheDecoderSays) {
  const MistypedDocument cases[] = {
      // The three examples.
      {"apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r}\n"
       "rules:\n- resources: [secrets]\n  verbs: \"*\"\n",
       "rules[0].verbs is a string where a list of strings is needed: the API server refuses the "
       "whole object (\"json: cannot unmarshal string into Go struct field PolicyRule.rules.verbs "
       "of type []string\")",
       6},
      {"apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n"
       "metadata: {name: w}\nwebhooks:\n- name: a.example.com\n  failurePolicy: 3\n",
       "webhooks[0].failurePolicy is a number where a string is needed: the API server refuses "
       "the whole object (\"json: cannot unmarshal number into Go struct field "
       "ValidatingWebhook.webhooks.failurePolicy of type v1.FailurePolicyType\")",
       6},
      {"apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: b}\n"
       "roleRef: \"x\"\n",
       "roleRef is a string where a mapping is needed: the API server refuses the whole object "
       "(\"json: cannot unmarshal string into Go struct field RoleBinding.roleRef of type "
       "v1.RoleRef\")",
       4},
      // An item of the wrong type names the item, and the item's Go type.
      {"apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r}\n"
       "rules:\n- verbs: [get, 3]\n",
       "rules[0].verbs[1] is a number where a string is needed: the API server refuses the whole "
       "object (\"json: cannot unmarshal number into Go struct field PolicyRule.rules.verbs of "
       "type string\")",
       5},
      {"apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r}\n"
       "rules: [get]\n",
       "rules[0] is a string where a mapping is needed", 4},
      // YAML 1.1 as kubectl reads it: `yes` is a boolean, `8443` a number.
      {"apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\n"
       "metadata: {name: w}\nwebhooks:\n- name: a.example.com\n  clientConfig:\n"
       "    service: {name: s, namespace: ns, port: \"8443\"}\n",
       "webhooks[0].clientConfig.service.port is a string where a number is needed", 7},
      {"apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  ports:\n  - port: 80\n"
       "    name: yes\n",
       "spec.ports[0].name is a boolean where a string is needed", 7},
      // Pod templates: a mapping where the list of containers goes would read as no containers,
      // and a quoted "true" as not privileged.
      {"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n"
       "    spec:\n      containers: {name: a, image: nginx}\n",
       "spec.template.spec.containers is a mapping where a list of mappings is needed: the API "
       "server refuses the whole object (\"json: cannot unmarshal object into Go struct field "
       "PodSpec.spec.template.spec.containers of type []v1.Container\")",
       7},
      {"apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec:\n  jobTemplate:\n"
       "    spec:\n      template:\n        spec:\n          containers:\n"
       "          - {name: a, image: x, securityContext: {privileged: \"true\"}}\n",
       "spec.jobTemplate.spec.template.spec.containers[0].securityContext.privileged is a string "
       "where a boolean is needed: the API server refuses the whole object (\"json: cannot "
       "unmarshal string into Go struct field SecurityContext.spec.jobTemplate.spec.template.spec."
       "containers.securityContext.privileged of type bool\")",
       10},
  };
  for (const MistypedDocument& c : cases) {
    auto errors = errors_of(c.yaml);
    ASSERT_EQ(errors.size(), 1u) << c.yaml << (errors.empty() ? "" : errors.back().message);
    EXPECT_EQ(errors[0].message.rfind(c.message, 0), 0u) << errors[0].message;
    EXPECT_EQ(errors[0].position.line, c.line) << c.yaml;
  }
}

TEST(WrongFieldTypes, RightTypesNullsAndOtherKindsPass) {
  EXPECT_TRUE(errors_of("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\n"
                        "metadata: {name: r}\nrules:\n- apiGroups: [\"\"]\n  resources: [pods]\n"
                        "  verbs: [\"*\"]\n  resourceNames: ~\n")
                  .empty());
  // A kind the table does not list, with the same field names.
  EXPECT_TRUE(
      errors_of("apiVersion: example.com/v1\nkind: Role\nmetadata: {name: r}\nrules: x\n").empty());
}

// ObjectMeta (k8s.io/apimachinery/pkg/apis/meta/v1/types.go: Namespace string `json:"namespace"`)
// is in every object, custom kinds too: a namespace of the wrong type is refused, never read as
// the release namespace.
TEST(WrongFieldTypes, MetadataOfEveryKind) {
  auto errors = errors_of(
      "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n"
      "  namespace: 3\n  labels: [a]\n");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].message,
            "metadata.namespace is a number where a string is needed: the API server refuses the "
            "whole object (\"json: cannot unmarshal number into Go struct field "
            "ObjectMeta.metadata.namespace of type string\")");
  EXPECT_EQ(errors[0].position.line, 5u);
  EXPECT_EQ(errors[1].message.rfind("metadata.labels is a list where a mapping is needed", 0), 0u)
      << errors[1].message;
  EXPECT_TRUE(errors_of("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ops, "
                        "labels: {a: b}, annotations: ~}\n")
                  .empty());
}

// Values of the right JSON type that the API server still refuses: a number Go cannot store in an
// int32 (encoding/json quotes it), a range of validation, an enum (field.NotSupported lists the
// supported values sorted). Webhooks: pkg/apis/admissionregistration/validation/validation.go
// (timeoutSeconds 1 to 30, supportedFailurePolicies, supportedOperations); ports: IsValidPortNum
// in k8s.io/apimachinery/pkg/util/validation/validation.go and validateContainerPorts in
// pkg/apis/core/validation/validation.go (a zero containerPort is "Required value"); replicas:
// ValidateNonnegativeField (k8s.io/apimachinery/pkg/api/validation/generic.go).
TEST(WrongFieldTypes, ValuesTheApiServerRefuses) {
  auto webhook = [](std::string_view line) {
    return fmt::format(
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n"
        "metadata: {{name: w}}\nwebhooks:\n- name: a.example.com\n  {}\n",
        line);
  };
  struct Refused {
    std::string yaml;
    const char* message;  // the whole message
  };
  const Refused refused[] = {
      {webhook("timeoutSeconds: 45"),
       "webhooks[0].timeoutSeconds is 45: the API server refuses the whole object "
       "(\"webhooks[0].timeoutSeconds: Invalid value: 45: the timeout value must be between 1 "
       "and 30 seconds\")"},
      {webhook("timeoutSeconds: -1"),
       "webhooks[0].timeoutSeconds is -1: the API server refuses the whole object "
       "(\"webhooks[0].timeoutSeconds: Invalid value: -1: the timeout value must be between 1 "
       "and 30 seconds\")"},
      {webhook("timeoutSeconds: 3.5"),
       "webhooks[0].timeoutSeconds is 3.5, not a 32-bit integer: the API server refuses the whole "
       "object (\"json: cannot unmarshal number 3.5 into Go struct field "
       "ValidatingWebhook.webhooks.timeoutSeconds of type int32\")"},
      {webhook("timeoutSeconds: 99999999999"),
       "webhooks[0].timeoutSeconds is 99999999999, not a 32-bit integer: the API server refuses "
       "the whole object (\"json: cannot unmarshal number 99999999999 into Go struct field "
       "ValidatingWebhook.webhooks.timeoutSeconds of type int32\")"},
      {webhook("failurePolicy: fail"),
       "webhooks[0].failurePolicy is \"fail\", which the API server does not support: it "
       "refuses the whole object (\"webhooks[0].failurePolicy: Unsupported value: \"fail\": "
       "supported values: \"Fail\", \"Ignore\"\")"},
      {webhook("rules: [{operations: [CREATE, create], apiGroups: [''], apiVersions: [v1], "
               "resources: [pods]}]"),
       "webhooks[0].rules[0].operations[1] is \"create\", which the API server does not "
       "support: it refuses the whole object (\"webhooks[0].rules[0].operations[1]: Unsupported "
       "value: \"create\": supported values: \"*\", \"CONNECT\", \"CREATE\", \"DELETE\", "
       "\"UPDATE\"\")"},
      {webhook("clientConfig: {service: {name: s, namespace: ops, port: 0}}"),
       "webhooks[0].clientConfig.service.port is 0: the API server refuses the whole object "
       "(\"webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be "
       "between 1 and 65535, inclusive\")"},
      {"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: -1\n",
       "spec.replicas is -1: the API server refuses the whole object (\"spec.replicas: Invalid "
       "value: -1: must be greater than or equal to 0\")"},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n"
       "    ports: [{containerPort: 0}, {containerPort: 70000}]\n",
       "spec.containers[0].ports[0].containerPort is 0: the API server refuses the whole object "
       "(\"spec.containers[0].ports[0].containerPort: Required value\")"},
  };
  for (const Refused& r : refused) {
    auto errors = errors_of(r.yaml);
    ASSERT_FALSE(errors.empty()) << r.yaml;
    EXPECT_EQ(errors[0].message, r.message) << r.yaml;
  }
  auto ports = errors_of(refused[8].yaml);
  ASSERT_EQ(ports.size(), 2u);
  EXPECT_EQ(ports[1].message.rfind("spec.containers[0].ports[1].containerPort is 70000: the API "
                                   "server refuses the whole object (\"spec.containers[0].ports["
                                   "1].containerPort: Invalid value: 70000: must be between 1 and "
                                   "65535, inclusive\")",
                                   0),
            0u)
      << ports[1].message;
  // In range, YAML 1.1 as kubectl reads it (0x10 is 16), and an integral float (kubectl sends 3).
  for (std::string_view line :
       {"timeoutSeconds: 30", "timeoutSeconds: 1", "timeoutSeconds: 0x10", "timeoutSeconds: 3.0",
        "failurePolicy: Ignore", "rules: [{operations: ['*'], scope: Namespaced}]"}) {
    EXPECT_TRUE(errors_of(webhook(line)).empty()) << line;
  }
}

// The most common Helm mistakes in pod templates, ConfigMaps and Secrets: a number or boolean
// where core/v1 types.go has a string (EnvVar.Value, Container.Args, map[string]string labels,
// annotations and data), a string where it has an int32, and Secret data that is not base64
// (map[string][]byte: encoding/json decodes base64).
TEST(WrongFieldTypes, PodTemplatesConfigMapsAndSecrets) {
  const MistypedDocument cases[] = {
      {"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n"
       "    spec:\n      containers:\n      - name: a\n        env: [{name: PORT, value: 8080}]\n",
       "spec.template.spec.containers[0].env[0].value is a number where a string is needed: the "
       "API "
       "server refuses the whole object (\"json: cannot unmarshal number into Go struct field "
       "EnvVar.spec.template.spec.containers.env.value of type string\")",
       9},
      {"apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec:\n  template:\n"
       "    spec:\n      initContainers:\n      - name: a\n        args: [--port, 8080]\n",
       "spec.template.spec.initContainers[0].args[1] is a number where a string is needed: the API "
       "server refuses the whole object (\"json: cannot unmarshal number into Go struct field "
       "Container.spec.template.spec.initContainers.args of type string\")",
       9},
      {"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: \"2\"\n",
       "spec.replicas is a string where a number is needed: the API server refuses the whole "
       "object "
       "(\"json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type "
       "int32\")",
       5},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n"
       "    ports: [{containerPort: \"80\"}]\n",
       "spec.containers[0].ports[0].containerPort is a string where a number is needed", 7},
      {"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n  labels: {version: 1.0}\n",
       "metadata.labels[version] is a number where a string is needed: the API server refuses the "
       "whole object (\"json: cannot unmarshal number into Go struct field "
       "ObjectMeta.metadata.labels of type string\")",
       5},
      {"apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template:\n"
       "    metadata:\n      annotations: {enabled: true}\n",
       "spec.template.metadata.annotations[enabled] is a boolean where a string is needed: the API "
       "server refuses the whole object (\"json: cannot unmarshal bool into Go struct field "
       "ObjectMeta.spec.template.metadata.annotations of type string\")",
       7},
      {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {x: 1}\n",
       "data[x] is a number where a string is needed: the API server refuses the whole object "
       "(\"json: cannot unmarshal number into Go struct field ConfigMap.data of type string\")",
       4},
      {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {x: [1]}\n",
       "data[x] is a list where a string is needed", 4},
      {"apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {p: [x]}\n",
       "stringData[p] is a list where a string is needed: the API server refuses the whole object "
       "(\"json: cannot unmarshal array into Go struct field Secret.stringData of type string\")",
       4},
      {"apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {x: \"not base64\"}\n",
       "data[x] is not base64: the API server refuses the whole object (Go's base64 decoder: "
       "\"illegal base64 data\")",
       4},
      {"apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {x: 3}\n",
       "data[x] is a number where a string is needed: the API server refuses the whole object "
       "(\"json: cannot unmarshal number into Go struct field Secret.data of type []uint8\")",
       4},
  };
  for (const MistypedDocument& c : cases) {
    auto errors = errors_of(c.yaml);
    ASSERT_EQ(errors.size(), 1u) << c.yaml << (errors.empty() ? "" : errors.back().message);
    EXPECT_EQ(errors[0].message.rfind(c.message, 0), 0u) << errors[0].message;
    EXPECT_EQ(errors[0].position.line, c.line) << c.yaml;
  }
  EXPECT_TRUE(errors_of("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n"
                        "data: {x: aGk=, y: ~, z: \"\"}\nstringData: {p: \"8080\"}\n")
                  .empty());
  EXPECT_TRUE(errors_of("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"
                        "  labels: {version: \"1.0\"}\ndata: {x: \"1\", y: ~}\n")
                  .empty());
}

TEST(WrongFieldTypes, TheObjectBecomesAnInvalidDocument) {
  Bundle b = bundle_from(
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n---\n"
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: b}\n"
      "roleRef: x\n");
  ASSERT_EQ(b.objects.size(), 1u);
  EXPECT_EQ(b.objects[0].kind, "ConfigMap");
  ASSERT_EQ(b.input.invalid_documents.size(), 1u);
  EXPECT_EQ(
      b.input.invalid_documents[0].to_string().rfind("test.yaml:8:10: roleRef is a string", 0), 0u)
      << b.input.invalid_documents[0].to_string();
}

}  // namespace
}  // namespace footprint
