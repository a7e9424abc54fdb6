#include "load/docker_config.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "load/base64.h"

namespace footprint {

const RegistryCredential* CredentialStore::find(std::string_view host) const {
  auto it = by_host.find(host);
  return it == by_host.end() ? nullptr : &it->second;
}

std::string auth_key_host(std::string_view key) {
  for (std::string_view scheme : {"https://", "http://"}) {
    if (key.starts_with(scheme)) key.remove_prefix(scheme.size());
  }
  key = key.substr(0, key.find('/'));
  // Docker Hub's historical names; references say docker.io.
  if (key == "index.docker.io" || key == "registry-1.docker.io" || key == "registry.hub.docker.com")
    return "docker.io";
  return std::string(key);
}

tl::expected<void, std::string> add_auth_file(CredentialStore& store, std::string_view text,
                                              const std::string& file) {
  // nlohmann's parse errors quote the text near the error, which may be a password: report
  // only the position.
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded()) return tl::unexpected(fmt::format("{}: not valid JSON", file));
  if (!doc.is_object()) return tl::unexpected(fmt::format("{}: not a JSON object", file));
  auto auths = doc.find("auths");
  if (auths == doc.end()) return {};
  if (!auths->is_object()) return tl::unexpected(fmt::format("{}: auths is not an object", file));
  for (auto item = auths->begin(); item != auths->end(); ++item) {
    const std::string& key = item.key();
    const nlohmann::json& entry = item.value();
    if (!entry.is_object()) {
      return tl::unexpected(fmt::format("{}: auths[\"{}\"] is not an object", file, key));
    }
    RegistryCredential cred;
    cred.source = file;
    auto string_field = [&](const char* name) -> std::string {
      auto it = entry.find(name);
      return it != entry.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    std::string auth = string_field("auth");
    if (!auth.empty()) {
      std::optional<std::string> decoded = base64_decode(auth);
      size_t colon = decoded ? decoded->find(':') : std::string::npos;
      if (!decoded || colon == std::string::npos) {
        return tl::unexpected(
            fmt::format("{}: auths[\"{}\"].auth is not base64 of \"user:password\"", file, key));
      }
      cred.username = decoded->substr(0, colon);
      cred.password = decoded->substr(colon + 1);
    } else {
      cred.username = string_field("username");
      cred.password = string_field("password");
    }
    if (cred.username.empty() && cred.password.empty()) continue;  // e.g. only identitytoken
    store.by_host.emplace(auth_key_host(key), std::move(cred));
  }
  return {};
}

namespace {

tl::expected<void, std::string> add_file(CredentialStore& store, const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return {};
  std::ifstream in(path, std::ios::binary);
  if (!in) return tl::unexpected(fmt::format("{}: cannot read", path));
  std::ostringstream text;
  text << in.rdbuf();
  return add_auth_file(store, text.str(), path);
}

}  // namespace

tl::expected<CredentialStore, std::string> load_credentials() {
  CredentialStore store;
  if (const char* auth_file = std::getenv("REGISTRY_AUTH_FILE"); auth_file && *auth_file) {
    if (auto added = add_file(store, auth_file); !added) return tl::unexpected(added.error());
  }
  std::string docker_dir;
  if (const char* dir = std::getenv("DOCKER_CONFIG"); dir && *dir) {
    docker_dir = dir;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    docker_dir = std::string(home) + "/.docker";
  }
  if (!docker_dir.empty()) {
    if (auto added = add_file(store, docker_dir + "/config.json"); !added)
      return tl::unexpected(added.error());
  }
  return store;
}

}  // namespace footprint
