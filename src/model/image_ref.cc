#include "model/image_ref.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <system_error>

#include "util/strings.h"

namespace footprint {

namespace {

constexpr std::string_view kDockerHub = "docker.io";
constexpr std::string_view kLegacyDockerHub = "index.docker.io";
constexpr std::string_view kOfficialPrefix = "library/";
constexpr size_t kMaxPathLength = 255;
constexpr size_t kMaxTagLength = 128;

constexpr std::string_view kInvalidFormat = "invalid reference format";
constexpr std::string_view kUppercase = "repository name must be lowercase";

bool is_lower_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}
bool is_alnum(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}
bool is_word(char c) {
  return is_alnum(c) || c == '_';
}
bool is_hex(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}
bool is_lower_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

bool has_upper(std::string_view s) {
  return std::any_of(s.begin(), s.end(),
                     [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; });
}

// domain-component := [a-zA-Z0-9] | [a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]
bool valid_domain_component(std::string_view c) {
  if (c.empty() || !is_alnum(c.front()) || !is_alnum(c.back())) return false;
  return std::all_of(c.begin(), c.end(), [](char ch) { return is_alnum(ch) || ch == '-'; });
}

// domain := (domain-name | '[' ipv6 ']') [':' port]
bool valid_domain(std::string_view d) {
  std::string_view host = d;
  if (d.starts_with('[')) {
    size_t close = d.find(']');
    if (close == std::string_view::npos || close == 1) return false;
    std::string_view inside = d.substr(1, close - 1);
    if (!std::all_of(inside.begin(), inside.end(), [](char c) { return is_hex(c) || c == ':'; }))
      return false;
    host = {};
    d.remove_prefix(close + 1);
    if (d.empty()) return true;
    if (d.front() != ':') return false;
  } else {
    size_t colon = d.find(':');
    host = d.substr(0, colon);
    d = colon == std::string_view::npos ? std::string_view() : d.substr(colon);
    size_t start = 0;
    while (true) {
      size_t dot = host.find('.', start);
      if (!valid_domain_component(host.substr(start, dot - start))) return false;
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
    if (d.empty()) return true;
  }
  std::string_view port = d.substr(1);
  return !port.empty() &&
         std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// path-component := [a-z0-9]+ (separator [a-z0-9]+)*, separator := [._] | "__" | "-"+
bool valid_path_component(std::string_view c) {
  size_t i = 0;
  auto alnum_run = [&] {
    size_t start = i;
    while (i < c.size() && is_lower_alnum(c[i]))
      ++i;
    return i > start;
  };
  if (!alnum_run()) return false;
  while (i < c.size()) {
    if (c[i] == '.') {
      ++i;
    } else if (c[i] == '_') {
      ++i;
      if (i < c.size() && c[i] == '_') ++i;
    } else if (c[i] == '-') {
      while (i < c.size() && c[i] == '-')
        ++i;
    } else {
      return false;
    }
    if (!alnum_run()) return false;
  }
  return true;
}

bool valid_path(std::string_view p) {
  size_t start = 0;
  while (true) {
    size_t slash = p.find('/', start);
    if (!valid_path_component(p.substr(start, slash - start))) return false;
    if (slash == std::string_view::npos) return true;
    start = slash + 1;
  }
}

// tag := [\w][\w.-]{0,127}
bool valid_tag(std::string_view t) {
  if (t.empty() || t.size() > kMaxTagLength || !is_word(t.front())) return false;
  return std::all_of(t.begin(), t.end(), [](char c) { return is_word(c) || c == '.' || c == '-'; });
}

// The reference grammar's digest: algorithm ":" at least 32 hex digits, where the algorithm is
// components [A-Za-z][A-Za-z0-9]* joined by one of [-_+.].
bool digest_syntax(std::string_view d) {
  size_t colon = d.find(':');
  if (colon == std::string_view::npos) return false;
  std::string_view algorithm = d.substr(0, colon);
  std::string_view hex = d.substr(colon + 1);
  if (hex.size() < 32 || !std::all_of(hex.begin(), hex.end(), is_hex)) return false;
  bool expect_start = true;
  for (char c : algorithm) {
    if (expect_start) {
      if (!std::isalpha(static_cast<unsigned char>(c))) return false;
      expect_start = false;
    } else if (c == '-' || c == '_' || c == '+' || c == '.') {
      expect_start = true;
    } else if (!is_alnum(c)) {
      return false;
    }
  }
  return !algorithm.empty() && !expect_start;
}

// After the grammar, the digest library accepts only registered algorithms with lowercase hex of
// the algorithm's exact length (opencontainers/go-digest).
tl::expected<void, std::string> check_digest(std::string_view d) {
  size_t colon = d.find(':');
  std::string_view algorithm = d.substr(0, colon);
  std::string_view hex = d.substr(colon + 1);
  size_t length = algorithm == "sha256"   ? 64
                  : algorithm == "sha384" ? 96
                  : algorithm == "sha512" ? 128
                                          : 0;
  if (length == 0)
    return tl::unexpected(fmt::format("unsupported digest algorithm \"{}\"", algorithm));
  if (hex.size() != length) return tl::unexpected(std::string("invalid checksum digest length"));
  if (!std::all_of(hex.begin(), hex.end(), is_lower_hex))
    return tl::unexpected(std::string("invalid checksum digest format"));
  return {};
}

bool is_identifier(std::string_view s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), is_lower_hex);
}

// The runtime's split of a familiar name into domain and remainder (distribution/reference
// normalize.go, splitDockerDomain).
std::pair<std::string, std::string> split_docker_domain(std::string_view name) {
  size_t slash = name.find('/');
  if (slash == std::string_view::npos) {
    return {std::string(kDockerHub), std::string(kOfficialPrefix) + std::string(name)};
  }
  std::string_view first = name.substr(0, slash);
  std::string_view rest = name.substr(slash + 1);
  std::string domain;
  std::string remainder;
  if (first == "localhost" || first.find_first_of(".:") != std::string_view::npos ||
      has_upper(first)) {
    domain = first == kLegacyDockerHub ? kDockerHub : first;
    remainder = rest;
  } else {
    domain = kDockerHub;
    remainder = name;
  }
  if (domain == kDockerHub && remainder.find('/') == std::string::npos) {
    remainder.insert(0, kOfficialPrefix);
  }
  return {domain, remainder};
}

}  // namespace

std::string ImageRef::name() const {
  return domain + "/" + path;
}

std::string ImageRef::normalized() const {
  if (!digest.empty()) return name() + "@" + digest;
  return name() + ":" + std::string(effective_tag());
}

tl::expected<ImageRef, std::string> parse_image_ref(std::string_view text) {
  if (is_identifier(text)) {
    return tl::unexpected(fmt::format(
        "invalid repository name ({}), cannot specify 64-byte hexadecimal strings", text));
  }
  auto [domain, remainder] = split_docker_domain(text);
  if (has_upper(std::string_view(remainder).substr(0, remainder.find(':')))) {
    return tl::unexpected(std::string(kUppercase));
  }
  ImageRef ref;
  ref.domain = std::move(domain);
  std::string_view rest = remainder;
  size_t at = rest.find('@');
  std::string_view digest;
  if (at != std::string_view::npos) {
    digest = rest.substr(at + 1);
    rest = rest.substr(0, at);
    if (!digest_syntax(digest)) return tl::unexpected(std::string(kInvalidFormat));
  }
  size_t colon = rest.find(':');
  std::string_view path = rest.substr(0, colon);
  if (colon != std::string_view::npos) {
    std::string_view tag = rest.substr(colon + 1);
    if (tag.size() > kMaxTagLength) {
      // The grammar's tag is [\w][\w.-]{0,127}; distribution says only "invalid reference
      // format", which hides why.
      return tl::unexpected(fmt::format("{}: the tag has {} characters, more than {}",
                                        kInvalidFormat, tag.size(), kMaxTagLength));
    }
    if (!valid_tag(tag)) return tl::unexpected(std::string(kInvalidFormat));
    ref.tag = tag;
  }
  if (!valid_domain(ref.domain) || !valid_path(path)) {
    return tl::unexpected(std::string(kInvalidFormat));
  }
  if (path.size() > kMaxPathLength) {
    return tl::unexpected(
        fmt::format("repository name must not be more than {} characters", kMaxPathLength));
  }
  if (!digest.empty()) {
    if (auto ok = check_digest(digest); !ok) return tl::unexpected(ok.error());
    ref.digest = digest;
  }
  ref.path = path;
  return ref;
}

bool has_registry_domain(std::string_view text) {
  size_t slash = text.find('/');
  if (slash == std::string_view::npos) return false;
  std::string_view first = text.substr(0, slash);
  return first == "localhost" || first.find_first_of(".:") != std::string_view::npos;
}

bool is_digest(std::string_view text) {
  return digest_syntax(text) && check_digest(text).has_value();
}

std::string RegistryPrefix::join(std::string_view path) const {
  std::string out = domain;
  if (!prefix.empty()) out += "/" + prefix;
  out += "/";
  out += path;
  return out;
}

bool RegistryPrefix::holds(const ImageRef& ref) const {
  if (!equals_any_case(ref.domain, domain)) return false;
  return prefix.empty() || (ref.path.size() > prefix.size() && ref.path.starts_with(prefix) &&
                            ref.path[prefix.size()] == '/');
}

tl::expected<RegistryPrefix, std::string> parse_registry_prefix(std::string_view text) {
  while (!text.empty() && text.back() == '/')
    text.remove_suffix(1);
  size_t slash = text.find('/');
  RegistryPrefix out;
  out.domain = text.substr(0, slash);
  if (slash != std::string_view::npos) out.prefix = text.substr(slash + 1);
  if (!valid_domain(out.domain)) {
    return tl::unexpected(fmt::format("\"{}\" is not a registry host", out.domain));
  }
  // The grammar takes any digits as a port; a registry listens on a TCP port, 1 to 65535.
  size_t bracket = out.domain.find(']');
  size_t colon = out.domain.find(':', bracket == std::string::npos ? 0 : bracket);
  if (colon != std::string::npos) {
    std::string_view port = std::string_view(out.domain).substr(colon + 1);
    uint32_t value = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value < 1 || value > 65535) {
      return tl::unexpected(fmt::format("\"{}\" has port {}, which is not a TCP port (1 to 65535)",
                                        out.domain, port));
    }
  }
  if (!has_registry_domain(out.domain + "/x")) {
    return tl::unexpected(fmt::format(
        "\"{}\" would be read as a Docker Hub namespace; a registry host needs a '.' or a port, "
        "or must be localhost",
        out.domain));
  }
  if (!out.prefix.empty() && !valid_path(out.prefix)) {
    return tl::unexpected(fmt::format(
        "\"{}\" is not a valid repository path: use lowercase letters, digits and . _ -",
        out.prefix));
  }
  // As in references: index.docker.io is Docker Hub's old name, and a reference written with it
  // is read back as docker.io (found by fuzz_image_ref).
  if (out.domain == kLegacyDockerHub) out.domain = kDockerHub;
  return out;
}

}  // namespace footprint
