// A read-only client for container registries (the OCI distribution spec, and the Docker
// Registry HTTP API v2 it grew from), with libcurl and OpenSSL. It reads manifests only, never
// layers: an image's size is what its manifests say the registry stores.
//
// - Manifests are requested with all four media types in Accept (OCI index and manifest, Docker
//   manifest list and schema 2); a registry may answer 404 for an index whose type is missing.
// - An index or manifest list is followed to the manifest of the chosen platform (or of every
//   platform); attestation entries are skipped.
// - Every manifest's bytes are hashed and checked against the digest it was asked by, and
//   against Docker-Content-Digest when the registry sends one.
// - Auth: anonymous, Basic, and the Bearer token flow, answering the registry's
//   WWW-Authenticate challenge; tokens are cached per scope until they expire.
// - 429 and 5xx answers are retried with exponential backoff; every request has a timeout.
//
// Credentials and tokens never appear in errors.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

#include "load/docker_config.h"

namespace footprint {

// Media types a manifest may have (OCI image spec; Docker image manifest v2 schema 2).
inline constexpr std::string_view kOciIndexType = "application/vnd.oci.image.index.v1+json";
inline constexpr std::string_view kOciManifestType = "application/vnd.oci.image.manifest.v1+json";
inline constexpr std::string_view kDockerListType =
    "application/vnd.docker.distribution.manifest.list.v2+json";
inline constexpr std::string_view kDockerManifestType =
    "application/vnd.docker.distribution.manifest.v2+json";

// The Accept header of every manifest request.
std::string manifest_accept_header();

// What to ask a registry for: a repository and a tag or digest, as written in a reference.
struct RegistryTarget {
  std::string domain;  // "docker.io", "127.0.0.1:5000"
  std::string repository;
  std::string tag;        // may be empty when digest is set
  std::string digest;     // "sha256:..."; when set, the tag is not looked up
  std::string reference;  // the normalised reference, for messages and results
};

struct RegistryOptions {
  std::string platform = "linux/amd64";  // "os/arch[/variant]", or "all"
  std::vector<std::string> insecure;     // HOST[:PORT]: plain HTTP, or HTTPS without verifying
  std::string ca_file;                   // extra CA bundle for HTTPS
  unsigned parallel = 4;                 // images in flight at once
  long connect_timeout_ms = 10'000;
  long timeout_ms = 60'000;  // per request
  int retries = 3;           // after the first attempt, on 429 and 5xx
  long backoff_ms = 500;     // before the first retry; doubles each time
  bool sizes = true;         // false: only resolve tags to digests (HEAD)
  CredentialStore credentials;
};

struct Blob {
  std::string digest;
  uint64_t bytes = 0;
};

struct PlatformManifest {
  std::string platform;  // "linux/amd64"; empty for an image that is not in an index
  std::string digest;
  std::string media_type;
  std::vector<Blob> blobs;  // the manifest itself, its config, its layers
  uint64_t bytes = 0;       // their sum
};

struct RegistryImage {
  RegistryTarget target;
  std::string digest;                       // of the top manifest: what the tag resolves to
  std::string media_type;                   // of the top manifest
  std::vector<PlatformManifest> platforms;  // the selected ones; empty when only pinning
  // Distinct blobs to copy: the selected platforms' manifests, configs and layers, and with
  // --platform all the index too.
  std::vector<Blob> blobs;
  uint64_t bytes = 0;  // their sum
  std::string error;   // why the image could not be read; empty on success
  bool ok() const { return error.empty(); }
  // name:tag@digest (name@digest when no tag was written).
  std::string pinned() const;
};

// Reads every target, `options.parallel` at a time. Failures are per image, in `error`.
std::vector<RegistryImage> inspect_images(const std::vector<RegistryTarget>& targets,
                                          const RegistryOptions& options);

// The sum of distinct blobs (by digest) over the images that were read.
uint64_t distinct_bytes(const std::vector<RegistryImage>& images);

// Pieces exposed for tests.

// "sha256:<hex>" of the bytes, for the algorithm the expected digest names (sha256, sha512).
// Empty when the algorithm is unknown.
std::string digest_of(std::string_view bytes, std::string_view algorithm = "sha256");

// One challenge from a WWW-Authenticate header: `Bearer realm="...",service="...",scope="..."`.
struct AuthChallenge {
  std::string scheme;  // lower case: "bearer", "basic"
  std::map<std::string, std::string> params;
};
std::optional<AuthChallenge> parse_challenge(std::string_view header);

struct ParsedManifest {
  std::string media_type;
  bool is_index = false;
  struct Entry {
    std::string digest;
    std::string media_type;
    uint64_t size = 0;
    std::string platform;  // "os/arch[/variant]"
    bool attestation = false;
  };
  std::vector<Entry> entries;  // index entries
  std::vector<Blob> blobs;     // a manifest's config and layers
};
// Reads a manifest's JSON; `content_type` is the response's, used when the JSON has no
// mediaType. Schema 1 and unknown shapes are errors.
tl::expected<ParsedManifest, std::string> parse_manifest(std::string_view bytes,
                                                         std::string_view content_type);

// Whether an index entry's platform is the one asked for ("linux/arm64" matches variant v8).
bool platform_matches(std::string_view wanted, std::string_view platform);

}  // namespace footprint
