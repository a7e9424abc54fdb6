// Each expectation follows the API server's code, named at each test:
// apiextensions-apiserver/pkg/apiserver/validation/validation.go (kubeOpenAPIResultToFieldErrors:
// which field.Error each kube-openapi error becomes), kube-openapi pkg/validation/validate and
// errors/schema.go (the detail texts), apimachinery util/validation/field/errors.go (how a field
// error prints its value), and apiextensions-apiserver/pkg/apiserver/schema/{listtype,objectmeta}.
#include "analysis/models/crd_schema.h"

#include <gtest/gtest.h>

#include "analysis/models/crd_schema_values.h"

namespace footprint {
namespace {

struct Validated {
  std::vector<yaml::Document> docs;
  SchemaValidation result;
  std::vector<std::string> errors() const {
    std::vector<std::string> out;
    for (const SchemaViolation& v : result.violations)
      out.push_back(v.error);
    return out;
  }
};

// `schema` is an openAPIV3Schema; `object` a custom resource.
Validated validate(std::string_view schema, std::string_view object,
                   bool status_subresource = false) {
  Validated run;
  std::string text = std::string(schema) + "\n---\n" + std::string(object);
  auto docs = yaml::parse(text);
  EXPECT_TRUE(docs.has_value());
  run.docs = std::move(*docs);
  SchemaValidator validator;
  run.result = validator.validate(run.docs[0].root, run.docs[1].root, status_subresource);
  return run;
}

constexpr std::string_view kSpec = R"(type: object
properties:
  spec:
    type: object
    required: [mode]
    properties:
      replicas: {type: integer, format: int32, minimum: 1, maximum: 10}
      ratio: {type: number, exclusiveMaximum: true, maximum: 1}
      mode: {type: string, enum: [fast, safe]}
      name: {type: string, minLength: 3, maxLength: 5, pattern: '^[a-z]+$'}
      id: {type: string, format: uuid}
      port: {x-kubernetes-int-or-string: true}
      tags: {type: array, items: {type: string}, minItems: 1, maxItems: 2}
      labels: {type: object, additionalProperties: {type: string}, maxProperties: 1}
      level: {type: string, default: low}
      note: {type: string, nullable: true}
)";

TEST(CrdSchema, ValidObjectHasNoViolation) {
  Validated run = validate(kSpec, R"(apiVersion: x.io/v1
kind: Thing
metadata: {name: a}
spec:
  replicas: 3
  ratio: 0.5
  mode: fast
  name: abc
  id: 123e4567-e89b-12d3-a456-426614174000
  port: http
  tags: [a]
  labels: {a: b}
  note: null
)");
  EXPECT_TRUE(run.result.violations.empty()) << ::testing::PrintToString(run.errors());
}

// numberValidator's bounds (ExceedsMaximumInt, ExceedsMinimum with exclusive), then the default
// case of kubeOpenAPIResultToFieldErrors: field.Invalid(path, value, "<path> in body ...").
TEST(CrdSchema, NumberBounds) {
  Validated run = validate(kSpec, "spec: {mode: fast, replicas: 11, ratio: 1}");
  EXPECT_EQ(run.errors(),
            (std::vector<std::string>{
                "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or "
                "equal to 10",
                "spec.ratio: Invalid value: 1: spec.ratio in body should be less than 1",
            }));
  ASSERT_EQ(run.result.violations.size(), 2u);
  EXPECT_EQ(run.result.violations[0].path, "spec.replicas");
  EXPECT_EQ(run.result.violations[0].value, "11");
  // The object follows the schema's 16 lines and the separator.
  EXPECT_EQ(run.result.violations[0].at.position().line, 19u);
  EXPECT_EQ(run.result.violations[0].at.position().column, 30u);
}

// typeValidator's InvalidType(path, "body", type, <the value's JSON type>) becomes
// field.TypeInvalid, printed "Invalid value: <quoted type>: <detail>"; format int32 bounds
// nothing (type.go accepts any integer for it). kubectl reads `3.0` as the integer 3.
TEST(CrdSchema, TypeAndIntegerFormat) {
  Validated run = validate(kSpec, "spec: {mode: fast, replicas: \"3\"}");
  EXPECT_EQ(run.errors(), (std::vector<std::string>{
                              "spec.replicas: Invalid value: \"string\": spec.replicas in body "
                              "must be of type integer: \"string\""}));
  EXPECT_TRUE(validate(kSpec, "spec: {mode: fast, replicas: 3.0}").result.violations.empty());
  EXPECT_TRUE(validate("properties: {n: {type: integer, format: int32}}", "n: 99999999999")
                  .result.violations.empty());
  // x-kubernetes-int-or-string: ConvertJSONSchemaPropsWithPostProcess sets type [integer, string].
  EXPECT_EQ(validate(kSpec, "spec: {mode: fast, port: true}").errors(),
            (std::vector<std::string>{"spec.port: Invalid value: \"boolean\": spec.port in body "
                                      "must be of type integer,string: \"boolean\""}));
}

// EnumFailCode becomes field.NotSupported(path, value, the enum's values quoted).
TEST(CrdSchema, Enum) {
  EXPECT_EQ(validate(kSpec, "spec: {mode: turbo}").errors(),
            (std::vector<std::string>{
                "spec.mode: Unsupported value: \"turbo\": supported values: \"fast\", \"safe\""}));
  // The enum's number is converted to the value's type before comparing (commonValidator).
  EXPECT_TRUE(validate("properties: {n: {type: integer, enum: [1.0, 2]}}", "n: 1")
                  .result.violations.empty());
}

// objectValidator's Required(path.k) becomes field.Required: "Required value". Defaulting runs
// first, so a required field with a default is never missing; a null where the schema is not
// nullable is pruned (structural pruning of nulls), so it is missing.
TEST(CrdSchema, RequiredDefaultsAndNulls) {
  EXPECT_EQ(validate(kSpec, "spec: {replicas: 2}").errors(),
            (std::vector<std::string>{"spec.mode: Required value"}));
  EXPECT_EQ(validate(kSpec, "spec: {mode: null}").errors(),
            (std::vector<std::string>{"spec.mode: Required value"}));
  std::string_view defaulted =
      "properties: {spec: {type: object, required: [level], properties: "
      "{level: {type: string, default: low}}}}";
  EXPECT_TRUE(validate(defaulted, "spec: {}").result.violations.empty());
  EXPECT_TRUE(
      validate(kSpec, "spec: {mode: fast, replicas: null, note: null}").result.violations.empty());
}

// TooShort and FailedPattern take the default case (field.Invalid); TooLong becomes
// field.TooLongMaxLength, whose message leaves the value out. Lengths count runes.
TEST(CrdSchema, Strings) {
  EXPECT_EQ(validate(kSpec, "spec: {mode: fast, name: ab}").errors(),
            (std::vector<std::string>{
                "spec.name: Invalid value: \"ab\": spec.name in body should be at least 3 chars "
                "long"}));
  EXPECT_EQ(validate(kSpec, "spec: {mode: fast, name: abcdef}").errors(),
            (std::vector<std::string>{"spec.name: Too long: may not be longer than 5"}));
  EXPECT_EQ(validate(kSpec, "spec: {mode: fast, name: abC}").errors(),
            (std::vector<std::string>{
                "spec.name: Invalid value: \"abC\": spec.name in body should match '^[a-z]+$'"}));
  EXPECT_TRUE(validate(kSpec, "spec: {mode: fast, name: \"\xc3\xa9t\xc3\xa9\"}").errors().size() ==
              1);  // three runes: long enough, but not [a-z]
  // strfmt's uuid: a failed format is InvalidType(path, "body", format, value).
  EXPECT_EQ(validate(kSpec, "spec: {mode: fast, id: nope}").errors(),
            (std::vector<std::string>{
                "spec.id: Invalid value: \"nope\": spec.id in body must be of type uuid: "
                "\"nope\""}));
  // date-time is checked under the name the schema writes (errors.InvalidType prints it).
  EXPECT_EQ(validate("properties: {x: {type: string, format: date-time}}", "x: nope").errors(),
            (std::vector<std::string>{
                "x: Invalid value: \"nope\": x in body must be of type date-time: \"nope\""}));
}

// schemaSliceValidator: items at path[i]; MinItems takes the default case, MaxItems becomes
// field.TooMany(path, actual, max).
TEST(CrdSchema, Arrays) {
  EXPECT_EQ(validate(kSpec, "spec: {mode: fast, tags: []}").errors(),
            (std::vector<std::string>{
                "spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items"}));
  EXPECT_EQ(validate(kSpec, "spec: {mode: fast, tags: [a, 2, c]}").errors(),
            (std::vector<std::string>{"spec.tags[1]: Invalid value: \"integer\": spec.tags[1] in "
                                      "body must be of type string: \"integer\"",
                                      "spec.tags: Too many: 3: must have at most 2 items"}));
}

// objectValidator returns at once on maxProperties (TooManyProperties becomes field.TooMany);
// additionalProperties validates every other key.
TEST(CrdSchema, Maps) {
  EXPECT_EQ(validate(kSpec, "spec: {mode: fast, labels: {a: 1, b: 2}}").errors(),
            (std::vector<std::string>{"spec.labels: Too many: 2: must have at most 1 items"}));
  EXPECT_EQ(validate(kSpec, "spec: {mode: fast, labels: {a: 1}}").errors(),
            (std::vector<std::string>{"spec.labels.a: Invalid value: \"integer\": spec.labels.a "
                                      "in body must be of type string: \"integer\""}));
}

// Pruning: a field no schema declares is dropped unless x-kubernetes-preserve-unknown-fields
// keeps it; the root's apiVersion, kind and metadata are the API server's, and with the status
// subresource a create resets status.
TEST(CrdSchema, UnknownFields) {
  Validated run = validate(kSpec,
                           "apiVersion: x/v1\nkind: T\nmetadata: {}\nspec: {mode: fast, colour: "
                           "red}\nstatus: {x: 1}");
  ASSERT_EQ(run.result.violations.size(), 2u);
  EXPECT_EQ(run.result.violations[0].kind, SchemaViolation::Kind::kUnknownField);
  EXPECT_EQ(run.result.violations[0].error, "unknown field \"spec.colour\"");
  EXPECT_EQ(run.result.violations[1].error, "unknown field \"status\"");
  EXPECT_EQ(validate(kSpec, "spec: {mode: fast}\nstatus: {x: 1}", true).result.violations.size(),
            0u);
  EXPECT_TRUE(validate("properties: {spec: {type: object, x-kubernetes-preserve-unknown-fields: "
                       "true}}",
                       "spec: {anything: 1}")
                  .result.violations.empty());
}

// listtype.validateListSet: the second occurrence of a value is field.Duplicate (a third is not
// reported again); list-type map compares the key fields, printed as Go prints a map (%#v).
TEST(CrdSchema, ListTypes) {
  std::string_view schema = R"(properties:
  hosts: {type: array, x-kubernetes-list-type: set, items: {type: string}}
  ports:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    items: {type: object, properties: {name: {type: string}, port: {type: integer}}})";
  EXPECT_EQ(validate(schema, "hosts: [a, b, a, a]\nports: [{name: a, port: 1}, {name: a, port: 2}]")
                .errors(),
            (std::vector<std::string>{
                "hosts[2]: Duplicate value: \"a\"",
                "ports[1]: Duplicate value: map[string]interface {}{\"name\":\"a\"}"}));
}

// objectmeta.validateEmbeddedResource: apiVersion and kind are required; metadata is kept.
TEST(CrdSchema, EmbeddedResource) {
  std::string_view schema =
      "properties: {template: {type: object, "
      "x-kubernetes-embedded-resource: true, "
      "x-kubernetes-preserve-unknown-fields: true}}";
  EXPECT_EQ(validate(schema, "template: {apiVersion: v1, metadata: {name: a}}").errors(),
            (std::vector<std::string>{"template.kind: Required value"}));
}

// validateEmbeddedResource goes on: apiVersion through ParseGroupVersion ("unexpected
// GroupVersion string"), kind as a DNS-1035 label once lower-cased, and metadata through
// ValidateObjectMeta with ValidatePathSegmentName (a prefix for generateName) and, where a
// namespace is set, ValidateNamespaceName (a DNS-1123 label). Messages: apimachinery's
// util/validation IsDNS1035Label and api/validation/path.
TEST(CrdSchema, EmbeddedResourceTypeAndObjectMeta) {
  std::string_view schema =
      "properties: {template: {type: object, "
      "x-kubernetes-embedded-resource: true, "
      "x-kubernetes-preserve-unknown-fields: true}}";
  EXPECT_TRUE(validate(schema,
                       "template: {apiVersion: apps/v1, kind: DaemonSet, "
                       "metadata: {name: Any.Name_, namespace: team-a}}")
                  .result.violations.empty());
  EXPECT_EQ(
      validate(schema,
               "template: {apiVersion: a/b/c, kind: My_Kind, "
               "metadata: {name: 'x/y', generateName: '..', namespace: Team}}")
          .errors(),
      (std::vector<std::string>{
          R"(template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c)",
          R"(template.kind: Invalid value: "My_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?'))",
          R"(template.metadata.name: Invalid value: "x/y": may not contain '/')",
          R"(template.metadata.namespace: Invalid value: "Team": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'))"}));
}

// x-kubernetes-validations are evaluated on the values present only; we count them.
TEST(CrdSchema, CelRulesCounted) {
  std::string_view schema = R"(properties:
  spec:
    type: object
    x-kubernetes-validations: [{rule: "self.a < 3"}]
    properties:
      a: {type: integer, x-kubernetes-validations: [{rule: "self > 0"}, {rule: "self != 2"}]}
      b: {type: integer, x-kubernetes-validations: [{rule: "self > 0"}]})";
  EXPECT_EQ(validate(schema, "spec: {a: 1}").result.cel_rules, 3u);
}

// The CRD may restrict metadata.name and generateName (apiextensions' validation allows nothing
// else under metadata); validation.go validates the whole object, metadata included.
TEST(CrdSchema, RootMetadataNameRestrictions) {
  std::string_view schema =
      "properties: {metadata: {type: object, properties: {name: {type: string, maxLength: 5}}}}";
  EXPECT_EQ(validate(schema, "metadata: {name: toolong, labels: {a: b}}").errors(),
            (std::vector<std::string>{"metadata.name: Too long: may not be longer than 5"}));
  EXPECT_TRUE(validate(schema, "metadata: {name: ok}").result.violations.empty());
}

// Go's %v of a float64 (strconv 'g', shortest): an exponent from 1e+06.
TEST(CrdSchemaValues, GoFloat) {
  EXPECT_EQ(go_float(0.5), "0.5");
  EXPECT_EQ(go_float(123456), "123456");
  EXPECT_EQ(go_float(1e6), "1e+06");
  EXPECT_EQ(go_float(0.00001), "1e-05");
  EXPECT_EQ(go_quote("a\"b\n"), "\"a\\\"b\\n\"");
}

}  // namespace
}  // namespace footprint
