// The types of the fields footprint's checks read, as the API server's decoder requires them.
// A field of another type (`verbs: "*"` where a list is needed, `failurePolicy: 3`) makes the
// API server refuse the whole object, so such an object is an invalid document: judging it as
// if the field were absent would report the wrong thing.
#pragma once

#include <string>
#include <vector>

#include "load/loader.h"

namespace footprint {

struct FieldTypeError {
  yaml::Position position;
  std::string message;  // names the field and quotes the decoder's error; never the value
};

// The fields of `object` (a whole manifest) that are of the wrong type, in the order of the
// table of field types; empty for kinds the table does not list.
std::vector<FieldTypeError> wrong_field_types(const yaml::Node& object);

}  // namespace footprint
