#include "load/yaml_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace footprint::yaml {

Value Value::str(std::string text) {
  Value v(Type::kString);
  v.text_ = std::move(text);
  return v;
}

Value Value::plain(std::string text) {
  Value v(Type::kPlain);
  v.text_ = std::move(text);
  return v;
}

Value Value::copy(const Node& node) {
  Value v(Type::kNode);
  v.node_ = node;
  return v;
}

Value Value::editable(const Node& node) {
  if (node.is_mapping()) {
    Value v = map();
    for (size_t i = 0; i < node.size(); ++i)
      v.entries_.emplace_back(std::string(node.key(i).str()), editable(node.value(i)));
    return v;
  }
  if (node.is_sequence()) {
    Value v = seq();
    for (size_t i = 0; i < node.size(); ++i)
      v.items_.push_back(editable(node.item(i)));
    return v;
  }
  return copy(node);
}

Value& Value::set(std::string_view key, Value value) {
  if (Value* existing = find(key)) return *existing = std::move(value);
  entries_.emplace_back(std::string(key), std::move(value));
  return entries_.back().second;
}

Value* Value::find(std::string_view key) {
  for (auto& [k, v] : entries_) {
    if (k == key) return &v;
  }
  return nullptr;
}

const Value* Value::find(std::string_view key) const {
  for (const auto& [k, v] : entries_) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::string_view Value::text_at(std::string_view key) const {
  if (type_ == Type::kNode) return node_.get(key).str();
  const Value* v = find(key);
  if (v == nullptr) return {};
  return v->type_ == Type::kNode ? v->node_.str() : std::string_view(v->text_);
}

Value& Value::push(Value value) {
  items_.push_back(std::move(value));
  return items_.back();
}

namespace {

std::string double_quoted(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else if (c == 0xc2 && i + 1 < text.size() &&
               static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      // C1 controls are not printable YAML characters: escaped as the reader decoded them.
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(text[++i]));
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// A key that reads back as the same string when written plain.
bool plain_key(std::string_view key) {
  if (key.empty()) return false;
  char first = key.front();
  if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z') || first == '_'))
    return false;
  for (char c : key) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '/' || c == '-';
    if (!ok) return false;
  }
  // YAML 1.1 reads these as booleans or null.
  constexpr std::array<std::string_view, 11> kSpecial = {
      "y", "n", "yes", "no", "on", "off", "true", "false", "null", "Null", "NULL"};
  std::string lower(key);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); });
  return std::find(kSpecial.begin(), kSpecial.end(), lower) == kSpecial.end();
}

std::string key_text(std::string_view key) {
  return plain_key(key) ? std::string(key) : double_quoted(key);
}

// A parsed scalar as text that reads back as the same value: plain scalars stay plain (their
// type is decided later, as for any manifest), others become double-quoted strings.
std::string scalar_text(const Node& node) {
  if (node.is_null()) return "null";
  std::string_view text = node.text();
  bool string_tag = node.tag().ends_with(":str");
  bool one_line = text.find('\n') == std::string_view::npos;
  if (node.is_plain() && !string_tag && one_line && !text.empty()) return std::string(text);
  return double_quoted(text);
}

bool is_collection(const Value& v) {
  if (v.type() == Value::Type::kNode) return v.node().is_mapping() || v.node().is_sequence();
  return v.type() == Value::Type::kMap || v.type() == Value::Type::kSeq;
}

class Writer {
 public:
  std::string out;

  // Writes `v` after "key:" or "- " has been written; `indent` is the nesting of its children.
  void value(const Value& v, size_t indent) {
    if (v.type() == Value::Type::kNode && is_collection(v)) {
      value(Value::editable(v.node()), indent);
      return;
    }
    switch (v.type()) {
      case Value::Type::kString:
        out += " " + double_quoted(v.text()) + "\n";
        return;
      case Value::Type::kPlain:
        out += " " + v.text() + "\n";
        return;
      case Value::Type::kNode:
        out += " " + scalar_text(v.node()) + "\n";
        return;
      case Value::Type::kMap:
        if (v.entries().empty()) {
          out += " {}\n";
          return;
        }
        out += "\n";
        mapping(v, indent, false);
        return;
      case Value::Type::kSeq:
        if (v.items().empty()) {
          out += " []\n";
          return;
        }
        out += "\n";
        sequence(v, indent);
        return;
    }
  }

  // `inline_first`: the first key follows a "- " already written.
  void mapping(const Value& v, size_t indent, bool inline_first) {
    bool first = true;
    for (const auto& [key, child] : v.entries()) {
      if (!(first && inline_first)) out += std::string(indent, ' ');
      first = false;
      out += key_text(key) + ":";
      // A sequence under a key is written at the key's indentation, as kubectl does.
      bool seq = is_sequence(child);
      value(child, seq ? indent : indent + 2);
    }
  }

  void sequence(const Value& v, size_t indent) {
    for (const Value& item : v.items()) {
      out += std::string(indent, ' ') + "-";
      Value expanded = item.type() == Value::Type::kNode && is_collection(item)
                           ? Value::editable(item.node())
                           : item;
      if (expanded.type() == Value::Type::kMap && !expanded.entries().empty()) {
        out += " ";
        mapping(expanded, indent + 2, true);
      } else {
        value(expanded, indent + 2);
      }
    }
  }

 private:
  static bool is_sequence(const Value& v) {
    if (v.type() == Value::Type::kNode) return v.node().is_sequence() && v.node().size() > 0;
    return v.type() == Value::Type::kSeq && !v.items().empty();
  }
};

}  // namespace

std::string write(const Value& value) {
  Writer w;
  Value root = value.type() == Value::Type::kNode ? Value::editable(value.node()) : value;
  if (root.type() == Value::Type::kMap && !root.entries().empty()) {
    w.mapping(root, 0, false);
  } else {
    w.value(root, 0);
  }
  return w.out;
}

}  // namespace footprint::yaml
