// Checks of CRD versions and conversion: whether the API server can call a CRD's conversion
// webhook (its Service, port and CA), where objects are stored, and every version's schema.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"
#include "model/units.h"
#include "util/strings.h"

namespace footprint {

namespace {

std::string ports_text(const std::vector<int32_t>& ports) {
  if (ports.empty()) return "no ports";
  std::vector<std::string> items;
  for (int32_t p : ports)
    items.push_back(std::to_string(p));
  return (ports.size() == 1 ? "port " : "ports ") + joined(items);
}

// Conversion happens only between versions; a CRD with one version never calls its webhook.
Severity conversion_severity(const ConversionWiring& w) {
  return w.versions > 1 ? Severity::kHigh : Severity::kLow;
}

std::string consequence(const ConversionWiring& w) {
  if (w.versions <= 1) {
    return "It has a single version, so the API server never calls the webhook yet; the first "
           "added version will fail.";
  }
  std::string storage = w.storage_version.empty() ? "the storage version"
                                                  : "the storage version " + w.storage_version;
  return fmt::format(
      "Every read or write in a version other than {} fails, and so do lists and watches in "
      "those versions.",
      storage);
}

std::string service_ref(std::string_view ns, std::string_view name, int32_t port) {
  return fmt::format("{}/{}:{}", ns, name, port);
}

// The operator's own reference: high only when the Service it names is missing too.
void report_rewritten_service(const ConversionWiring& w, Findings& out) {
  const CrdInstallCommand& c = *w.rewriter;
  const std::string& ns = c.conversion_service_namespace;
  const std::string& name = c.conversion_service_name;
  const Object* service = w.rewritten_service;
  std::string rewrite = fmt::format(
      "CRD {} names conversion Service {}/{}, which the bundle does not create, but {} (container "
      "{}) applies the CRD itself and points its conversion webhook at Service {}/{} whenever it "
      "applies it (`{}`)",
      w.crd->name, w.client.service_namespace, w.client.service_name, c.workload->display(),
      c.container, ns, name, c.evidence);
  Severity severity = Severity::kLow;
  std::string message;
  std::string fix;
  if (service) {
    message = rewrite +
              ", which the bundle creates. The file's reference matters only to someone who "
              "applies the CRD files by hand.";
    fix = fmt::format(
        "Nothing to do for this install; to apply the CRD files by hand, point "
        "spec.conversion.webhook.clientConfig.service at {} first (`footprint fix crds`).",
        service->qualified_name());
  } else {
    severity = conversion_severity(w);
    message = fmt::format(
        "{}, which the bundle does not create either: the API server's conversion calls fail "
        "(service \"{}\" not found). {}",
        rewrite, name, consequence(w));
    fix = fmt::format(
        "Set the operator's conversion Service argument to the Service that serves its webhooks{}.",
        w.suggestion ? fmt::format(" ({})", w.suggestion->qualified_name()) : std::string());
  }
  Finding& f =
      out.add(*w.crd, severity, std::move(message), std::move(fix), w.client.node.get("service"));
  f.summary = service ? fmt::format(
                            "The operator points CRD {}'s conversion webhook at {} when "
                            "it applies it",
                            w.crd->name, service->qualified_name())
                      : fmt::format(
                            "CRD {}'s conversion webhook calls Service {}/{}, which "
                            "nothing creates",
                            w.crd->name, ns, name);
}

void run_conversion_service_missing(const Context& ctx, Findings& out) {
  for (const ConversionWiring& w : ctx.conversions) {
    if (!w.service_missing()) continue;
    if (w.rewriter) {
      report_rewritten_service(w, out);
      continue;
    }
    std::string message = fmt::format(
        "CRD {} converts between versions with a webhook at Service {}/{}, which the bundle "
        "does not create: the API server's conversion calls fail (service \"{}\" not found). {}",
        w.crd->name, w.client.service_namespace, w.client.service_name, w.client.service_name,
        consequence(w));
    if (w.suggestion) {
      message += fmt::format(" The Service {} is probably meant: {}.",
                             w.suggestion->qualified_name(), w.suggestion_reason);
    }
    if (w.namespace_differs) {
      message += fmt::format(" The CRD hard-codes namespace {}, but this release installs into {}.",
                             w.client.service_namespace, ctx.bundle.default_namespace);
    }
    std::string fix =
        w.suggestion
            ? fmt::format(
                  "Point spec.conversion.webhook.clientConfig.service at {}: `footprint "
                  "fix crds` writes the patched CRD (--service NS/NAME to choose "
                  "another).",
                  service_ref(w.suggestion->namespace_, w.suggestion->name, w.suggested_port))
            : "Point spec.conversion.webhook.clientConfig.service at the Service that serves "
              "the operator's webhooks: `footprint fix crds --service NS/NAME` writes the "
              "patched CRD.";
    Finding& f = out.add(*w.crd, conversion_severity(w), std::move(message), std::move(fix),
                         w.client.node.get("service"));
    f.summary = fmt::format(
        "CRD {}'s conversion webhook calls Service {}/{}, which nothing "
        "creates",
        w.crd->name, w.client.service_namespace, w.client.service_name);
  }
}

void run_conversion_port_mismatch(const Context& ctx, Findings& out) {
  for (const ConversionWiring& w : ctx.conversions) {
    if (!w.port_mismatch()) continue;
    Finding& f = out.add(
        *w.crd, conversion_severity(w),
        fmt::format("CRD {} calls its conversion webhook at Service {} on port {}{}, but the "
                    "Service exposes {}: the API server cannot connect. {}",
                    w.crd->name, w.backend.service->qualified_name(), w.client.port,
                    w.client.port_written ? "" : " (the default when none is written)",
                    ports_text(w.backend.ports), consequence(w)),
        fmt::format("Set spec.conversion.webhook.clientConfig.service.port to {} (`footprint "
                    "fix crds` writes the patch), or add port {} to the Service.",
                    w.suggested_port, w.client.port),
        w.client.port_written ? w.client.node.at({"service", "port"})
                              : w.client.node.get("service"));
    f.summary =
        fmt::format("CRD {}'s conversion webhook calls a port its Service lacks", w.crd->name);
  }
}

void run_conversion_ca_not_injected(const Context& ctx, Findings& out) {
  for (const ConversionWiring& w : ctx.conversions) {
    if (!w.ca_missing()) continue;
    std::string state = w.ca == CaBundleState::kPlaceholder
                            ? "a placeholder caBundle that holds no certificate"
                            : "no caBundle";
    std::string why =
        w.injection_problem.empty()
            ? "no cert-manager.io/inject-ca-from annotation asks cert-manager to fill it in"
            : w.injection_problem;
    Finding& f = out.add(
        *w.crd, conversion_severity(w),
        fmt::format("CRD {}'s conversion webhook has {}, and nothing in the bundle fills it "
                    "in: {}, and no ServiceAccount of the bundle may patch or update this "
                    "CRD. The API server verifies the webhook's serving certificate against "
                    "caBundle (its own trust roots when empty), so conversion calls fail TLS "
                    "verification unless a public CA signed it. {}",
                    w.crd->name, state, why, consequence(w)),
        "Annotate the CRD with cert-manager.io/inject-ca-from: NAMESPACE/CERTIFICATE when "
        "cert-manager issues the webhook's certificate, or set caBundle to the base64 of the "
        "CA: `footprint fix crds --ca-file ca.crt` (or --ca-from-secret secret.yaml, "
        "reading only its ca.crt) writes it.",
        w.client.node);
    f.summary =
        fmt::format("CRD {}'s conversion webhook has no CA, and nothing injects one", w.crd->name);
  }
}

void run_storage_version(const Context& ctx, Findings& out) {
  for (const Object* crd : ctx.crds) {
    if (crd->version != "v1") continue;
    yaml::Node versions = crd->node.at({"spec", "versions"});
    std::vector<std::string> storage;
    for (size_t i = 0; i < versions.size(); ++i) {
      if (versions.item(i).get("storage").str() == "true")
        storage.emplace_back(versions.item(i).get("name").str());
    }
    if (storage.size() == 1 || versions.size() == 0) continue;
    Finding& f =
        out.add(*crd, Severity::kHigh,
                fmt::format("CRD {} marks {} with storage: true; the API server needs exactly one "
                            "storage version and rejects the CRD (\"must have exactly one version "
                            "marked as storage version\").",
                            crd->name,
                            storage.empty()
                                ? std::string("no version")
                                : fmt::format("{} versions ({})", storage.size(), joined(storage))),
                "Set storage: true on exactly one version, the one existing objects are stored in.",
                crd->node.at({"spec", "versions"}));
    f.summary =
        fmt::format("The API server rejects CRD {}: not exactly one storage version", crd->name);
  }
}

void run_version_schema_missing(const Context& ctx, Findings& out) {
  for (const Object* crd : ctx.crds) {
    if (crd->version != "v1") continue;
    yaml::Node versions = crd->node.at({"spec", "versions"});
    for (size_t i = 0; i < versions.size(); ++i) {
      yaml::Node v = versions.item(i);
      if (v.at({"schema", "openAPIV3Schema"}).is_mapping()) continue;
      bool served = v.get("served").str() == "true";
      Finding& f =
          out.add(*crd, Severity::kHigh,
                  fmt::format("Version {} of CRD {}{} has no schema.openAPIV3Schema; "
                              "apiextensions.k8s.io/v1 requires one for every version and rejects "
                              "the CRD (\"schemas are required\").",
                              v.get("name").str(), crd->name, served ? " is served but" : ""),
                  "Add the version's OpenAPI v3 schema (controller-gen writes it), or remove the "
                  "version.",
                  v);
      f.summary = fmt::format("The API server rejects CRD {}: version {} has no schema", crd->name,
                              v.get("name").str());
    }
  }
}

}  // namespace

extern const Check kCrdConversionServiceMissing{
    .id = "crd-conversion-service-missing",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kCrds,
    .description = "A CRD's conversion webhook names a Service the bundle does not create.",
    .run = run_conversion_service_missing,
    .rationale =
        "A CRD with several versions converts through its webhook; a Service that does not exist "
        "fails every read or write in the other versions (the field report's conversion webhooks). "
        "High with several versions; low with one, where conversion never happens yet. When a "
        "container of the bundle applies the CRD itself with an argument that sets the conversion "
        "Service (--conversion-webhook-service-name), that Service is checked instead: low when "
        "the bundle creates it.",
    .fix = "Point the conversion webhook at the Service that serves it (`footprint fix crds`).",
    .breaks_on_install = true,
};

extern const Check kCrdConversionPortMismatch{
    .id = "crd-conversion-port-mismatch",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kCrds,
    .description = "A CRD's conversion webhook calls a port its Service does not expose.",
    .run = run_conversion_port_mismatch,
    .rationale =
        "A conversion webhook that calls a port its Service does not expose fails the same way. "
        "High with several versions; low with one.",
    .fix = "Use the Service's port (`footprint fix crds`).",
    .breaks_on_install = true,
};

extern const Check kCrdConversionCaNotInjected{
    .id = "crd-conversion-ca-not-injected",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kCrds,
    .description =
        "A CRD's conversion webhook has no caBundle and nothing in the bundle injects one.",
    .run = run_conversion_ca_not_injected,
    .rationale =
        "A conversion webhook without caBundle, and nothing that injects one, fails TLS "
        "verification. High with several versions; low with one.",
    .fix = "Inject the CA with cert-manager, or set caBundle (`footprint fix crds --ca-file`).",
    .breaks_on_install = true,
};

extern const Check kCrdStorageVersion{
    .id = "crd-storage-version",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kCrds,
    .description = "A CRD does not mark exactly one version as the storage version.",
    .run = run_storage_version,
    .rationale =
        "The API server requires exactly one storage version and rejects the CRD otherwise. High: "
        "the install fails.",
    .fix = "Mark exactly one version with storage: true.",
};

extern const Check kCrdVersionSchemaMissing{
    .id = "crd-version-schema-missing",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kCrds,
    .description = "A CRD version has no OpenAPI schema, which apiextensions.k8s.io/v1 requires.",
    .run = run_version_schema_missing,
    .rationale =
        "apiextensions.k8s.io/v1 requires a schema for every version and rejects the CRD "
        "otherwise. High: the install fails.",
    .fix = "Add the version's OpenAPI schema, or remove the version.",
};

}  // namespace footprint
