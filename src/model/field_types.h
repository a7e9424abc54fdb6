// The types of the fields footprint's checks read, as the API server's decoder requires them, and
// the ranges and enums its validation holds them to. A field of another type (`verbs: "*"` where
// a list is needed, `failurePolicy: 3`) or value (`timeoutSeconds: 45`, `failurePolicy: fail`)
// makes the API server refuse the whole object, so such an object is an invalid document:
// judging it as if the field were absent, or valid, would report the wrong thing.
#pragma once

#include <string>
#include <vector>

#include "load/loader.h"

namespace footprint {

struct FieldTypeError {
  yaml::Position position;
  // Names the field and quotes the decoder's or validation's error; never a string value (a
  // number or an enum value may be quoted, as the API server does).
  std::string message;
};

// The fields of `object` (a whole manifest) of the wrong type or a refused value, in the order of
// the table of field types; empty for kinds the table does not list.
std::vector<FieldTypeError> wrong_field_types(const yaml::Node& object);

}  // namespace footprint
