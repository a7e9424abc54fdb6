#include "load/json_stream.h"

#include <fmt/format.h>

namespace footprint {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Go's quoteChar (encoding/json/scanner.go): how its messages show the offending byte.
std::string quote_char(char c) {
  if (c == '\'') return "'\\''";
  if (c == '\n') return "'\\n'";
  if (c == '\t') return "'\\t'";
  if (c == '\r') return "'\\r'";
  auto byte = static_cast<unsigned char>(c);
  if (byte < 0x20 || byte >= 0x7f) return fmt::format("'\\x{:02x}'", byte);
  return fmt::format("'{}'", c);
}

// A syntax error: where, and Go's message.
struct Failure {
  size_t at;
  std::string message;
};

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  void skip_space() {
    while (pos_ < text_.size() && is_space(text_[pos_]))
      ++pos_;
  }
  bool done() const { return pos_ >= text_.size(); }
  size_t pos() const { return pos_; }

  // Scans one value from pos_ (not white space): its end, or the first error. Containers are
  // kept on a stack, so that nesting costs no recursion.
  std::optional<Failure> value() {
    std::vector<char> open;
    for (;;) {
      if (auto f = start_value(open)) return f;
      // After a complete value: close containers and move to the next element.
      for (;;) {
        if (open.empty()) return std::nullopt;
        skip_space();
        if (done()) return end_of_input();
        char c = text_[pos_];
        if (open.back() == '{') {
          if (c == '}') {
            open.pop_back();
            ++pos_;
            continue;
          }
          if (c != ',') return invalid(c, "after object key:value pair");
          ++pos_;
          if (auto f = key()) return f;
          break;
        }
        if (c == ']') {
          open.pop_back();
          ++pos_;
          continue;
        }
        if (c != ',') return invalid(c, "after array element");
        ++pos_;
        break;
      }
    }
  }

 private:
  std::optional<Failure> end_of_input() const {
    return Failure{text_.size(), "unexpected end of JSON input"};
  }
  std::optional<Failure> invalid(char c, std::string_view context) const {
    return Failure{pos_, fmt::format("invalid character {} {}", quote_char(c), context)};
  }

  // The start of a value; an empty container is a whole value, a non-empty one is pushed.
  std::optional<Failure> start_value(std::vector<char>& open) {
    for (;;) {
      skip_space();
      if (done()) return end_of_input();
      char c = text_[pos_];
      if (c == '{') {
        ++pos_;
        skip_space();
        if (!done() && text_[pos_] == '}') {
          ++pos_;
          return std::nullopt;
        }
        open.push_back('{');
        if (auto f = key()) return f;
        continue;
      }
      if (c == '[') {
        ++pos_;
        skip_space();
        if (!done() && text_[pos_] == ']') {
          ++pos_;
          return std::nullopt;
        }
        open.push_back('[');
        continue;
      }
      if (c == '"') return string();
      if (c == '-' || is_digit(c)) return number();
      for (std::string_view literal : {"true", "false", "null"}) {
        if (c == literal[0]) return word(literal);
      }
      return invalid(c, "looking for beginning of value");
    }
  }

  // An object key and its colon: "key" :
  std::optional<Failure> key() {
    skip_space();
    if (done()) return end_of_input();
    if (text_[pos_] != '"')
      return invalid(text_[pos_], "looking for beginning of object key string");
    if (auto f = string()) return f;
    skip_space();
    if (done()) return end_of_input();
    if (text_[pos_] != ':') return invalid(text_[pos_], "after object key");
    ++pos_;
    return std::nullopt;
  }

  std::optional<Failure> string() {
    ++pos_;  // the opening quote
    while (!done()) {
      char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return std::nullopt;
      }
      if (static_cast<unsigned char>(c) < 0x20) return invalid(c, "in string literal");
      ++pos_;
      if (c != '\\') continue;
      if (done()) break;
      char escape = text_[pos_];
      if (escape == 'u') {
        for (int i = 0; i < 4; ++i) {
          ++pos_;
          if (done()) return end_of_input();
          if (!is_hex(text_[pos_]))
            return invalid(text_[pos_], "in \\u hexadecimal character escape");
        }
      } else if (std::string_view("\"\\/bfnrt").find(escape) == std::string_view::npos) {
        return invalid(escape, "in string escape code");
      }
      ++pos_;
    }
    return end_of_input();
  }

  std::optional<Failure> number() {
    if (text_[pos_] == '-') {
      ++pos_;
      if (done()) return end_of_input();
      if (!is_digit(text_[pos_])) return invalid(text_[pos_], "in numeric literal");
    }
    if (text_[pos_] == '0') {
      ++pos_;
    } else {
      digits();
    }
    if (!done() && text_[pos_] == '.') {
      ++pos_;
      if (done()) return end_of_input();
      if (!is_digit(text_[pos_]))
        return invalid(text_[pos_], "after decimal point in numeric literal");
      digits();
    }
    if (!done() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (!done() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (done()) return end_of_input();
      if (!is_digit(text_[pos_])) return invalid(text_[pos_], "in exponent of numeric literal");
      digits();
    }
    return std::nullopt;
  }

  void digits() {
    while (!done() && is_digit(text_[pos_]))
      ++pos_;
  }

  std::optional<Failure> word(std::string_view literal) {
    for (size_t i = 0; i < literal.size(); ++i, ++pos_) {
      if (done()) return end_of_input();
      if (text_[pos_] != literal[i]) {
        return invalid(text_[pos_], fmt::format("in literal {} (expecting {})", literal,
                                                quote_char(literal[i])));
      }
    }
    return std::nullopt;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// Line and column (in characters, as the YAML reader counts them) of byte `at`, counting on from
// `from`, which is at `position`.
yaml::Position advance(std::string_view text, size_t from, size_t at, yaml::Position position) {
  for (size_t i = from; i < at && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++position.line;
      position.column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xc0) != 0x80) {
      ++position.column;
    }
  }
  return position;
}

}  // namespace

bool is_json_stream(std::string_view text) {
  size_t first = 0;
  while (first < text.size() && is_space(text[first]))
    ++first;
  return text.substr(first, 1) == "{" && text.substr(first, 2) != "{{";
}

JsonStream split_json_stream(std::string_view text) {
  JsonStream out;
  Scanner scanner(text);
  size_t counted = 0;
  yaml::Position at{1, 1};
  for (;;) {
    scanner.skip_space();
    if (scanner.done()) return out;
    size_t begin = scanner.pos();
    at = advance(text, counted, begin, at);
    counted = begin;
    if (auto failure = scanner.value()) {
      out.error_position = advance(text, counted, failure->at, at);
      out.error_offset = static_cast<uint32_t>(failure->at);
      out.error = std::move(failure->message);
      return out;
    }
    out.values.push_back(
        JsonValue{static_cast<uint32_t>(begin), static_cast<uint32_t>(scanner.pos()), at});
  }
}

}  // namespace footprint
