// Fields of the wrong type. The API server decodes a request body into the Go types of
// k8s.io/api (rbac/v1, admissionregistration/v1, core/v1 types.go) with encoding/json, whose
// UnmarshalTypeError reads "json: cannot unmarshal <JSON type> into Go struct field
// <struct>.<JSON path> of type <Go type>", and refuses the object whole.
#include "model/field_types.h"

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

struct Case {
  const char* yaml;
  const char* message;  // expected start of the only error
  uint32_t line;
};

TEST(WrongFieldTypes, EachIsNamedWithWhatTheDecoderSays) {
  const Case cases[] = {
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
  for (const Case& c : cases) {
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
