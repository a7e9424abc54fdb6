#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "analysis/context.h"
#include "analysis/models/crd_models.h"
#include "report/labels.h"
#include "report/report.h"

namespace footprint {

namespace {

std::string label(const Object& obj) {
  return obj.kind == "CustomResourceDefinition" ? obj.name : obj.display();
}

std::string ca_text(const ConversionWiring& w) {
  if (!w.injectors.empty()) return "injected by " + fmt::format("{}", fmt::join(w.injectors, "; "));
  std::string problem = w.injection_problem.empty() ? "" : " (" + w.injection_problem + ")";
  switch (w.ca) {
    case CaBundleState::kSet:
      return "caBundle written";
    case CaBundleState::kPlaceholder:
      return "! placeholder, nobody injects" + problem;
    case CaBundleState::kEmpty:
      break;
  }
  return "! none, nobody injects" + problem;
}

std::string service_text(const ConversionWiring& w) {
  if (!w.client.is_service) return w.client.url.empty() ? "(none)" : w.client.url;
  return fmt::format("{}/{}:{}", w.client.service_namespace, w.client.service_name, w.client.port);
}

std::string status_text(const ConversionWiring& w) {
  if (!w.client.is_service) return "URL";
  std::string ns_note = w.namespace_differs
                            ? fmt::format("; namespace {} hard-coded", w.client.service_namespace)
                            : "";
  if (w.service_missing()) {
    if (!w.suggestion) return "! missing, no likely Service" + ns_note;
    return fmt::format("! missing; suggest {}/{}:{}{}", w.suggestion->namespace_,
                       w.suggestion->name, w.suggested_port, ns_note);
  }
  if (w.port_mismatch()) {
    std::vector<std::string> ports;
    for (int32_t p : w.backend.ports)
      ports.push_back(std::to_string(p));
    return fmt::format("! Service exposes {}; use {}", fmt::format("{}", fmt::join(ports, ", ")),
                       w.suggested_port);
  }
  return "found";
}

Json wiring_json(const ConversionWiring& w) {
  Json j = {{"crd", w.crd->name}, {"versions", w.versions}};
  if (w.client.is_service) {
    j["service"] = {{"namespace", w.client.service_namespace},
                    {"name", w.client.service_name},
                    {"port", w.client.port}};
    j["status"] = w.service_missing() ? "missing" : w.port_mismatch() ? "port-mismatch" : "found";
    j["servicePorts"] = w.backend.ports;
    j["namespaceHardCoded"] = w.namespace_differs;
    j["suggestion"] = w.suggestion ? Json{{"namespace", w.suggestion->namespace_},
                                          {"name", w.suggestion->name},
                                          {"port", w.suggested_port},
                                          {"reason", w.suggestion_reason}}
                                   : Json(nullptr);
  } else {
    j["url"] = w.client.url;
    j["status"] = "url";
  }
  j["caBundle"] = w.ca == CaBundleState::kSet           ? "set"
                  : w.ca == CaBundleState::kPlaceholder ? "placeholder"
                                                        : "empty";
  j["caInjectors"] = w.injectors;
  if (!w.injection_problem.empty()) j["injectionProblem"] = w.injection_problem;
  return j;
}

}  // namespace

Section crds_section(const Context& ctx) {
  const Bundle& bundle = ctx.bundle;
  const std::vector<ObjectSize>& all = ctx.sizes;
  Section s;
  s.id = "crds";
  s.title = "CRDs";

  std::vector<const ObjectSize*> rows;
  size_t crds = 0;
  size_t too_large = 0;
  std::vector<std::string> unencodable;
  for (const ObjectSize& size : all) {
    bool crd = size.object->kind == "CustomResourceDefinition";
    crds += crd ? 1 : 0;
    if (crd || !size.sizes || size_needs_attention(size)) rows.push_back(&size);
    if (!size.sizes)
      unencodable.push_back(fmt::format("{} ({})", size.object->display(), size.error));
    if (size.sizes && size.sizes->annotation_bytes > kAnnotationLimit) ++too_large;
  }
  std::stable_sort(rows.begin(), rows.end(), [](const ObjectSize* a, const ObjectSize* b) {
    uint64_t ja = a->sizes ? a->sizes->json_bytes : 0;
    uint64_t jb = b->sizes ? b->sizes->json_bytes : 0;
    return ja > jb;
  });

  std::string summary = crds == 0 ? std::string("The bundle ships no CustomResourceDefinitions.")
                                  : count_of(crds, "CustomResourceDefinition") + ".";
  if (too_large > 0) {
    summary += fmt::format(
        " {} too large for client-side `kubectl apply`, whose last-applied annotation would "
        "pass the {}-byte limit on annotations: use `kubectl apply --server-side`.",
        too_large == 1 ? "1 object is" : fmt::format("{} objects are", too_large),
        with_commas(kAnnotationLimit));
  }
  if (!unencodable.empty()) {
    summary += fmt::format(" Not sized, because kubectl cannot encode them as JSON: {}.",
                           fmt::join(unencodable, "; "));
  }
  s.blocks.push_back(Block{{summary}, std::nullopt});

  Json sizes = Json::array();
  if (!rows.empty()) {
    Table t;
    t.header = {"OBJECT", "YAML", "JSON", "CLIENT-SIDE APPLY", "REQUEST", "ETCD"};
    t.right_aligned = {false, true, true, true, true, true};
    for (const ObjectSize* r : rows) {
      Json j = {{"object", object_json(*r->object)}, {"yamlBytes", r->yaml_bytes}};
      if (!r->sizes) {
        t.rows.push_back({label(*r->object), with_commas(r->yaml_bytes), "-", "-", "-", "-"});
        j["error"] = r->error;
        sizes.push_back(std::move(j));
        continue;
      }
      const ApplySizes& a = *r->sizes;
      int64_t annotations = headroom(kAnnotationLimit, a.annotation_bytes);
      int64_t request = headroom(kRequestBodyLimit, a.request_bytes);
      int64_t etcd = headroom(kEtcdRequestLimit, a.json_bytes);
      t.rows.push_back({label(*r->object), with_commas(r->yaml_bytes), with_commas(a.json_bytes),
                        signed_commas(annotations), signed_commas(request), signed_commas(etcd)});
      j["jsonBytes"] = a.json_bytes;
      j["requestBytes"] = a.request_bytes;
      j["lastAppliedAnnotationBytes"] = a.annotation_bytes;
      j["headroom"] = {{"annotations", annotations}, {"requestBody", request}, {"etcd", etcd}};
      sizes.push_back(std::move(j));
    }
    s.blocks.push_back(
        Block{{fmt::format("Sizes in bytes, largest first, and the headroom left under each limit "
                           "(negative: over it): all annotations once client-side apply adds the "
                           "last-applied configuration ({}), the request body ({}), and etcd's "
                           "default --max-request-bytes ({}).",
                           with_commas(kAnnotationLimit), with_commas(kRequestBodyLimit),
                           with_commas(kEtcdRequestLimit))},
              std::move(t)});
  }

  Json helm = nullptr;
  if (std::optional<HelmReleaseEstimate> e = helm_release_estimate(bundle)) {
    std::string amount = e->complete ? with_commas(e->estimate_bytes)
                                     : "more than " + with_commas(e->estimate_bytes);
    s.blocks.push_back(
        Block{{fmt::format("Helm release Secret, estimated from the rendered manifests (gzip, then "
                           "base64; a lower bound, since the release also stores the chart's "
                           "templates, files and values): {} of {} bytes ({}%).",
                           amount, with_commas(kHelmReleaseLimit),
                           e->estimate_bytes * 100 / kHelmReleaseLimit)},
              std::nullopt});
    helm = {{"gzipBytes", e->gzip_bytes},
            {"estimatedBytes", e->estimate_bytes},
            {"complete", e->complete},
            {"limit", kHelmReleaseLimit}};
  }

  const std::vector<ConversionWiring>& wiring = ctx.conversions;
  Json conversion = Json::array();
  if (!wiring.empty()) {
    Table t;
    t.header = {"CRD", "CONVERSION WEBHOOK", "SERVICE", "CA"};
    for (const ConversionWiring& w : wiring) {
      t.rows.push_back({w.crd->name, service_text(w), status_text(w), ca_text(w)});
      conversion.push_back(wiring_json(w));
    }
    s.blocks.push_back(
        Block{{fmt::format("Conversion webhooks: {} between versions through a "
                           "webhook. Rows marked ! fail.",
                           wiring.size() == 1 ? std::string("1 CRD converts")
                                              : fmt::format("{} CRDs convert", wiring.size()))},
              std::move(t)});
  }

  Json missing = Json::array();
  const std::vector<MissingCrd>& absent = ctx.missing_crds;
  if (!absent.empty()) {
    Block b;
    b.lines.emplace_back("CRDs the bundle needs but does not ship (the cluster must have them):");
    for (const MissingCrd& m : absent) {
      std::vector<std::string> kinds;
      Json kinds_json = Json::object();
      for (const auto& [kind, n] : m.kinds) {
        kinds.push_back(fmt::format("{} ({})", kind, n));
        kinds_json[kind] = n;
      }
      b.lines.push_back(fmt::format("- {}: {}", m.group, fmt::join(kinds, ", ")));
      missing.push_back({{"group", m.group}, {"kinds", kinds_json}});
    }
    s.blocks.push_back(std::move(b));
  }

  const HiddenFootprint& hidden = ctx.hidden;
  Json hidden_json = Json::array();
  if (!hidden.empty()) {
    Block b;
    b.lines.emplace_back(
        "Hidden footprint: CRDs can be created or changed at run time, beyond this bundle:");
    for (const std::string& line : hidden_footprint_summary(hidden))
      b.lines.push_back("- " + line);
    s.blocks.push_back(std::move(b));
    for (const CrdWriter& w : hidden.writers) {
      Json subject = {{"kind", subject_kind_name(w.subject.kind)}, {"name", w.subject.name}};
      if (!w.subject.namespace_.empty()) subject["namespace"] = w.subject.namespace_;
      Json workloads = Json::array();
      for (const Object* o : w.workloads)
        workloads.push_back(object_json(*o));
      hidden_json.push_back({{"subject", subject},
                             {"verbs", w.verbs},
                             {"via", w.via},
                             {"workloads", workloads},
                             {"crdNames", w.crd_names}});
    }
    for (const CrdInstallCommand& c : hidden.commands) {
      hidden_json.push_back({{"workload", object_json(*c.workload)},
                             {"container", c.container},
                             {"command", c.evidence},
                             {"crdNames", c.crd_names}});
    }
  }

  s.json = {{"limits",
             {{"annotations", kAnnotationLimit},
              {"requestBody", kRequestBodyLimit},
              {"etcdRequest", kEtcdRequestLimit},
              {"helmRelease", kHelmReleaseLimit}}},
            {"customResourceDefinitions", crds},
            {"sizes", sizes},
            {"helmRelease", helm},
            {"conversion", conversion},
            {"missing", missing},
            {"hiddenFootprint", hidden_json}};
  return s;
}

}  // namespace footprint
