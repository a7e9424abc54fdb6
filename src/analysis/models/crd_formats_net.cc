// The network formats of crd_formats.h: addresses as Go's net package and k8s.io/utils/net parse
// them, MAC addresses as net.ParseMAC does, request URIs as net/url.ParseRequestURI does.
#include <arpa/inet.h>

#include <array>
#include <cstdint>
#include <string>

#include "analysis/models/crd_formats.h"

namespace footprint {

namespace {

constexpr uint32_t kParseLimit = 0xFFFFFF;  // Go's `big`: a number this large stops a parse

// Go's dtoi and xtoi: the leading decimal or hex number, and the bytes it took (0: none, or
// too large).
size_t leading_number(std::string_view s, int base, uint32_t& value) {
  value = 0;
  size_t i = 0;
  for (; i < s.size(); ++i) {
    char c = s[i];
    uint32_t digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<uint32_t>(c - '0');
    } else if (base == 16 && c >= 'a' && c <= 'f') {
      digit = static_cast<uint32_t>(c - 'a' + 10);
    } else if (base == 16 && c >= 'A' && c <= 'F') {
      digit = static_cast<uint32_t>(c - 'A' + 10);
    } else {
      break;
    }
    value = value * static_cast<uint32_t>(base) + digit;
    if (value >= kParseLimit) return 0;
  }
  return i;
}

// Go 1.16's parseIPv4, which k8s.io/utils/net keeps as ParseIPSloppy: four decimal numbers up
// to 255, leading zeros allowed.
bool sloppy_ipv4(std::string_view s) {
  for (int part = 0; part < 4; ++part) {
    if (s.empty()) return false;
    if (part > 0) {
      if (s[0] != '.') return false;
      s.remove_prefix(1);
    }
    uint32_t n = 0;
    size_t used = leading_number(s, 10, n);
    if (used == 0 || n > 0xFF) return false;
    s.remove_prefix(used);
  }
  return s.empty();
}

// Go 1.16's parseIPv6: hex groups of any length up to 0xFFFF, one "::", and a dotted IPv4 tail
// in the last 4 bytes.
bool sloppy_ipv6(std::string_view s) {
  constexpr int kLength = 16;
  int ellipsis = -1;
  if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
    ellipsis = 0;
    s.remove_prefix(2);
    if (s.empty()) return true;
  }
  int i = 0;
  while (i < kLength) {
    uint32_t n = 0;
    size_t used = leading_number(s, 16, n);
    if (used == 0 || n > 0xFFFF) return false;
    if (used < s.size() && s[used] == '.') {
      if (ellipsis < 0 && i != kLength - 4) return false;
      if (i + 4 > kLength || !sloppy_ipv4(s)) return false;
      i += 4;
      s = {};
      break;
    }
    i += 2;
    s.remove_prefix(used);
    if (s.empty()) break;
    if (s[0] != ':' || s.size() == 1) return false;
    s.remove_prefix(1);
    if (s[0] == ':') {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      s.remove_prefix(1);
      if (s.empty()) break;
    }
  }
  if (!s.empty()) return false;
  if (i < kLength) return ellipsis >= 0;
  return ellipsis < 0;  // "::" stands for at least one group
}

// ParseIPSloppy: the first '.' or ':' decides the family.
bool sloppy_ip(std::string_view s) {
  size_t at = s.find_first_of(".:");
  if (at == std::string_view::npos) return false;
  return s[at] == '.' ? sloppy_ipv4(s) : sloppy_ipv6(s);
}

// net.ParseMAC's xtoi2: two hex digits, then `separator` or the end.
bool hex_pair(std::string_view s, char separator) {
  if (s.size() > 2 && s[2] != separator) return false;
  uint32_t n = 0;
  return s.size() >= 2 && leading_number(s.substr(0, 2), 16, n) == 2;
}

bool is_alphanumeric(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

enum class UrlPart : uint8_t { kOther, kHost, kZone };

// net/url's shouldEscape for a host or zone byte (is_alphanumeric is ASCII only).
bool host_escapes(char c) {
  constexpr std::string_view kHostPunctuation = "!$&'()*+,;=:[]<>\"-_.~";
  return !is_alphanumeric(c) && kHostPunctuation.find(c) == std::string_view::npos;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// net/url's unescape: every '%' starts two hex digits. A host refuses what it would have to
// escape and an escape of an ASCII byte other than %25; a zone, an escape of such a byte.
bool url_unescapes(std::string_view s, UrlPart part) {
  bool host_like = part == UrlPart::kHost || part == UrlPart::kZone;
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    if (c == '%') {
      if (i + 2 >= s.size() || hex_value(s[i + 1]) < 0 || hex_value(s[i + 2]) < 0) return false;
      bool percent = s.substr(i, 3) == "%25";
      if (part == UrlPart::kHost && hex_value(s[i + 1]) < 8 && !percent) return false;
      if (part == UrlPart::kZone) {
        auto decoded = static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
        if (!percent && decoded != ' ' && host_escapes(decoded)) return false;
      }
      i += 3;
      continue;
    }
    if (host_like && static_cast<unsigned char>(c) < 0x80 && host_escapes(c)) return false;
    ++i;
  }
  return true;
}

// net/url's validOptionalPort: empty, or ':' and digits.
bool optional_port(std::string_view port) {
  if (port.empty()) return true;
  if (port[0] != ':') return false;
  for (char c : port.substr(1)) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// net/url's parseHost, without keeping anything.
bool url_host(std::string_view host) {
  if (host.starts_with('[')) {
    size_t close = host.rfind(']');
    if (close == std::string_view::npos || !optional_port(host.substr(close + 1))) return false;
    size_t zone = host.substr(0, close).find("%25");
    if (zone != std::string_view::npos) {
      return url_unescapes(host.substr(0, zone), UrlPart::kHost) &&
             url_unescapes(host.substr(zone, close - zone), UrlPart::kZone) &&
             url_unescapes(host.substr(close), UrlPart::kHost);
    }
  } else if (size_t colon = host.rfind(':'); colon != std::string_view::npos) {
    if (!optional_port(host.substr(colon))) return false;
  }
  return url_unescapes(host, UrlPart::kHost);
}

// net/url's validUserinfo.
bool url_userinfo(std::string_view info) {
  constexpr std::string_view kAllowed = "-._:~!$&'()*+,;=%@";
  for (char c : info) {
    if (!is_alphanumeric(c) && kAllowed.find(c) == std::string_view::npos) return false;
  }
  return url_unescapes(info, UrlPart::kOther);
}

}  // namespace

bool is_ipv4_sloppy(std::string_view text) {
  return sloppy_ip(text) && text.find('.') != std::string_view::npos;
}

bool is_ipv6(std::string_view text) {
  // Go's net.ParseIP since 1.17, as inet_pton: at most four hex digits a group, no leading zeros
  // in an IPv4 tail. The ':' tells it from an IPv4 address.
  std::string address(text);
  std::array<unsigned char, 16> bytes{};
  if (text.find(':') == std::string_view::npos) return false;
  return inet_pton(AF_INET6, address.c_str(), bytes.data()) == 1;
}

bool is_cidr_sloppy(std::string_view text) {
  size_t slash = text.find('/');
  if (slash == std::string_view::npos) return false;
  std::string_view address = text.substr(0, slash);
  std::string_view mask = text.substr(slash + 1);
  int bits = 32;
  if (!sloppy_ipv4(address)) {
    bits = 128;
    if (!sloppy_ipv6(address)) return false;
  }
  uint32_t n = 0;
  size_t used = leading_number(mask, 10, n);
  return used != 0 && used == mask.size() && n <= static_cast<uint32_t>(bits);
}

bool is_mac(std::string_view s) {
  if (s.size() < 14) return false;
  auto octets_allowed = [](size_t n) { return n == 6 || n == 8 || n == 20; };
  if (s[2] == ':' || s[2] == '-') {
    if ((s.size() + 1) % 3 != 0 || !octets_allowed((s.size() + 1) / 3)) return false;
    for (size_t x = 0; x < s.size(); x += 3) {
      if (!hex_pair(s.substr(x), s[2])) return false;
    }
    return true;
  }
  if (s[4] == '.') {
    if ((s.size() + 1) % 5 != 0 || !octets_allowed(2 * (s.size() + 1) / 5)) return false;
    for (size_t x = 0; x < s.size(); x += 5) {
      if (!hex_pair(s.substr(x, 2), '\0') || !hex_pair(s.substr(x + 2), s[4])) return false;
    }
    return true;
  }
  return false;
}

bool is_request_uri(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
  }
  if (text.empty()) return false;
  if (text == "*") return true;
  // getScheme: a letter, then letters, digits, '+', '-' or '.', up to ':'.
  std::string_view rest = text;
  bool scheme = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (letter) continue;
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
      if (i == 0) break;
      continue;
    }
    if (c == ':') {
      if (i == 0) return false;  // missing protocol scheme
      scheme = true;
      rest = text.substr(i + 1);
    }
    break;
  }
  if (rest.ends_with('?') && rest.find('?') == rest.size() - 1) {
    rest.remove_suffix(1);
  } else {
    rest = rest.substr(0, rest.find('?'));
  }
  if (!rest.starts_with('/')) return scheme;  // opaque with a scheme; else not for a request
  if (scheme && rest.starts_with("//")) {
    std::string_view authority = rest.substr(2);
    size_t slash = authority.find('/');
    rest = slash == std::string_view::npos ? std::string_view() : authority.substr(slash);
    authority = authority.substr(0, slash);
    size_t at = authority.rfind('@');
    if (at == std::string_view::npos) {
      if (!url_host(authority)) return false;
    } else if (!url_host(authority.substr(at + 1)) || !url_userinfo(authority.substr(0, at))) {
      return false;
    }
  }
  return url_unescapes(rest, UrlPart::kOther);
}

}  // namespace footprint
