// A small editable value tree and a block-YAML writer, for inputs footprint renders itself (OLM
// bundles): objects are built from parts of parsed documents, edited, and written as YAML that the
// loader then reads like any manifest.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "load/yaml.h"

namespace footprint::yaml {

class Value {
 public:
  enum class Type : uint8_t { kMap, kSeq, kString, kPlain, kNode };

  static Value map() { return Value(Type::kMap); }
  static Value seq() { return Value(Type::kSeq); }
  // A string, always written quoted: it never turns into a number or a boolean.
  static Value str(std::string text);
  // Written as is: numbers, booleans, null.
  static Value plain(std::string text);
  // A parsed subtree, written as it was read (scalars keep their plain or quoted nature).
  static Value copy(const Node& node);
  // A parsed subtree turned into values all the way down, so it can be edited.
  static Value editable(const Node& node);

  Type type() const { return type_; }
  const std::string& text() const { return text_; }
  const Node& node() const { return node_; }

  // Maps: the value under `key`, replaced if present, else added at the end.
  Value& set(std::string_view key, Value value);
  // Maps: the value under `key`, or nullptr.
  Value* find(std::string_view key);
  const Value* find(std::string_view key) const;
  // Maps: the scalar text under `key`, "" when absent or not a scalar.
  std::string_view text_at(std::string_view key) const;
  const std::vector<std::pair<std::string, Value>>& entries() const { return entries_; }
  // Sequences.
  Value& push(Value value);
  const std::vector<Value>& items() const { return items_; }
  std::vector<Value>& items() { return items_; }
  bool empty() const { return entries_.empty() && items_.empty(); }

 private:
  explicit Value(Type type) : type_(type) {}
  Type type_;
  std::string text_;
  Node node_;
  std::vector<std::pair<std::string, Value>> entries_;
  std::vector<Value> items_;
};

// The value as a block-YAML document, ending in a newline.
std::string write(const Value& value);

}  // namespace footprint::yaml
