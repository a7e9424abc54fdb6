// A custom resource checked against the structural schema of its CRD version, as the API server's
// apiextensions-apiserver does on create: nulls of non-nullable fields dropped or defaulted,
// defaults applied, then kube-openapi's schema validation (validate/schema.go and its type,
// object, slice, string and number validators), the list-type checks and the embedded resources'
// apiVersion and kind. Errors read as the API server's field errors. CEL rules are counted, not
// run: no C++ CEL library is packaged.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "load/yaml.h"

namespace footprint {

struct SchemaViolation {
  // kInvalid: the API server refuses the object. kUnknownField: a field the schema does not
  // declare; the API server drops it (pruning), and refuses it only when the request asks for
  // strict field validation, as kubectl apply does by default. kObjectMeta: refused by the
  // metadata validation every object gets (cr_object_meta.h), not by the schema.
  enum class Kind : uint8_t { kInvalid, kUnknownField, kObjectMeta };
  Kind kind = Kind::kInvalid;
  yaml::Node at;      // the field's value, or the object lacking a required field
  std::string path;   // spec.ports[1].name
  std::string value;  // as the API server prints it: 11, "turbo"; empty when none is printed
  // The API server's field error: `spec.replicas: Invalid value: 11: spec.replicas in body
  // should be less than or equal to 10`.
  std::string error;
};

// field.Invalid of a string value: `<path>: Invalid value: "<value>": <message>`.
SchemaViolation invalid_string(SchemaViolation::Kind kind, const yaml::Node& at,
                               std::string_view path, std::string_view value,
                               std::string_view message);

struct SchemaValidation {
  std::vector<SchemaViolation> violations;
  // x-kubernetes-validations rules on values the object has: the API server evaluates them, we
  // do not.
  uint32_t cel_rules = 0;
};

// Compiled patterns, shared by every object validated against the same schemas. Not thread-safe:
// one per thread.
class SchemaValidator {
 public:
  SchemaValidator();
  ~SchemaValidator();
  SchemaValidator(const SchemaValidator&) = delete;
  SchemaValidator& operator=(const SchemaValidator&) = delete;

  // `object` is a whole custom resource; `schema` is its version's openAPIV3Schema. The root's
  // apiVersion, kind and metadata are the API server's, not the schema's, except the
  // restrictions a schema may put on metadata.name and generateName; with the status
  // subresource, a create resets status, so it is not validated either.
  SchemaValidation validate(const yaml::Node& schema, const yaml::Node& object,
                            bool status_subresource);

  struct Patterns;

 private:
  std::unique_ptr<Patterns> patterns_;
};

}  // namespace footprint
