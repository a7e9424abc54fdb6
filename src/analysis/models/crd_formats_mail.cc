// The email format of crd_formats.h: strfmt.IsEmail, which is Go's net/mail.ParseAddress with a
// non-empty address. One address as RFC 5322 (and 6532) write it: `user@example.com`,
// `"Fred Bloggs"@example.com`, `Name <user@example.com>`, `user@example.com (Name)`, or a group
// of one such address, `Team: user@example.com;`.
#include <arpa/inet.h>

#include <array>
#include <cstdint>
#include <string>

#include "analysis/models/crd_formats.h"

namespace footprint {

namespace {

// utf8.DecodeRuneInString: the rune and its size; (0xFFFD, 1) for an invalid byte, size 0 at
// the end.
struct Rune {
  uint32_t value = 0;
  size_t size = 0;
  bool invalid = false;
};

Rune decode_rune(std::string_view s) {
  if (s.empty()) return {};
  auto b0 = static_cast<unsigned char>(s[0]);
  if (b0 < 0x80) return {.value = b0, .size = 1};
  size_t size = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 0;
  if (size == 0 || b0 > 0xF4 || s.size() < size)
    return {.value = 0xFFFD, .size = 1, .invalid = true};
  uint32_t value = b0 & (0x7F >> size);
  for (size_t i = 1; i < size; ++i) {
    auto b = static_cast<unsigned char>(s[i]);
    if ((b & 0xC0) != 0x80) return {.value = 0xFFFD, .size = 1, .invalid = true};
    value = (value << 6) | (b & 0x3F);
  }
  constexpr std::array<uint32_t, 5> kSmallest = {0, 0, 0x80, 0x800, 0x10000};
  if (value < kSmallest[size] || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
    return {.value = 0xFFFD, .size = 1, .invalid = true};
  return {.value = value, .size = size};
}

// RFC 5322's VCHAR, with RFC 6532's multi-byte characters.
bool is_vchar(uint32_t r) {
  return (r >= '!' && r <= '~') || r >= 0x80;
}
bool is_wsp(uint32_t r) {
  return r == ' ' || r == '\t';
}

bool is_atext(uint32_t r, bool dot) {
  if (r == '.') return dot;
  constexpr std::string_view kSpecials = "()<>[]:;@\\,\"";
  if (r < 0x80 && kSpecials.find(static_cast<char>(r)) != std::string_view::npos) return false;
  return is_vchar(r);
}

class AddressParser {
 public:
  explicit AddressParser(std::string_view s) : s_(s) {}

  // parseSingleAddress: one address, non-empty.
  bool single_address() {
    int count = 0;
    if (!address(true, count) || !skip_cfws() || !s_.empty()) return false;
    return count == 1;
  }

 private:
  bool empty() const { return s_.empty(); }
  bool consume(char c) {
    if (s_.empty() || s_[0] != c) return false;
    s_.remove_prefix(1);
    return true;
  }
  void skip_space() {
    while (!s_.empty() && (s_[0] == ' ' || s_[0] == '\t'))
      s_.remove_prefix(1);
  }

  // parseAddress, counting the addresses parsed (an addr-spec is never empty).
  bool address(bool handle_group, int& count) {
    skip_space();
    if (empty()) return false;
    std::string spec;
    if (addr_spec(spec)) {
      skip_space();
      if (!empty() && s_[0] == '(' && !display_name_comment()) return false;
      ++count;
      return true;
    }
    std::string phrase_text;
    if (empty() || s_[0] != '<') {
      if (!phrase(phrase_text)) return false;
    }
    skip_space();
    if (handle_group && consume(':')) return group_list(count);
    if (!consume('<')) return false;
    if (!addr_spec(spec) || !consume('>')) return false;
    ++count;
    return true;
  }

  bool group_list(int& count) {
    skip_space();
    if (consume(';')) return skip_cfws();
    while (true) {
      skip_space();
      if (!address(false, count) || !skip_cfws()) return false;
      if (consume(';')) return skip_cfws();
      if (!consume(',')) return false;
    }
  }

  // consumeAddrSpec: the input is left as it was on failure.
  bool addr_spec(std::string& spec) {
    std::string_view saved = s_;
    spec.clear();
    skip_space();
    std::string local;
    bool ok = !empty();
    if (ok && s_[0] == '"') {
      ok = quoted_string(local) && !local.empty();
    } else if (ok) {
      ok = atom(true, false, local);
    }
    ok = ok && consume('@');
    if (ok) skip_space();
    std::string domain;
    ok = ok && !empty();
    if (ok) ok = s_[0] == '[' ? domain_literal(domain) : atom(true, false, domain);
    if (!ok) {
      s_ = saved;
      return false;
    }
    spec = local + "@" + domain;
    return true;
  }

  // consumePhrase: words until one does not parse; at least one. (A display-name word that is
  // an RFC 2047 encoded word in a charset Go does not know would fail; it is taken as text.)
  bool phrase(std::string& text) {
    int words = 0;
    while (true) {
      if (words > 0 && !skip_cfws()) return false;
      skip_space();
      if (empty()) break;
      std::string word;
      bool ok = s_[0] == '"' ? quoted_string(word) : atom(true, true, word);
      if (!ok) break;
      text += word;
      ++words;
    }
    return words > 0;
  }

  bool quoted_string(std::string& out) {
    size_t i = 1;
    bool escaped = false;
    while (true) {
      Rune r = decode_rune(s_.substr(i));
      if (r.size == 0 || r.invalid) return false;
      if (escaped) {
        if (!is_vchar(r.value) && !is_wsp(r.value)) return false;
        escaped = false;
      } else if ((is_vchar(r.value) && r.value != '\\' && r.value != '"') || is_wsp(r.value)) {
      } else if (r.value == '"') {
        break;
      } else if (r.value == '\\') {
        escaped = true;
        i += r.size;
        continue;
      } else {
        return false;
      }
      out.append(s_.substr(i, r.size));
      i += r.size;
    }
    s_.remove_prefix(i + 1);
    return true;
  }

  bool atom(bool dot, bool permissive, std::string& out) {
    size_t i = 0;
    while (true) {
      Rune r = decode_rune(s_.substr(i));
      if (r.invalid) return false;
      if (r.size == 0 || !is_atext(r.value, dot)) break;
      i += r.size;
    }
    if (i == 0) return false;
    std::string_view found = s_.substr(0, i);
    s_.remove_prefix(i);
    if (!permissive && (found.starts_with('.') || found.ends_with('.') ||
                        found.find("..") != std::string_view::npos))
      return false;
    out = std::string(found);
    return true;
  }

  // consumeDomainLiteral: an IP address in brackets, as net.ParseIP reads it.
  bool domain_literal(std::string& out) {
    if (!consume('[')) return false;
    std::string text;
    while (true) {
      if (empty()) return false;
      if (s_[0] == ']') break;
      Rune r = decode_rune(s_);
      if (r.invalid || !is_vchar(r.value) || r.value == '[' || r.value == ']' || r.value == '\\')
        return false;
      text.append(s_.substr(0, r.size));
      s_.remove_prefix(r.size);
    }
    consume(']');
    std::array<unsigned char, 16> bytes{};
    bool ip = inet_pton(AF_INET, text.c_str(), bytes.data()) == 1 ||
              inet_pton(AF_INET6, text.c_str(), bytes.data()) == 1;
    out = "[" + text + "]";
    return ip;
  }

  bool display_name_comment() { return consume('(') && comment(); }

  bool skip_cfws() {
    skip_space();
    while (consume('(')) {
      if (!comment()) return false;
      skip_space();
    }
    return true;
  }

  // consumeComment, after its '(': nested parentheses, backslash escapes.
  bool comment() {
    int depth = 1;
    while (!empty() && depth > 0) {
      if (s_[0] == '\\' && s_.size() > 1) {
        s_.remove_prefix(1);
      } else if (s_[0] == '(') {
        ++depth;
      } else if (s_[0] == ')') {
        --depth;
      }
      s_.remove_prefix(1);
    }
    return depth == 0;
  }

  std::string_view s_;
};

}  // namespace

bool is_email(std::string_view text) {
  return AddressParser(text).single_address();
}

}  // namespace footprint
