// Container image references, parsed and normalised as container runtimes do: the distribution
// reference grammar (github.com/distribution/reference), with Docker Hub's familiar names
// expanded ("nginx" -> "docker.io/library/nginx:latest").
#pragma once

#include <string>
#include <string_view>
#include <tl/expected.hpp>

namespace footprint {

struct ImageRef {
  std::string domain;  // "docker.io" for familiar names; may carry a port
  std::string path;    // "library/nginx"
  std::string tag;     // as written; empty when none was written
  std::string digest;  // "sha256:<hex>"; empty when none was written

  // "docker.io/library/nginx"
  std::string name() const;
  // What a runtime pulls: name@digest when there is a digest (the tag is then ignored), else
  // name:tag with "latest" implied.
  std::string normalized() const;
  bool pinned() const { return !digest.empty(); }
  std::string_view effective_tag() const {
    return tag.empty() ? std::string_view("latest") : std::string_view(tag);
  }
};

// Parses one reference. Errors are the grammar's, e.g. "repository name must be lowercase".
tl::expected<ImageRef, std::string> parse_image_ref(std::string_view text);

// True when the text before the first '/' is a registry domain the way the runtime decides it:
// "localhost", or a component containing '.' or ':'.
bool has_registry_domain(std::string_view text);

// A registry host with an optional path prefix, e.g. "mirror.internal:5000/team". The host must
// be recognisable as a domain (see has_registry_domain), or references using it would be read as
// Docker Hub names.
struct RegistryPrefix {
  std::string domain;
  std::string prefix;  // path components after the domain, without slashes at either end
  // domain[/prefix]/path
  std::string join(std::string_view path) const;
  // True when `ref` already lives under this host and prefix (hosts compared as DNS compares
  // them, in any case): relocating it again would nest the prefix.
  bool holds(const ImageRef& ref) const;
};
tl::expected<RegistryPrefix, std::string> parse_registry_prefix(std::string_view text);

// True for a valid digest such as "sha256:<64 hex>".
bool is_digest(std::string_view text);

}  // namespace footprint
