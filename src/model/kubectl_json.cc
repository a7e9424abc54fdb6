#include "model/kubectl_json.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "load/base64.h"

namespace footprint {

namespace {

constexpr std::string_view kTagPrefix = "tag:yaml.org,2002:";

// A scalar as go-yaml v2 decodes it into interface{}.
struct Scalar {
  enum class Kind : uint8_t { kNull, kBool, kInt, kUint, kFloat, kString };
  Kind kind = Kind::kString;
  bool boolean = false;
  int64_t integer = 0;
  uint64_t unsigned_integer = 0;  // kUint: above the int64 range
  double real = 0;
  std::string_view text;  // kString
  std::string owned;      // kString from !!binary
};

Scalar make_string(std::string_view text) {
  Scalar s;
  s.text = text;
  return s;
}

Scalar make_bool(bool b) {
  Scalar s;
  s.kind = Scalar::Kind::kBool;
  s.boolean = b;
  return s;
}

Scalar make_float(double d) {
  Scalar s;
  s.kind = Scalar::Kind::kFloat;
  s.real = d;
  return s;
}

enum class IntStatus : uint8_t { kOk, kRange, kSyntax };

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  char lower = static_cast<char>(c | 0x20);
  if (lower >= 'a' && lower <= 'z') return lower - 'a' + 10;
  return 99;
}

// strconv.ParseUint(s, 0, 64): a 0b, 0o or 0x prefix, or a leading 0 for octal.
IntStatus parse_go_uint(std::string_view s, uint64_t& out) {
  if (s.empty()) return IntStatus::kSyntax;
  int base = 10;
  if (s[0] == '0') {
    char prefix = s.size() >= 3 ? static_cast<char>(s[1] | 0x20) : '\0';
    base = prefix == 'b' ? 2 : prefix == 'o' ? 8 : prefix == 'x' ? 16 : 8;
    s.remove_prefix(prefix == 'b' || prefix == 'o' || prefix == 'x' ? 2 : 1);
  }
  uint64_t n = 0;
  for (char c : s) {
    int d = digit_value(c);
    if (d >= base) return IntStatus::kSyntax;
    if (n > (UINT64_MAX - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base)) {
      return IntStatus::kRange;
    }
    n = n * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
  }
  out = n;
  return IntStatus::kOk;
}

// strconv.ParseInt(s, 0, 64).
IntStatus parse_go_int(std::string_view s, int64_t& out) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  uint64_t magnitude = 0;
  IntStatus status = parse_go_uint(s, magnitude);
  if (status != IntStatus::kOk) return status;
  constexpr uint64_t kCutoff = uint64_t{1} << 63;
  if (negative ? magnitude > kCutoff : magnitude >= kCutoff) return IntStatus::kRange;
  out = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  return IntStatus::kOk;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// go-yaml v2's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool yaml_style_float(std::string_view s) {
  size_t i = 0;
  auto digits = [&] {
    size_t start = i;
    while (i < s.size() && is_digit(s[i]))
      ++i;
    return i > start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  } else {
    if (!digits()) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

// strconv.ParseFloat(s, 64) for decimal text; false when it is malformed or overflows (Go then
// returns ErrRange), true with the correctly rounded value (0 on underflow) otherwise.
bool parse_go_float(const std::string& s, double& out) {
  errno = 0;
  char* end = nullptr;
  double value = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return false;
  if (errno == ERANGE && std::isinf(value)) return false;
  out = value;
  return true;
}

// ParseFloat for text that starts with '.': digits, an optional exponent, and underscores only
// between digits (Go's underscoreOK).
bool parse_dot_float(std::string_view s, double& out) {
  std::string plain;
  char previous = '^';
  for (char c : s) {
    if (c == '_') {
      if (!is_digit(previous)) return false;
    } else {
      if (previous == '_' && !is_digit(c)) return false;
      plain += c;
    }
    previous = c;
  }
  if (previous == '_') return false;
  size_t i = 1;
  while (i < plain.size() && is_digit(plain[i]))
    ++i;
  if (i == 1) return false;
  if (i < plain.size() && (plain[i] == 'e' || plain[i] == 'E')) {
    ++i;
    if (i < plain.size() && (plain[i] == '+' || plain[i] == '-')) ++i;
    size_t start = i;
    while (i < plain.size() && is_digit(plain[i]))
      ++i;
    if (i == start) return false;
  }
  return i == plain.size() && parse_go_float(plain, out);
}

// go-yaml v2's resolveMap: the YAML 1.1 words for booleans and null, each in lower case, with a
// capital or in upper case ("yes", "Yes", "YES"; "y", "Y"), and NaN and the infinities.
bool resolve_word(std::string_view s, Scalar& out) {
  if (s.size() > 5) return false;  // the longest words, "false" and "+.inf", have five bytes
  if (s.empty() || s == "~") {
    out = Scalar{};
    out.kind = Scalar::Kind::kNull;
    return true;
  }
  if (s == ".nan" || s == ".NaN" || s == ".NAN") {
    out = make_float(std::nan(""));
    return true;
  }
  std::string_view magnitude = s;
  if (s[0] == '+' || s[0] == '-') magnitude.remove_prefix(1);
  if (magnitude == ".inf" || magnitude == ".Inf" || magnitude == ".INF") {
    out = make_float(s[0] == '-' ? -HUGE_VAL : HUGE_VAL);
    return true;
  }
  // The letters folded to lower case, when their case is one of the three.
  auto is_lower = [](char c) { return c >= 'a' && c <= 'z'; };
  auto is_upper = [](char c) { return c >= 'A' && c <= 'Z'; };
  if (!is_lower(s[0]) && !is_upper(s[0])) return false;
  bool rest_lower = true;
  bool rest_upper = true;
  for (char c : s.substr(1)) {
    rest_lower = rest_lower && is_lower(c);
    rest_upper = rest_upper && is_upper(c);
  }
  if (!rest_lower && !(rest_upper && is_upper(s[0]))) return false;
  std::array<char, 5> buffer{};
  for (size_t i = 0; i < s.size(); ++i)
    buffer[i] = static_cast<char>(s[i] | 0x20);
  std::string_view folded(buffer.data(), s.size());
  static constexpr std::string_view kTrue[] = {"y", "yes", "true", "on"};
  static constexpr std::string_view kFalse[] = {"n", "no", "false", "off"};
  auto in = [&](const auto& list) {
    return std::find(std::begin(list), std::end(list), folded) != std::end(list);
  };
  if (in(kTrue) || in(kFalse)) {
    out = make_bool(in(kTrue));
    return true;
  }
  if (folded == "null") {
    out = Scalar{};
    out.kind = Scalar::Kind::kNull;
    return true;
  }
  return false;
}

// go-yaml v2's resolve() for an untagged plain scalar (resolve.go): the first character picks
// the candidates. Timestamps need no case: decoded into interface{} they stay strings.
// Integers beyond 64 bits are left to the caller through `big`.
// go-yaml v2's resolveTable: plain scalars starting with these may be more than strings.
bool is_hinted(char first) {
  static constexpr auto kHinted = [] {
    std::array<bool, 256> table{};
    for (char c : std::string_view("+-0123456789yYnNtTfFoO~.")) {
      table[static_cast<unsigned char>(c)] = true;
    }
    return table;
  }();
  return kHinted[static_cast<unsigned char>(first)];
}

Scalar resolve_plain(std::string_view s, bool& big) {
  big = false;
  char first = s.empty() ? 'N' : s[0];
  if (!is_hinted(first)) return make_string(s);
  Scalar word;
  if (resolve_word(s, word)) return word;
  if (first == '.') {
    double d = 0;
    return parse_dot_float(s, d) ? make_float(d) : make_string(s);
  }
  if (!is_digit(first) && first != '+' && first != '-') return make_string(s);
  std::string plain;
  plain.reserve(s.size());
  for (char c : s) {
    if (c != '_') plain += c;
  }
  int64_t i = 0;
  if (parse_go_int(plain, i) == IntStatus::kOk) {
    Scalar out;
    out.kind = Scalar::Kind::kInt;
    out.integer = i;
    return out;
  }
  uint64_t u = 0;
  IntStatus unsigned_status = parse_go_uint(plain, u);
  if (unsigned_status == IntStatus::kOk) {
    Scalar out;
    out.kind = Scalar::Kind::kUint;
    out.unsigned_integer = u;
    return out;
  }
  double d = 0;
  if (yaml_style_float(plain) && parse_go_float(plain, d)) return make_float(d);
  // A hex, octal or binary integer past 64 bits becomes a math/big value.
  if (unsigned_status == IntStatus::kRange) big = true;
  return make_string(s);
}

// Go's strconv.FormatFloat(f, 'f' or 'e', -1, 64) as encoding/json picks it: 'e' below 1e-6 and
// from 1e21, with the exponent's leading zero dropped (e-07 becomes e-7).
std::string go_float64(double f) {
  char buf[64];
  double a = std::fabs(f);
  bool exponent = a != 0 && (a < 1e-6 || a >= 1e21);
  auto [end, ec] =
      std::to_chars(buf, buf + sizeof buf, f,
                    exponent ? std::chars_format::scientific : std::chars_format::fixed);
  std::string out(buf, end);
  size_t n = out.size();
  if (exponent && n >= 4 && out[n - 4] == 'e' && out[n - 3] == '-' && out[n - 2] == '0') {
    out.erase(n - 2, 1);
  }
  return out;
}

// strconv.FormatFloat(f, 'g', -1, 32), which sigs.k8s.io/yaml uses for float keys; it rounds to
// float32 first and switches to an exponent from 1e+06.
std::string go_float32_key(double d) {
  if (std::isnan(d)) return ".nan";
  if (std::isinf(d)) return d > 0 ? ".inf" : "-.inf";
  float f = static_cast<float>(d);
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<size_t>(end - buf));
  std::string_view exponent_text = sci.substr(sci.find('e') + 1);
  if (exponent_text.front() == '+') exponent_text.remove_prefix(1);  // from_chars takes no '+'
  int exponent = 0;
  std::from_chars(exponent_text.data(), exponent_text.data() + exponent_text.size(), exponent);
  if (exponent < -4 || exponent >= 6) return std::string(sci);
  auto [fixed_end, fixed_ec] = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::fixed);
  return std::string(buf, fixed_end);
}

// The length of a valid UTF-8 sequence at s[i] by Go's utf8.DecodeRune rules, or 0.
size_t utf8_sequence(std::string_view s, size_t i) {
  auto byte = [&](size_t k) -> unsigned {
    return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u;
  };
  auto cont = [&](size_t k) { return (byte(k) & 0xC0) == 0x80; };
  unsigned b0 = byte(0);
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    unsigned lo = b0 == 0xE0 ? 0xA0 : 0x80;
    unsigned hi = b0 == 0xED ? 0x9F : 0xBF;
    return byte(1) >= lo && byte(1) <= hi && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    unsigned lo = b0 == 0xF0 ? 0x90 : 0x80;
    unsigned hi = b0 == 0xF4 ? 0x8F : 0xBF;
    return byte(1) >= lo && byte(1) <= hi && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

struct TextSink {
  static constexpr bool kWrites = true;
  std::string out;
  void put(std::string_view s) { out.append(s); }
  void put(char c) { out += c; }
};

struct CountSink {
  static constexpr bool kWrites = false;
  uint64_t bytes = 0;
  void put(std::string_view s) { bytes += s.size(); }
  void put(char) { ++bytes; }
};

// Whether any of the eight bytes in `word` needs more than copying: a control byte, '"', '\\',
// '<', '>', '&', or a byte of a multi-byte UTF-8 sequence. Exact for any byte order (the
// "haszero" and "hasless" tests of Bit Twiddling Hacks).
bool needs_care(uint64_t word) {
  constexpr uint64_t kOnes = 0x0101010101010101;
  constexpr uint64_t kHigh = 0x8080808080808080;
  auto has_zero = [](uint64_t w) { return ((w - kOnes) & ~w & kHigh) != 0; };
  auto has = [&](char c) { return has_zero(word ^ (kOnes * static_cast<unsigned char>(c))); };
  bool control = ((word - kOnes * 0x20) & ~word & kHigh) != 0;
  return (word & kHigh) != 0 || control || has('"') || has('\\') || has('<') || has('>') ||
         has('&');
}

// encoding/json's appendString with escapeHTML, as json.Marshal and json.Encoder use it.
template <class Sink>
void put_string(Sink& sink, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  sink.put('"');
  size_t start = 0;
  size_t i = 0;
  auto flush = [&] { sink.put(s.substr(start, i - start)); };
  while (i < s.size()) {
    // Eight bytes at a time while there is nothing to escape: object sizes count every string of
    // the bundle.
    for (uint64_t word = 0; i + 8 <= s.size(); i += 8) {
      std::memcpy(&word, s.data() + i, 8);
      if (needs_care(word)) break;
    }
    if (i == s.size()) break;
    auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      bool safe = b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&';
      if (safe) {
        ++i;
        continue;
      }
      flush();
      switch (b) {
        case '"':
        case '\\':
          sink.put('\\');
          sink.put(static_cast<char>(b));
          break;
        case '\b':
          sink.put("\\b");
          break;
        case '\f':
          sink.put("\\f");
          break;
        case '\n':
          sink.put("\\n");
          break;
        case '\r':
          sink.put("\\r");
          break;
        case '\t':
          sink.put("\\t");
          break;
        default: {
          char esc[] = {'\\', 'u', '0', '0', kHex[b >> 4], kHex[b & 0xF]};
          sink.put(std::string_view(esc, sizeof esc));
        }
      }
      start = ++i;
      continue;
    }
    size_t n = utf8_sequence(s, i);
    if (n == 0) {
      flush();
      sink.put("\\ufffd");
      start = ++i;
      continue;
    }
    if (n == 3 && b == 0xE2 && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(s[i + 2]) & 0xFE) == 0xA8) {
      flush();
      sink.put(static_cast<unsigned char>(s[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029");
      i += 3;
      start = i;
      continue;
    }
    i += n;
  }
  flush();
  sink.put('"');
}

template <class Sink>
class Encoder {
 public:
  explicit Encoder(Sink& sink) : sink_(sink) {}

  std::optional<JsonError>& error() { return error_; }

  bool value(const yaml::Node& node) {
    if (node.is_mapping()) return mapping(node, nullptr);
    if (node.is_sequence()) {
      sink_.put('[');
      for (size_t i = 0; i < node.size(); ++i) {
        if (i > 0) sink_.put(',');
        if (!value(node.item(i))) return false;
      }
      sink_.put(']');
      return true;
    }
    return scalar(node);
  }

  // A mapping with edits; `node` may be absent, for a mapping the edits create.
  bool mapping(const yaml::Node& node, const std::vector<JsonEdit>* edits) {
    if constexpr (!Sink::kWrites) {
      if (!edits) return count_mapping(node);
    }
    struct Member {
      std::string key;
      yaml::Node value;
      const JsonEdit* edit = nullptr;
    };
    std::vector<Member> members;
    size_t pairs = node.is_mapping() ? node.size() : 0;
    members.reserve(pairs);
    std::vector<bool> used(edits ? edits->size() : 0, false);
    for (size_t i = 0; i < pairs; ++i) {
      Member m;
      if (!key_text(node.key(i), m.key)) return false;
      m.value = node.value(i);
      if (edits) {
        for (size_t e = 0; e < edits->size(); ++e) {
          if ((*edits)[e].key == m.key) {
            used[e] = true;
            m.edit = &(*edits)[e];
          }
        }
        if (m.edit && m.edit->op == JsonEdit::Op::kRemove) continue;
      }
      members.push_back(std::move(m));
    }
    for (size_t e = 0; edits && e < edits->size(); ++e) {
      if (!used[e] && (*edits)[e].op != JsonEdit::Op::kRemove) {
        members.push_back(Member{(*edits)[e].key, yaml::Node{}, &(*edits)[e]});
      }
    }
    // encoding/json sorts map keys bytewise; sizes do not depend on the order.
    if constexpr (Sink::kWrites) {
      std::stable_sort(members.begin(), members.end(),
                       [](const Member& a, const Member& b) { return a.key < b.key; });
    }
    sink_.put('{');
    for (size_t i = 0; i < members.size(); ++i) {
      const Member& m = members[i];
      if (i > 0) sink_.put(',');
      put_string(sink_, m.key);
      sink_.put(':');
      bool ok = true;
      if (!m.edit) {
        ok = value(m.value);
      } else if (m.edit->op == JsonEdit::Op::kSet) {
        sink_.put(m.edit->raw);
      } else {
        ok = mapping(m.value.is_mapping() ? m.value : yaml::Node{}, &m.edit->edits);
      }
      if (!ok) return false;
    }
    sink_.put('}');
    return true;
  }

 private:
  // Counting needs neither the edits nor the sorted order.
  bool count_mapping(const yaml::Node& node) {
    sink_.put('{');
    for (size_t i = 0; i < node.size(); ++i) {
      if (i > 0) sink_.put(',');
      if (!key(node.key(i))) return false;
      sink_.put(':');
      if (!value(node.value(i))) return false;
    }
    sink_.put('}');
    return true;
  }

  bool fail(const yaml::Node& at, std::string message) {
    error_ = JsonError{at.position(), std::move(message)};
    return false;
  }

  // go-yaml v2's decoding of a scalar into interface{} (decode.go, resolve.go).
  bool resolve(const yaml::Node& node, Scalar& out) {
    std::string_view text = node.text();
    std::string_view tag = node.tag();
    bool big = false;
    if (tag.empty()) {
      out = node.is_plain() ? resolve_plain(text, big) : make_string(text);
    } else if (!tag.starts_with(kTagPrefix)) {
      out = make_string(text);  // a local tag, or "!": go-yaml keeps the text
    } else {
      std::string_view name = tag.substr(kTagPrefix.size());
      if (name == "binary") {
        auto decoded = base64_decode(text);
        if (!decoded) return fail(node, "a !!binary value that is not base64");
        out = make_string({});
        out.owned = std::move(*decoded);
        out.text = out.owned;
        return true;
      }
      if (name != "bool" && name != "int" && name != "float" && name != "null") {
        out = make_string(text);  // !!str, !!timestamp, or a tag go-yaml does not resolve
        return true;
      }
      out = resolve_plain(text, big);
      bool matches =
          (name == "bool" && out.kind == Scalar::Kind::kBool) ||
          (name == "null" && out.kind == Scalar::Kind::kNull) ||
          (name == "int" && (out.kind == Scalar::Kind::kInt || out.kind == Scalar::Kind::kUint)) ||
          (name == "float" && out.kind == Scalar::Kind::kFloat);
      if (name == "float" && out.kind == Scalar::Kind::kInt) {
        out = make_float(static_cast<double>(out.integer));
        matches = true;
      }
      if (!matches) {
        return fail(node, fmt::format("kubectl cannot decode `{}` as a !!{}", text, name));
      }
    }
    if (big) {
      return fail(node, fmt::format("the integer {} does not fit in 64 bits", text));
    }
    return true;
  }

  // Writes a key; a string key needs no copy.
  bool key(const yaml::Node& node) {
    if (node.is_scalar() && node.tag().empty() &&
        (!node.is_plain() || (!node.text().empty() && !is_hinted(node.text()[0])))) {
      put_string(sink_, node.text());
      return true;
    }
    if (!key_text(node, key_)) return false;
    put_string(sink_, key_);
    return true;
  }

  bool key_text(const yaml::Node& key, std::string& out) {
    if (!key.is_scalar()) return fail(key, "a mapping or sequence used as a key");
    Scalar s;
    if (!resolve(key, s)) return false;
    switch (s.kind) {
      case Scalar::Kind::kString:
        out.assign(s.text);
        return true;
      case Scalar::Kind::kBool:
        out = s.boolean ? "true" : "false";
        return true;
      case Scalar::Kind::kInt:
        out = std::to_string(s.integer);
        return true;
      case Scalar::Kind::kFloat:
        out = go_float32_key(s.real);
        return true;
      case Scalar::Kind::kNull:
      case Scalar::Kind::kUint:
        break;
    }
    return fail(key, fmt::format("kubectl cannot use `{}` as a JSON key", key.text()));
  }

  // A number after kubectl's second pass: the unstructured decoder reads integral JSON numbers
  // that fit in int64 as integers, everything else as float64.
  bool number(const yaml::Node& at, double d) {
    if (std::isnan(d) || std::isinf(d)) {
      return fail(at, fmt::format("`{}` is not a number JSON can hold (json: unsupported value)",
                                  at.text()));
    }
    std::string text = go_float64(d);
    if (text.find_first_of(".eE") == std::string::npos) {
      int64_t i = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
      if (ec == std::errc() && end == text.data() + text.size()) text = std::to_string(i);
    }
    sink_.put(text);
    return true;
  }

  bool scalar(const yaml::Node& node) {
    Scalar s;
    if (!resolve(node, s)) return false;
    switch (s.kind) {
      case Scalar::Kind::kNull:
        sink_.put("null");
        return true;
      case Scalar::Kind::kBool:
        sink_.put(s.boolean ? "true" : "false");
        return true;
      case Scalar::Kind::kInt:
        sink_.put(std::to_string(s.integer));
        return true;
      case Scalar::Kind::kUint:
        return number(node, static_cast<double>(s.unsigned_integer));
      case Scalar::Kind::kFloat:
        return number(node, s.real);
      case Scalar::Kind::kString:
        put_string(sink_, s.text);
        return true;
    }
    return true;
  }

  Sink& sink_;
  std::optional<JsonError> error_;
  std::string key_;  // reused by count_mapping
};

template <class Sink>
tl::expected<void, JsonError> encode(Sink& sink, const yaml::Node& node,
                                     const std::vector<JsonEdit>& edits) {
  Encoder<Sink> encoder(sink);
  bool ok = edits.empty() ? encoder.value(node)
                          : encoder.mapping(node.is_mapping() ? node : yaml::Node{}, &edits);
  if (!ok) {
    if (std::optional<JsonError>& error = encoder.error()) return tl::unexpected(std::move(*error));
  }
  return {};
}

}  // namespace

tl::expected<std::string, JsonError> kubectl_json(const yaml::Node& node,
                                                  const std::vector<JsonEdit>& edits) {
  TextSink sink;
  auto result = encode(sink, node, edits);
  if (!result) return tl::unexpected(std::move(result.error()));
  return std::move(sink.out);
}

tl::expected<uint64_t, JsonError> kubectl_json_size(const yaml::Node& node,
                                                    const std::vector<JsonEdit>& edits) {
  CountSink sink;
  auto result = encode(sink, node, edits);
  if (!result) return tl::unexpected(std::move(result.error()));
  return sink.bytes;
}

namespace {

// go-yaml v2's resolution of a scalar that is not a string: untagged plain, or !!bool, !!int,
// !!float (resolve.go). Anything else is a string to it.
std::optional<Scalar> resolve_typed(const yaml::Node& node) {
  if (!node.is_scalar()) return std::nullopt;
  std::string_view tag = node.tag();
  if (tag.empty() ? !node.is_plain()
                  : tag != "tag:yaml.org,2002:bool" && tag != "tag:yaml.org,2002:int" &&
                        tag != "tag:yaml.org,2002:float") {
    return std::nullopt;
  }
  bool big = false;
  Scalar s = resolve_plain(node.text(), big);
  if (big) return std::nullopt;
  return s;
}

}  // namespace

std::optional<bool> kubectl_bool(const yaml::Node& node) {
  std::optional<Scalar> s = resolve_typed(node);
  if (!s || s->kind != Scalar::Kind::kBool) return std::nullopt;
  return s->boolean;
}

std::optional<int64_t> kubectl_int(const yaml::Node& node) {
  std::optional<Scalar> s = resolve_typed(node);
  if (!s) return std::nullopt;
  if (s->kind == Scalar::Kind::kInt) return s->integer;
  // 2^63 is the first double past the int64 range.
  if (s->kind == Scalar::Kind::kFloat && std::trunc(s->real) == s->real &&
      std::fabs(s->real) < 9223372036854775808.0) {
    return static_cast<int64_t>(s->real);
  }
  return std::nullopt;
}

std::optional<double> kubectl_float(const yaml::Node& node) {
  std::optional<Scalar> s = resolve_typed(node);
  if (!s) return std::nullopt;
  switch (s->kind) {
    case Scalar::Kind::kInt:
      return static_cast<double>(s->integer);
    case Scalar::Kind::kUint:
      return static_cast<double>(s->unsigned_integer);
    case Scalar::Kind::kFloat:
      return s->real;
    default:
      return std::nullopt;
  }
}

std::string go_json_string(std::string_view text) {
  TextSink sink;
  put_string(sink, text);
  return std::move(sink.out);
}

std::vector<JsonEdit> kubectl_namespace_edits(const Object& object) {
  // cli-runtime's resource builder: SetNamespace for namespaced objects without one,
  // FilterNamespace (which clears it) for cluster-scoped ones.
  JsonEdit ns{"namespace", JsonEdit::Op::kSet, "", {}};
  if (object.scope == Scope::kNamespaced && object.namespace_defaulted) {
    ns.raw = go_json_string(object.namespace_);
  } else if (object.scope == Scope::kCluster && object.metadata.get("namespace")) {
    ns.op = JsonEdit::Op::kRemove;
  } else {
    return {};
  }
  return {JsonEdit{"metadata", JsonEdit::Op::kNested, "", {std::move(ns)}}};
}

tl::expected<ApplySizes, JsonError> apply_sizes(const Object& object) {
  std::vector<JsonEdit> edits = kubectl_namespace_edits(object);
  auto json = kubectl_json_size(object.node, edits);
  if (!json) return tl::unexpected(std::move(json.error()));
  ApplySizes sizes;
  sizes.json_bytes = *json;
  sizes.request_bytes = *json + 1;

  // kubectl's GetModifiedConfiguration encodes the object with its other annotations (an empty
  // map when it has none) and stores that, with json.Encoder's trailing newline, as the value.
  yaml::Node annotations = object.metadata.get("annotations");
  uint64_t others = 0;
  JsonEdit set_annotations{"annotations", JsonEdit::Op::kSet, "{}", {}};
  if (annotations.is_mapping()) {
    set_annotations.op = JsonEdit::Op::kNested;
    set_annotations.edits.push_back(
        JsonEdit{std::string(kLastAppliedAnnotation), JsonEdit::Op::kRemove, "", {}});
    for (size_t i = 0; i < annotations.size(); ++i) {
      std::string_view key = annotations.key(i).text();
      if (key != kLastAppliedAnnotation) others += key.size() + annotations.value(i).str().size();
    }
  }
  std::vector<JsonEdit> metadata_edits =
      edits.empty() ? std::vector<JsonEdit>{} : edits.front().edits;
  metadata_edits.push_back(std::move(set_annotations));
  uint64_t applied = 0;
  if (object.metadata.is_mapping()) {
    // Only metadata changes, so the rest of the object need not be counted again.
    auto before = kubectl_json_size(
        object.metadata, std::vector<JsonEdit>(metadata_edits.begin(), metadata_edits.end() - 1));
    auto after = kubectl_json_size(object.metadata, metadata_edits);
    if (!before || !after) return tl::unexpected(std::move((before ? after : before).error()));
    applied = *json - *before + *after;
  } else {
    auto whole = kubectl_json_size(
        object.node, {JsonEdit{"metadata", JsonEdit::Op::kNested, "", std::move(metadata_edits)}});
    if (!whole) return tl::unexpected(std::move(whole.error()));
    applied = *whole;
  }
  sizes.annotation_bytes = others + kLastAppliedAnnotation.size() + applied + 1;
  return sizes;
}

std::string_view kubectl_scalar_type(const yaml::Node& scalar) {
  std::string_view tag = scalar.tag();
  if (tag.starts_with(kTagPrefix)) {
    std::string_view name = tag.substr(kTagPrefix.size());
    if (name == "int" || name == "float" || name == "bool" || name == "null") return name;
    return "string";
  }
  if (!tag.empty() || !scalar.is_plain()) return "string";
  bool big = false;
  switch (resolve_plain(scalar.text(), big).kind) {
    case Scalar::Kind::kNull:
      return "null";
    case Scalar::Kind::kBool:
      return "bool";
    case Scalar::Kind::kInt:
    case Scalar::Kind::kUint:
      return "int";
    case Scalar::Kind::kFloat:
      return "float";
    case Scalar::Kind::kString:
      break;
  }
  return "string";
}

}  // namespace footprint
