#include "load/registry.h"

#include <curl/curl.h>
#include <fmt/format.h>
#include <openssl/evp.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "load/base64.h"
#include "util/strings.h"

namespace footprint {

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

// Registries cap manifests at 4 MiB (the OCI distribution spec lets them refuse larger ones).
constexpr size_t kMaxManifestBytes = size_t{4} << 20;
constexpr long kMaxRetryAfterSeconds = 30;
constexpr long kDefaultTokenSeconds = 60;  // Docker's token spec: when expires_in is absent

// Docker Hub's references say docker.io; its API is at registry-1.docker.io.
std::string api_host(std::string_view domain) {
  return domain == "docker.io" ? "registry-1.docker.io" : std::string(domain);
}

struct Response {
  long status = 0;
  std::string body;
  std::string content_type;
  std::string content_digest;
  std::vector<std::string> challenges;
  long retry_after = 0;
  bool too_large = false;
};

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* response = static_cast<Response*>(user);
  size_t n = size * count;
  if (response->body.size() + n > kMaxManifestBytes) {
    response->too_large = true;
    return 0;  // aborts the transfer
  }
  response->body.append(data, n);
  return n;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* response = static_cast<Response*>(user);
  size_t n = size * count;
  std::string_view line(data, n);
  if (line.starts_with("HTTP/")) {  // a new response after a redirect: start over
    response->content_type.clear();
    response->content_digest.clear();
    response->challenges.clear();
    return n;
  }
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return n;
  std::string name = lower(trim(line.substr(0, colon)));
  std::string_view value = trim(line.substr(colon + 1));
  if (name == "content-type") {
    response->content_type = std::string(trim(value.substr(0, value.find(';'))));
  } else if (name == "docker-content-digest") {
    response->content_digest = std::string(value);
  } else if (name == "www-authenticate") {
    response->challenges.emplace_back(value);
  }
  return n;
}

// A string member, or `fallback` when `object` is not an object or the member is missing or not
// a string: json::value() throws on a member of another type, and registries are untrusted.
std::string string_member(const json& object, const char* key, std::string fallback = "") {
  if (!object.is_object()) return fallback;
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : fallback;
}

// The registry's own words from an error body ({"errors": [{"code", "message"}]}), without
// `detail`, which can echo anything.
std::string registry_error(const std::string& body) {
  json doc = json::parse(body, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("errors") ||
      !doc["errors"].is_array() || doc["errors"].empty()) {
    return "";
  }
  const json& first = doc["errors"][0];
  std::string code = string_member(first, "code");
  std::string message = string_member(first, "message");
  if (code.empty() && message.empty()) return "";
  return fmt::format(" ({}: {})", code, message);
}

std::string platform_of(const json& platform) {
  if (!platform.is_object()) return "";
  std::string out =
      fmt::format("{}/{}", string_member(platform, "os"), string_member(platform, "architecture"));
  std::string variant = string_member(platform, "variant");
  if (!variant.empty()) out += "/" + variant;
  return out;
}

uint64_t size_of(const json& descriptor) {
  auto it = descriptor.find("size");
  if (it == descriptor.end() || !it->is_number_integer() || it->get<int64_t>() < 0) return 0;
  return it->get<uint64_t>();
}

// State all workers share: how each host is reached, and credentials and tokens.
class Shared {
 public:
  explicit Shared(const RegistryOptions& options) : options(options) {}

  const RegistryOptions& options;

  bool insecure(const std::string& domain) const {
    return std::find(options.insecure.begin(), options.insecure.end(), domain) !=
           options.insecure.end();
  }

  // https until a plain-HTTP fallback; `confirmed` once a request got an answer.
  std::string scheme(const std::string& domain) {
    std::lock_guard lock(mu_);
    auto it = schemes_.find(domain);
    return it == schemes_.end() ? "https" : it->second.scheme;
  }
  bool confirmed(const std::string& domain) {
    std::lock_guard lock(mu_);
    auto it = schemes_.find(domain);
    return it != schemes_.end() && it->second.confirmed;
  }
  void set_scheme(const std::string& domain, const std::string& scheme, bool confirmed) {
    std::lock_guard lock(mu_);
    Scheme& s = schemes_[domain];
    if (s.confirmed) return;
    s = {scheme, confirmed};
  }

  std::string token(const std::string& key) {
    std::lock_guard lock(mu_);
    auto it = tokens_.find(key);
    if (it == tokens_.end() || Clock::now() >= it->second.expires) return "";
    return it->second.value;
  }
  void set_token(const std::string& key, const std::string& value, long seconds) {
    std::lock_guard lock(mu_);
    // Renew a little early, so a token does not expire between the check and the request.
    long margin = std::min<long>(10, seconds / 2);
    tokens_[key] = {value, Clock::now() + std::chrono::seconds(seconds - margin)};
    secrets_.insert(value);
  }

  bool uses_basic(const std::string& domain) {
    std::lock_guard lock(mu_);
    return basic_.count(domain) > 0;
  }
  void set_basic(const std::string& domain) {
    std::lock_guard lock(mu_);
    basic_.insert(domain);
  }

  // Removes any credential or token from a message, in case a server echoed one back.
  std::string scrub(std::string text) {
    std::set<std::string> secrets;
    {
      std::lock_guard lock(mu_);
      secrets = secrets_;
    }
    for (const auto& [host, cred] : options.credentials.by_host) {
      secrets.insert(cred.password);
      secrets.insert(base64_encode(cred.username + ":" + cred.password));
    }
    for (const std::string& secret : secrets) {
      if (secret.size() < 4) continue;
      for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at))
        text.replace(at, secret.size(), "<redacted>");
    }
    return text;
  }

 private:
  struct Token {
    std::string value;
    Clock::time_point expires;
  };
  std::mutex mu_;
  struct Scheme {
    std::string scheme;
    bool confirmed = false;
  };
  std::map<std::string, Scheme> schemes_;
  std::map<std::string, Token> tokens_;
  std::set<std::string> basic_;
  std::set<std::string> secrets_;
};

// One worker: a curl handle, reused so connections stay open between requests.
class Client {
 public:
  explicit Client(Shared& shared) : shared_(shared), curl_(curl_easy_init()) {}
  ~Client() { curl_easy_cleanup(curl_); }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  RegistryImage inspect(const RegistryTarget& target) {
    RegistryImage image;
    image.target = target;
    if (curl_ == nullptr) {
      image.error = "cannot start libcurl";
      return image;
    }
    auto done = shared_.options.sizes ? size(image) : pin(image);
    if (!done) {
      image.error = shared_.scrub(done.error());
      image.platforms.clear();
      image.blobs.clear();
      image.bytes = 0;
    }
    return image;
  }

 private:
  struct Manifest {
    std::string bytes;
    std::string digest;
    std::string content_type;
  };

  const RegistryOptions& options() const { return shared_.options; }

  // One HTTP exchange, no auth or retry logic.
  tl::expected<Response, std::string> perform(const std::string& url, bool head,
                                              const std::vector<std::string>& headers,
                                              bool verify_tls) {
    Response response;
    curl_easy_reset(curl_);
    char error[CURL_ERROR_SIZE] = {0};
    curl_slist* list = nullptr;
    for (const std::string& h : headers)
      list = curl_slist_append(list, h.c_str());
    std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> owned(list, curl_slist_free_all);
    curl_easy_setopt(curl_, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl_, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(curl_, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl_, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl_, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl_, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl_, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(curl_, CURLOPT_CONNECTTIMEOUT_MS, options().connect_timeout_ms);
    curl_easy_setopt(curl_, CURLOPT_TIMEOUT_MS, options().timeout_ms);
    curl_easy_setopt(curl_, CURLOPT_USERAGENT, "footprint/" FOOTPRINT_VERSION);
    curl_easy_setopt(curl_, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(curl_, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &response);
    curl_easy_setopt(curl_, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl_, CURLOPT_HEADERDATA, &response);
    if (head) curl_easy_setopt(curl_, CURLOPT_NOBODY, 1L);
    if (!verify_tls) {
      curl_easy_setopt(curl_, CURLOPT_SSL_VERIFYPEER, 0L);
      curl_easy_setopt(curl_, CURLOPT_SSL_VERIFYHOST, 0L);
    } else if (!options().ca_file.empty()) {
      curl_easy_setopt(curl_, CURLOPT_CAINFO, options().ca_file.c_str());
    }
    CURLcode code = curl_easy_perform(curl_);
    if (code != CURLE_OK) {
      last_code_ = code;
      std::string what = error[0] ? std::string(error) : curl_easy_strerror(code);
      while (!what.empty() && what.back() == '\n')
        what.pop_back();
      if (response.too_large)
        what = fmt::format("the answer is larger than {} bytes", kMaxManifestBytes);
      return tl::unexpected(what);
    }
    curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &response.status);
    curl_off_t retry_after = 0;
    if (curl_easy_getinfo(curl_, CURLINFO_RETRY_AFTER, &retry_after) == CURLE_OK)
      response.retry_after = static_cast<long>(retry_after);
    return response;
  }

  // perform() with retries on 429 and 5xx, waiting backoff_ms, then twice that, and so on (or
  // the server's Retry-After, up to 30 s).
  tl::expected<Response, std::string> perform_retrying(const std::string& url, bool head,
                                                       const std::vector<std::string>& headers,
                                                       bool verify_tls) {
    long wait_ms = options().backoff_ms;
    for (int attempt = 0;; ++attempt) {
      auto response = perform(url, head, headers, verify_tls);
      if (!response) return response;
      bool transient = response->status == 429 || response->status >= 500;
      if (!transient || attempt >= options().retries) return response;
      long wait = response->retry_after > 0
                      ? std::min(response->retry_after, kMaxRetryAfterSeconds) * 1000
                      : wait_ms;
      std::this_thread::sleep_for(std::chrono::milliseconds(wait));
      wait_ms *= 2;
    }
  }

  struct Token {
    std::string value;
    long seconds = kDefaultTokenSeconds;
  };

  tl::expected<Token, std::string> fetch_token(const AuthChallenge& challenge,
                                               const RegistryTarget& target,
                                               const std::string& scope) {
    auto realm = challenge.params.find("realm");
    if (realm == challenge.params.end() || realm->second.empty())
      return tl::unexpected(std::string("the Bearer challenge names no realm"));
    std::string url = realm->second;
    std::string query;
    auto add = [&](const char* name, const std::string& value) {
      if (value.empty()) return;
      char* escaped = curl_easy_escape(curl_, value.c_str(), static_cast<int>(value.size()));
      query += fmt::format("{}{}={}", query.empty() ? "" : "&", name, escaped);
      curl_free(escaped);
    };
    auto service = challenge.params.find("service");
    if (service != challenge.params.end()) add("service", service->second);
    add("scope", scope);
    if (!query.empty()) url += (url.find('?') == std::string::npos ? "?" : "&") + query;
    std::vector<std::string> headers = {"Accept: application/json"};
    const RegistryCredential* cred = options().credentials.find(target.domain);
    if (cred) {
      headers.push_back("Authorization: Basic " +
                        base64_encode(cred->username + ":" + cred->password));
    }
    std::string realm_host =
        url.substr(url.find("://") == std::string::npos ? 0 : url.find("://") + 3);
    realm_host = realm_host.substr(0, realm_host.find_first_of("/?"));
    bool verify = !shared_.insecure(realm_host);
    auto response = perform_retrying(url, false, headers, verify);
    if (!response) return tl::unexpected(fmt::format("token server: {}", response.error()));
    if (response->status != 200) {
      return tl::unexpected(fmt::format(
          "the token server answered {}{}{}", response->status, registry_error(response->body),
          cred ? fmt::format("; the credentials for {} from {} were refused", target.domain,
                             cred->source)
               : ""));
    }
    json doc = json::parse(response->body, nullptr, false);
    std::string token;
    long seconds = kDefaultTokenSeconds;
    if (doc.is_object()) {
      if (doc.contains("token") && doc["token"].is_string()) {
        token = doc["token"].get<std::string>();
      } else if (doc.contains("access_token") && doc["access_token"].is_string()) {
        token = doc["access_token"].get<std::string>();
      }
      if (doc.contains("expires_in") && doc["expires_in"].is_number_integer() &&
          doc["expires_in"].get<long>() > 0) {
        seconds = doc["expires_in"].get<long>();
      }
    }
    if (token.empty()) return tl::unexpected(std::string("the token server sent no token"));
    return Token{token, seconds};
  }

  // A registry request for `path` under /v2/, with auth, retries, and the scheme decided.
  tl::expected<Response, std::string> request(const RegistryTarget& target, const std::string& path,
                                              bool head,
                                              const std::vector<std::string>& extra_headers) {
    const std::string& domain = target.domain;
    bool insecure = shared_.insecure(domain);
    std::string default_scope = fmt::format("repository:{}:pull", target.repository);
    std::string token_key = domain + " " + default_scope;
    const RegistryCredential* cred = options().credentials.find(domain);
    bool answered_challenge = false;
    while (true) {
      std::string scheme = shared_.scheme(domain);
      std::string url = fmt::format("{}://{}/v2/{}", scheme, api_host(domain), path);
      std::vector<std::string> headers = extra_headers;
      if (std::string token = shared_.token(token_key); !token.empty()) {
        headers.push_back("Authorization: Bearer " + token);
      } else if (cred && shared_.uses_basic(domain)) {
        headers.push_back("Authorization: Basic " +
                          base64_encode(cred->username + ":" + cred->password));
      }
      auto response = perform_retrying(url, head, headers, !insecure);
      if (!response) {
        // An insecure registry that does not speak TLS: try plain HTTP, as docker and skopeo
        // do for registries marked insecure.
        bool unreachable = last_code_ == CURLE_COULDNT_CONNECT ||
                           last_code_ == CURLE_COULDNT_RESOLVE_HOST ||
                           last_code_ == CURLE_OPERATION_TIMEDOUT;
        // Several workers may fail over HTTPS at once; each then moves to HTTP.
        if (insecure && scheme == "https" && !unreachable &&
            (!shared_.confirmed(domain) || shared_.scheme(domain) == "http")) {
          shared_.set_scheme(domain, "http", false);
          continue;
        }
        return tl::unexpected(fmt::format("cannot reach {}: {}", domain, response.error()));
      }
      shared_.set_scheme(domain, scheme, true);
      if (response->status != 401 || answered_challenge) return response;
      answered_challenge = true;
      std::optional<AuthChallenge> challenge;
      for (const std::string& header : response->challenges) {
        challenge = parse_challenge(header);
        if (challenge && challenge->scheme == "bearer") break;
      }
      if (!challenge) return response;
      if (challenge->scheme == "basic") {
        if (!cred) return response;
        shared_.set_basic(domain);
        continue;
      }
      if (challenge->scheme != "bearer") return response;
      std::string scope = default_scope;
      if (auto it = challenge->params.find("scope"); it != challenge->params.end())
        scope = it->second;
      auto token = fetch_token(*challenge, target, scope);
      if (!token) return tl::unexpected(token.error());
      shared_.set_token(token_key, token->value, token->seconds);
      if (scope != default_scope)
        shared_.set_token(fmt::format("{} {}", domain, scope), token->value, token->seconds);
    }
  }

  std::string status_error(const RegistryTarget& target, const std::string& ref,
                           const Response& response) {
    std::string where = fmt::format("{}/{}{}{}", target.domain, target.repository,
                                    ref.starts_with("sha256:") ? "@" : ":", ref);
    std::string from_registry = registry_error(response.body);
    switch (response.status) {
      case 401: {
        const RegistryCredential* cred = options().credentials.find(target.domain);
        return fmt::format("unauthorized (401) for {}{}: {}", where, from_registry,
                           cred ? fmt::format("the credentials from {} were refused", cred->source)
                                : fmt::format("no credentials for {} in $REGISTRY_AUTH_FILE or "
                                              "~/.docker/config.json",
                                              target.domain));
      }
      case 403:
        return fmt::format("access denied (403) to {}{}", where, from_registry);
      case 404:
        return fmt::format("not found (404): {} is not in the registry{}", where, from_registry);
      default:
        return fmt::format("the registry answered {} for {}{}", response.status, where,
                           from_registry);
    }
  }

  // GETs (or HEADs) a manifest by tag or digest and checks its digest.
  tl::expected<Manifest, std::string> manifest(const RegistryTarget& target, const std::string& ref,
                                               bool head) {
    std::vector<std::string> headers = {"Accept: " + manifest_accept_header()};
    auto response =
        request(target, fmt::format("{}/manifests/{}", target.repository, ref), head, headers);
    if (!response) return tl::unexpected(response.error());
    if (response->status != 200) return tl::unexpected(status_error(target, ref, *response));
    Manifest out;
    out.content_type = response->content_type;
    if (head) {
      out.digest = response->content_digest;
      return out;
    }
    out.bytes = std::move(response->body);
    // The digest the bytes must have: the one asked for, else the one the registry states.
    std::string expected = ref.starts_with("sha") && ref.find(':') != std::string::npos
                               ? ref
                               : response->content_digest;
    std::string algorithm = expected.empty() ? "sha256" : expected.substr(0, expected.find(':'));
    std::string actual = digest_of(out.bytes, algorithm);
    if (actual.empty()) {
      return tl::unexpected(
          fmt::format("{}: unsupported digest algorithm {}", target.reference, algorithm));
    }
    if (!expected.empty() && actual != expected) {
      return tl::unexpected(fmt::format(
          "the manifest of {} does not match its digest: expected {}, the bytes hash to {}",
          target.reference, expected, actual));
    }
    if (!response->content_digest.empty() && response->content_digest != expected) {
      return tl::unexpected(fmt::format(
          "the manifest of {} does not match Docker-Content-Digest {}: the bytes hash to {}",
          target.reference, response->content_digest, actual));
    }
    out.digest = actual;
    return out;
  }

  std::string top_ref(const RegistryTarget& target) {
    if (!target.digest.empty()) return target.digest;
    return target.tag.empty() ? "latest" : target.tag;
  }

  tl::expected<void, std::string> pin(RegistryImage& image) {
    const RegistryTarget& target = image.target;
    auto head = manifest(target, top_ref(target), true);
    if (!head) return tl::unexpected(head.error());
    image.media_type = head->content_type;
    if (head->digest.empty() || !target.digest.empty()) {
      // No Docker-Content-Digest (it is optional for HEAD): hash the manifest itself.
      auto got = manifest(target, top_ref(target), false);
      if (!got) return tl::unexpected(got.error());
      image.digest = got->digest;
      image.media_type = got->content_type;
    } else {
      image.digest = head->digest;
    }
    return {};
  }

  static PlatformManifest platform_manifest(const Manifest& got, const ParsedManifest& parsed,
                                            std::string platform) {
    PlatformManifest out;
    out.platform = std::move(platform);
    out.digest = got.digest;
    out.media_type = parsed.media_type;
    out.blobs.push_back({got.digest, got.bytes.size()});
    for (const Blob& b : parsed.blobs)
      out.blobs.push_back(b);
    for (const Blob& b : out.blobs)
      out.bytes += b.bytes;
    return out;
  }

  tl::expected<void, std::string> size(RegistryImage& image) {
    const RegistryTarget& target = image.target;
    auto top = manifest(target, top_ref(target), false);
    if (!top) return tl::unexpected(top.error());
    image.digest = top->digest;
    auto parsed = parse_manifest(top->bytes, top->content_type);
    if (!parsed) return tl::unexpected(fmt::format("{}: {}", target.reference, parsed.error()));
    image.media_type = parsed->media_type;
    const std::string& wanted = options().platform;
    if (!parsed->is_index) {
      image.platforms.push_back(platform_manifest(*top, *parsed, ""));
    } else {
      std::vector<const ParsedManifest::Entry*> chosen;
      std::vector<std::string> offered;
      for (const ParsedManifest::Entry& e : parsed->entries) {
        if (e.attestation) continue;
        offered.push_back(e.platform.empty() ? "no platform" : e.platform);
        if (wanted == "all" || (chosen.empty() && platform_matches(wanted, e.platform)))
          chosen.push_back(&e);
      }
      if (chosen.empty()) {
        return tl::unexpected(fmt::format("{} has no {} manifest (it has: {})", target.reference,
                                          wanted, fmt::join(offered, ", ")));
      }
      for (const ParsedManifest::Entry* e : chosen) {
        auto child = manifest(target, e->digest, false);
        if (!child) return tl::unexpected(child.error());
        auto child_parsed = parse_manifest(child->bytes, child->content_type);
        if (!child_parsed) {
          return tl::unexpected(
              fmt::format("{} ({}): {}", target.reference, e->platform, child_parsed.error()));
        }
        if (child_parsed->is_index) {
          return tl::unexpected(fmt::format("{} ({}): an index inside an index is not supported",
                                            target.reference, e->platform));
        }
        image.platforms.push_back(platform_manifest(*child, *child_parsed, e->platform));
      }
      if (wanted == "all") image.blobs.push_back({top->digest, top->bytes.size()});
    }
    std::set<std::string> seen;
    for (const Blob& b : image.blobs)
      seen.insert(b.digest);
    for (const PlatformManifest& p : image.platforms) {
      for (const Blob& b : p.blobs) {
        if (seen.insert(b.digest).second) image.blobs.push_back(b);
      }
    }
    for (const Blob& b : image.blobs)
      image.bytes += b.bytes;
    return {};
  }

  Shared& shared_;
  CURL* curl_;
  CURLcode last_code_ = CURLE_OK;
};

}  // namespace

std::string manifest_accept_header() {
  return fmt::format("{}, {}, {}, {}", kOciIndexType, kOciManifestType, kDockerListType,
                     kDockerManifestType);
}

std::string RegistryImage::pinned() const {
  std::string name = fmt::format("{}/{}", target.domain, target.repository);
  if (digest.empty()) return target.reference;
  if (target.tag.empty()) return fmt::format("{}@{}", name, digest);
  return fmt::format("{}:{}@{}", name, target.tag, digest);
}

std::vector<RegistryImage> inspect_images(const std::vector<RegistryTarget>& targets,
                                          const RegistryOptions& options) {
  static std::once_flag curl_ready;
  std::call_once(curl_ready, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  std::vector<RegistryImage> out(targets.size());
  Shared shared(options);
  std::atomic<size_t> next{0};
  auto work = [&] {
    Client client(shared);
    for (size_t i = next++; i < targets.size(); i = next++)
      out[i] = client.inspect(targets[i]);
  };
  size_t workers = std::clamp<size_t>(options.parallel, 1, std::max<size_t>(targets.size(), 1));
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w)
    threads.emplace_back(work);
  work();
  for (std::thread& t : threads)
    t.join();
  return out;
}

uint64_t distinct_bytes(const std::vector<RegistryImage>& images) {
  std::set<std::string> seen;
  uint64_t total = 0;
  for (const RegistryImage& image : images) {
    for (const Blob& b : image.blobs) {
      if (seen.insert(b.digest).second) total += b.bytes;
    }
  }
  return total;
}

std::string digest_of(std::string_view bytes, std::string_view algorithm) {
  const EVP_MD* md = nullptr;
  if (algorithm == "sha256") md = EVP_sha256();
  if (algorithm == "sha512") md = EVP_sha512();
  if (md == nullptr) return "";
  unsigned char hash[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), hash, &length, md, nullptr) != 1) return "";
  std::string out(algorithm);
  out += ':';
  for (unsigned int i = 0; i < length; ++i)
    out += fmt::format("{:02x}", hash[i]);
  return out;
}

std::optional<AuthChallenge> parse_challenge(std::string_view header) {
  header = trim(header);
  size_t space = header.find(' ');
  AuthChallenge out;
  out.scheme = lower(header.substr(0, space));
  if (out.scheme.empty()) return std::nullopt;
  if (space == std::string_view::npos) return out;
  std::string_view rest = header.substr(space + 1);
  size_t pos = 0;
  while (pos < rest.size()) {
    while (pos < rest.size() && (rest[pos] == ',' || rest[pos] == ' '))
      ++pos;
    size_t eq = rest.find('=', pos);
    if (eq == std::string_view::npos) break;
    std::string name = lower(trim(rest.substr(pos, eq - pos)));
    pos = eq + 1;
    std::string value;
    if (pos < rest.size() && rest[pos] == '"') {
      ++pos;
      while (pos < rest.size() && rest[pos] != '"') {
        if (rest[pos] == '\\' && pos + 1 < rest.size()) ++pos;
        value += rest[pos++];
      }
      ++pos;  // the closing quote
    } else {
      size_t end = rest.find(',', pos);
      if (end == std::string_view::npos) end = rest.size();
      value = std::string(trim(rest.substr(pos, end - pos)));
      pos = end;
    }
    out.params[name] = value;
  }
  return out;
}

tl::expected<ParsedManifest, std::string> parse_manifest(std::string_view bytes,
                                                         std::string_view content_type) {
  json doc = json::parse(bytes, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return tl::unexpected(std::string("the manifest is not a JSON object"));
  }
  ParsedManifest out;
  out.media_type = string_member(doc, "mediaType", std::string(content_type));
  // Docker image manifest v2 schema 1 (signed or not) predates content addressing of configs;
  // registries have deprecated it.
  if ((doc.contains("schemaVersion") && doc["schemaVersion"] == 1) ||
      out.media_type.starts_with("application/vnd.docker.distribution.manifest.v1")) {
    return tl::unexpected(std::string(
        "a Docker schema 1 manifest, which footprint does not read: it carries no layer sizes "
        "(push the image again as schema 2 or OCI)"));
  }
  if (doc.contains("manifests")) {
    if (!doc["manifests"].is_array()) return tl::unexpected(std::string("manifests is not a list"));
    out.is_index = true;
    for (const json& m : doc["manifests"]) {
      if (!m.is_object() || !m.contains("digest") || !m["digest"].is_string())
        return tl::unexpected(std::string("an index entry has no digest"));
      ParsedManifest::Entry e;
      e.digest = m["digest"].get<std::string>();
      e.media_type = string_member(m, "mediaType");
      e.size = size_of(m);
      if (m.contains("platform")) e.platform = platform_of(m["platform"]);
      // BuildKit attaches provenance and SBOMs as index entries with platform unknown/unknown
      // and this annotation (docs.docker.com, "Attestation storage").
      bool unknown = e.platform == "unknown/unknown";
      bool annotated =
          m.contains("annotations") && m["annotations"].is_object() &&
          string_member(m["annotations"], "vnd.docker.reference.type") == "attestation-manifest";
      e.attestation = unknown || annotated;
      out.entries.push_back(std::move(e));
    }
    return out;
  }
  if (!doc.contains("config") || !doc["config"].is_object() || !doc.contains("layers") ||
      !doc["layers"].is_array()) {
    return tl::unexpected(
        fmt::format("not an image manifest or index (media type \"{}\")", out.media_type));
  }
  auto blob = [](const json& d) -> tl::expected<Blob, std::string> {
    if (!d.is_object() || !d.contains("digest") || !d["digest"].is_string())
      return tl::unexpected(std::string("a descriptor has no digest"));
    return Blob{d["digest"].get<std::string>(), size_of(d)};
  };
  auto config = blob(doc["config"]);
  if (!config) return tl::unexpected(config.error());
  out.blobs.push_back(*config);
  for (const json& l : doc["layers"]) {
    auto layer = blob(l);
    if (!layer) return tl::unexpected(layer.error());
    out.blobs.push_back(*layer);
  }
  return out;
}

bool platform_matches(std::string_view wanted, std::string_view platform) {
  if (wanted == platform) return true;
  // os/arch without a variant matches any variant; arm64's default variant is v8.
  if (platform.starts_with(wanted) && platform.size() > wanted.size() &&
      platform[wanted.size()] == '/') {
    return true;
  }
  return (wanted == "linux/arm64/v8" && platform == "linux/arm64") ||
         (wanted == "linux/arm64" && platform == "linux/arm64/v8");
}

}  // namespace footprint
