// kubectl reads an input whose first character other than white space is '{' as a stream of JSON
// values, one after another with or without white space between them (apimachinery's
// YAMLOrJSONDecoder hands it to Go's json.Decoder), not as YAML. This finds the values of such a
// stream and refuses what Go's decoder refuses, such as a trailing comma, with its message.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "load/yaml.h"

namespace footprint {

// True when kubectl reads `text` as JSON. A Helm template (`{{`) is left to the YAML reader, whose
// error names it.
bool is_json_stream(std::string_view text);

struct JsonValue {
  uint32_t begin = 0;  // byte range in the text
  uint32_t end = 0;
  yaml::Position position;
};

struct JsonStream {
  std::vector<JsonValue> values;  // the values before any error, in order
  // The first error: Go's decoder stops there, so nothing after it is read.
  std::optional<yaml::Position> error_position;
  uint32_t error_offset = 0;
  std::string error;
};

JsonStream split_json_stream(std::string_view text);

}  // namespace footprint
