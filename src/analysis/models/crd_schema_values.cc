#include "analysis/models/crd_schema_values.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "model/kubectl_json.h"

namespace footprint {

std::string_view json_type_name(JsonType type) {
  switch (type) {
    case JsonType::kNull:
      return "null";
    case JsonType::kBool:
      return "boolean";
    case JsonType::kInteger:
      return "integer";
    case JsonType::kNumber:
      return "number";
    case JsonType::kString:
      return "string";
    case JsonType::kArray:
      return "array";
    case JsonType::kObject:
      return "object";
  }
  return "null";
}

Decoded decode(const yaml::Node& node) {
  Decoded d;
  d.node = node;
  if (!node) return d;
  if (node.is_mapping()) {
    d.type = JsonType::kObject;
    return d;
  }
  if (node.is_sequence()) {
    d.type = JsonType::kArray;
    return d;
  }
  std::string_view type = kubectl_scalar_type(node);
  if (type == "null") return d;
  if (type == "bool") {
    d.type = JsonType::kBool;
    d.boolean = kubectl_bool(node).value_or(false);
  } else if (type == "int" || type == "float") {
    if (std::optional<int64_t> i = kubectl_int(node)) {
      d.type = JsonType::kInteger;
      d.integer = *i;
      d.number = static_cast<double>(*i);
    } else {
      d.type = JsonType::kNumber;
      d.number = kubectl_float(node).value_or(0);
    }
  } else {
    d.type = JsonType::kString;
    d.text = node.str();
  }
  return d;
}

std::string Decoded::json() const {
  auto text = kubectl_json(node);
  return text ? *text : std::string();
}

std::string Decoded::shown() const {
  switch (type) {
    case JsonType::kNull:
      return "null";
    case JsonType::kBool:
      return boolean ? "true" : "false";
    case JsonType::kInteger:
      return fmt::format("{}", integer);
    case JsonType::kNumber:
      return go_float(number);
    case JsonType::kString:
      return go_quote(text);
    case JsonType::kArray:
    case JsonType::kObject:
      return json();
  }
  return {};
}

std::string Decoded::identity() const {
  switch (type) {
    case JsonType::kString:
      return fmt::format("s{}", text);
    case JsonType::kArray:
    case JsonType::kObject:
      return fmt::format("j{}", json());
    default:
      return fmt::format("{}{}", static_cast<int>(type), shown());
  }
}

bool Decoded::same_number(const Decoded& value) const {
  bool numbers = (type == JsonType::kInteger || type == JsonType::kNumber) &&
                 (value.type == JsonType::kInteger || value.type == JsonType::kNumber);
  if (!numbers) return false;
  // reflect's Convert of a float64 to int64 truncates.
  if (value.type == JsonType::kInteger) return std::trunc(number) == value.number;
  return number == value.number;
}

std::string go_float(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  std::string_view scientific(buf, static_cast<size_t>(end - buf));
  std::string_view exponent_text = scientific.substr(scientific.find('e') + 1);
  if (exponent_text.starts_with('+')) exponent_text.remove_prefix(1);  // from_chars takes no '+'
  int exponent = 0;
  std::from_chars(exponent_text.data(), exponent_text.data() + exponent_text.size(), exponent);
  if (value != 0 && (exponent < -4 || exponent >= 6)) return std::string(scientific);
  auto [fixed_end, fixed_ec] =
      std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
  return std::string(buf, fixed_end);
}

int64_t utf8_length(std::string_view text) {
  int64_t runes = 0;
  for (char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++runes;
  }
  return runes;
}

}  // namespace footprint
