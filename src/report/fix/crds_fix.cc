#include "report/fix/crds_fix.h"

#include <fmt/format.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <memory>

#include "analysis/context.h"
#include "load/base64.h"
#include "model/names.h"
#include "report/section.h"

namespace footprint {

namespace {

struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
using Bio = std::unique_ptr<BIO, BioFree>;

constexpr std::string_view kClientConfigPath = "/spec/conversion/webhook/clientConfig";

}  // namespace

tl::expected<std::string, std::string> read_ca_pem(std::string_view text) {
  if (text.find("PRIVATE KEY-----") != std::string_view::npos) {
    return tl::unexpected(
        std::string("it holds a private key; give only the CA certificate (caBundle is public)"));
  }
  Bio in(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
  Bio out(BIO_new(BIO_s_mem()));
  if (!in || !out) return tl::unexpected(std::string("out of memory"));
  ERR_clear_error();
  int certificates = 0;
  while (X509* cert = PEM_read_bio_X509(in.get(), nullptr, nullptr, nullptr)) {
    bool written = PEM_write_bio_X509(out.get(), cert) == 1;
    X509_free(cert);
    if (!written) return tl::unexpected(std::string("cannot re-encode a certificate"));
    ++certificates;
  }
  // Reading stops at the end of the text ("no start line") or at a block that does not parse.
  unsigned long error = ERR_peek_last_error();
  bool at_end = ERR_GET_LIB(error) == ERR_LIB_PEM && ERR_GET_REASON(error) == PEM_R_NO_START_LINE;
  ERR_clear_error();
  if (!at_end) {
    return tl::unexpected(
        fmt::format("certificate {} is not a valid PEM X.509 certificate", certificates + 1));
  }
  if (certificates == 0) {
    return tl::unexpected(std::string("no PEM certificate (-----BEGIN CERTIFICATE-----) in it"));
  }
  char* data = nullptr;
  long size = BIO_get_mem_data(out.get(), &data);
  return std::string(data, static_cast<size_t>(size));
}

tl::expected<std::string, std::string> ca_from_secret(std::string_view manifest) {
  auto docs = yaml::parse(manifest);
  if (!docs) {
    return tl::unexpected(
        fmt::format("line {}: {}", docs.error().position.line, docs.error().message));
  }
  bool secret = false;
  for (const yaml::Document& doc : *docs) {
    if (doc.root.get("kind").str() != "Secret") continue;
    secret = true;
    // A Secret's data and stringData are maps of strings (k8s.io/api/core/v1): a list or a
    // mapping under ca.crt is no certificate, and the API server would refuse the Secret.
    for (const char* field : {"data", "stringData"}) {
      yaml::Node value = doc.root.at({field, "ca.crt"});
      if (value && !value.is_scalar()) {
        return tl::unexpected(
            fmt::format("{}.ca.crt is a {}, not a string: a Secret's values are strings", field,
                        value.is_sequence() ? "list" : "mapping"));
      }
    }
    if (yaml::Node data = doc.root.at({"data", "ca.crt"})) {
      auto pem = base64_decode(data.str());
      if (!pem) return tl::unexpected(std::string("data.ca.crt is not base64"));
      return read_ca_pem(*pem).map_error(
          [](const std::string& e) { return fmt::format("ca.crt: {}", e); });
    }
    if (yaml::Node text = doc.root.at({"stringData", "ca.crt"})) {
      return read_ca_pem(text.str()).map_error([](const std::string& e) {
        return fmt::format("ca.crt: {}", e);
      });
    }
  }
  return tl::unexpected(std::string(secret ? "the Secret has no ca.crt key" : "no Secret in it"));
}

std::optional<ServiceRef> parse_service_ref(std::string_view text) {
  size_t slash = text.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == text.size() ||
      text.find('/', slash + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  return ServiceRef{std::string(text.substr(0, slash)), std::string(text.substr(slash + 1))};
}

namespace {

// Edits inside spec.conversion.webhook.clientConfig, and the matching JSON patch.
struct ClientConfigEdit {
  std::vector<JsonEdit> service;
  std::vector<JsonEdit> client;
  Json patch = Json::array();

  void set(const yaml::Node& client_config, std::string_view key, std::string raw, Json value,
           bool in_service) {
    yaml::Node parent = in_service ? client_config.get("service") : client_config;
    bool exists = static_cast<bool>(parent.get(key));
    std::string path = fmt::format("{}{}/{}", kClientConfigPath, in_service ? "/service" : "", key);
    patch.push_back({{"op", exists ? "replace" : "add"}, {"path", path}, {"value", value}});
    (in_service ? service : client)
        .push_back(JsonEdit{std::string(key), JsonEdit::Op::kSet, std::move(raw), {}});
  }

  std::vector<JsonEdit> object_edits() const {
    std::vector<JsonEdit> inner = client;
    if (!service.empty()) inner.push_back(JsonEdit{"service", JsonEdit::Op::kNested, "", service});
    JsonEdit nested{"clientConfig", JsonEdit::Op::kNested, "", std::move(inner)};
    for (const char* key : {"webhook", "conversion", "spec"})
      nested = JsonEdit{key, JsonEdit::Op::kNested, "", {std::move(nested)}};
    return {std::move(nested)};
  }
};

}  // namespace

CrdFixPlan plan_crd_fixes(const Context& ctx, const CrdFixOptions& options) {
  const Bundle& bundle = ctx.bundle;
  CrdFixPlan plan;
  for (const ConversionWiring& w : ctx.conversions) {
    ClientConfigEdit edit;
    CrdFix fix;
    fix.crd = w.crd;
    const yaml::Node& client_config = w.client.node;
    // The name becomes a file name and a kubectl argument: only a name the API server accepts
    // (a DNS-1123 subdomain) is used, so a bundle cannot steer either.
    if (!is_dns1123_subdomain(w.crd->name)) {
      plan.unresolved.push_back(
          fmt::format("{}: not a name the API server accepts for a CRD (a DNS-1123 subdomain)",
                      go_json_string(w.crd->name)));
      continue;
    }
    // Without clientConfig there is nothing to patch a Service or CA into, and the API server
    // rejects the CRD anyway ("spec.conversion.webhook.clientConfig: Required value").
    if (!client_config) {
      plan.unresolved.push_back(fmt::format(
          "{}: its conversion strategy is Webhook but it has no webhook.clientConfig; write the "
          "clientConfig (service or url) first",
          w.crd->name));
      continue;
    }
    if (w.service_missing() || w.port_mismatch()) {
      std::string ns;
      std::string name;
      int32_t port = w.client.port;
      if (options.service) {
        ns = options.service->namespace_;
        name = options.service->name;
        WebhookClient chosen = w.client;
        chosen.service_namespace = ns;
        chosen.service_name = name;
        ServiceBackend backend = resolve_service(bundle, ctx.pods, chosen);
        if (backend.service) port = conversion_port(backend, w.client.port);
      } else if (const Object* target = w.target_service()) {
        ns = target->namespace_;
        name = target->name;
        port = w.suggested_port;
      } else {
        plan.unresolved.push_back(
            fmt::format("{}: no Service of the bundle looks like {}/{}; give --service NS/NAME",
                        w.crd->name, w.client.service_namespace, w.client.service_name));
      }
      if (!name.empty() && (!is_dns1123_label(ns) || !is_dns1123_label(name))) {
        plan.unresolved.push_back(fmt::format(
            "{}: the Service {} is not a name the API server accepts; give --service NS/NAME",
            w.crd->name, go_json_string(fmt::format("{}/{}", ns, name))));
        name.clear();
      }
      if (!name.empty()) {
        if (ns != w.client.service_namespace)
          edit.set(client_config, "namespace", go_json_string(ns), ns, true);
        if (name != w.client.service_name)
          edit.set(client_config, "name", go_json_string(name), name, true);
        if (port != w.client.port || (!w.client.port_written && port != 443))
          edit.set(client_config, "port", std::to_string(port), port, true);
        fix.changes.push_back(fmt::format("conversion webhook Service {}/{}:{} -> {}/{}:{}",
                                          w.client.service_namespace, w.client.service_name,
                                          w.client.port, ns, name, port));
      }
    }
    if (w.ca_missing()) {
      if (options.ca_pem.empty()) {
        plan.unresolved.push_back(fmt::format(
            "{}: its conversion webhook has no CA and nothing injects one; give --ca-file or "
            "--ca-from-secret",
            w.crd->name));
      } else {
        std::string ca = base64_encode(options.ca_pem);
        edit.set(client_config, "caBundle", go_json_string(ca), ca, false);
        fix.changes.push_back(
            fmt::format("caBundle set from the CA ({} bytes of PEM)", options.ca_pem.size()));
      }
    }
    if (fix.changes.empty()) continue;
    fix.patch = edit.patch.dump();
    std::vector<JsonEdit> edits = kubectl_namespace_edits(*w.crd);
    for (JsonEdit& e : edit.object_edits())
      edits.push_back(std::move(e));
    auto json = kubectl_json(w.crd->node, edits);
    if (!json) {
      plan.unresolved.push_back(fmt::format("{}: kubectl cannot encode it: line {}: {}",
                                            w.crd->name, json.error().position.line,
                                            json.error().message));
      continue;
    }
    fix.fixed = Json::parse(*json).dump(2) + "\n";
    plan.fixes.push_back(std::move(fix));
  }
  return plan;
}

}  // namespace footprint
