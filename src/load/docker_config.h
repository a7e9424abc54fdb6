// Registry credentials from the files docker, podman and skopeo log in to: the `auths` map of
// ~/.docker/config.json ($DOCKER_CONFIG/config.json) and of $REGISTRY_AUTH_FILE
// (containers-auth.json(5), the same shape). Credential helpers (`credsStore`, `credHelpers`)
// are not run.
//
// Values read here are secrets: no message, error or report may contain them.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

namespace footprint {

struct RegistryCredential {
  std::string username;
  std::string password;
  std::string source;  // the file it came from, for messages
};

struct CredentialStore {
  // By registry host as written in references ("docker.io", "127.0.0.1:5000").
  std::map<std::string, RegistryCredential, std::less<>> by_host;
  const RegistryCredential* find(std::string_view host) const;
};

// The host an `auths` key names: "https://index.docker.io/v1/" is "docker.io",
// "https://reg.example:5000/v2/" is "reg.example:5000".
std::string auth_key_host(std::string_view key);

// Adds the `auths` entries of one file's text to `store`; entries already there win. An entry
// holds `auth` (base64 of "user:password") or `username` and `password`. Errors name the file
// and the entry's key, never a value.
tl::expected<void, std::string> add_auth_file(CredentialStore& store, std::string_view text,
                                              const std::string& file);

// $REGISTRY_AUTH_FILE first, then $DOCKER_CONFIG/config.json or ~/.docker/config.json. Missing
// files are skipped; unreadable or malformed ones are errors.
tl::expected<CredentialStore, std::string> load_credentials();

}  // namespace footprint
