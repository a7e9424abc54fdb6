// Values of a custom resource as the API server decodes them (kubectl's JSON, read by Go's
// encoding/json into interface{}), and printed as its field errors print them (Go's %q and %v).
// For crd_schema.cc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "load/yaml.h"
#include "util/strings.h"

namespace footprint {

enum class JsonType : uint8_t { kNull, kBool, kInteger, kNumber, kString, kArray, kObject };

// "null", "boolean", "integer", "number", "string", "array", "object": kube-openapi's names.
std::string_view json_type_name(JsonType type);

struct Decoded {
  JsonType type = JsonType::kNull;
  yaml::Node node;
  std::string_view text;  // kString
  bool boolean = false;
  int64_t integer = 0;
  double number = 0;  // kInteger and kNumber

  // As field.Error prints a bad value: 11, "turbo", true; arrays and objects as JSON.
  std::string shown() const;
  // Equal for the values Go's == finds equal once decoded (1 and 1.5 are an int64 and a float64).
  std::string identity() const;
  std::string json() const;
  // kube-openapi's enum comparison converts the enum's number to the value's type.
  bool same_number(const Decoded& value) const;
};

// An absent node decodes as null. kubectl turns an integral float into an integer.
Decoded decode(const yaml::Node& node);

// Go's %v of a float64: strconv's shortest %g, with an exponent from 1e+06 and below 1e-4.
std::string go_float(double value);
// Runes, as Go's utf8.RuneCountInString counts them.
int64_t utf8_length(std::string_view text);

}  // namespace footprint
