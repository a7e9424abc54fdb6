// CRD checks: object sizes against the limits of the install path, conversion webhooks, CRD
// versions, and CRDs installed at run time.
#include "analysis/crds.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/check.h"
#include "load/base64.h"
#include "load/parallel.h"
#include "model/names.h"
#include "model/units.h"

namespace footprint {

namespace {

constexpr std::string_view kCrdGroup = "apiextensions.k8s.io";
constexpr std::string_view kCrdResource = "customresourcedefinitions";

std::string percent_of(uint64_t value, uint64_t limit) {
  return fmt::format("{}%", value * 100 / limit);
}

std::string joined(const std::vector<std::string>& items, std::string_view separator = ", ") {
  return fmt::format("{}", fmt::join(items, separator));
}

std::string ports_text(const std::vector<int32_t>& ports) {
  if (ports.empty()) return "no ports";
  std::vector<std::string> items;
  for (int32_t p : ports)
    items.push_back(std::to_string(p));
  return (ports.size() == 1 ? "port " : "ports ") + joined(items);
}

// A DNS-1123 label or subdomain, as namespaces and object names are.
bool is_dns_name(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
  });
}

}  // namespace

bool near_limit(uint64_t value, uint64_t limit) {
  return value * 100 >= limit * kNearPercent;
}

int32_t conversion_port(const ServiceBackend& backend, int32_t written) {
  if (backend.ports.empty()) return written;
  if (std::find(backend.ports.begin(), backend.ports.end(), written) != backend.ports.end()) {
    return written;
  }
  if (std::find(backend.ports.begin(), backend.ports.end(), 443) != backend.ports.end()) {
    return 443;
  }
  return backend.ports.front();
}

std::vector<ObjectSize> object_sizes(const Bundle& bundle) {
  // Counting every object as JSON is the largest part of the analysis; objects are independent.
  std::vector<ObjectSize> out(bundle.objects.size());
  parallel_for(out.size(), bundle.input.jobs, [&](size_t i) {
    const Object& obj = bundle.objects[i];
    ObjectSize& s = out[i];
    s.object = &obj;
    s.yaml_bytes = obj.yaml_bytes;
    auto sizes = apply_sizes(obj);
    if (sizes) {
      s.sizes = *sizes;
    } else {
      s.error = fmt::format("line {}: {}", sizes.error().position.line, sizes.error().message);
    }
  });
  return out;
}

bool size_needs_attention(const ObjectSize& s) {
  if (!s.sizes) return false;
  return near_limit(s.sizes->annotation_bytes, kAnnotationLimit) ||
         near_limit(s.sizes->request_bytes, kRequestBodyLimit) ||
         near_limit(s.sizes->json_bytes, kEtcdRequestLimit);
}

std::optional<HelmReleaseEstimate> helm_release_estimate(const Bundle& bundle) {
  std::optional<HelmReleaseEstimate> out;
  for (const std::optional<GzipSize>& g : bundle.input.helm_gzip) {
    if (!g) continue;
    if (!out) out = HelmReleaseEstimate{};
    out->gzip_bytes += g->bytes;
    out->complete = out->complete && g->complete;
  }
  if (out) out->estimate_bytes = (out->gzip_bytes + 2) / 3 * 4;
  return out;
}

std::vector<const Object*> effective_crds(const Bundle& bundle) {
  std::map<std::string, const Object*> last;
  std::vector<std::string> order;
  for (uint32_t index : bundle.of_kind(kCrdGroup, "CustomResourceDefinition")) {
    const Object& crd = bundle.objects[index];
    if (!last.contains(crd.name)) order.push_back(crd.name);
    last[crd.name] = &crd;
  }
  std::vector<const Object*> out;
  for (const std::string& name : order)
    out.push_back(last[name]);
  std::sort(out.begin(), out.end(),
            [](const Object* a, const Object* b) { return a->index < b->index; });
  return out;
}

namespace {

CaBundleState ca_bundle_state(const yaml::Node& client_config) {
  std::string_view written = client_config.get("caBundle").str();
  if (written.empty()) return CaBundleState::kEmpty;
  auto decoded = base64_decode(written);
  // kubebuilder scaffolds caBundle: Cg== (a newline) for an injector to replace.
  bool pem = decoded && decoded->find("-----BEGIN CERTIFICATE-----") != std::string::npos;
  return pem ? CaBundleState::kSet : CaBundleState::kPlaceholder;
}

// Services that the bundle's admission webhooks call.
std::set<const Object*> admission_services(const Bundle& bundle) {
  std::set<const Object*> out;
  for (const char* kind : {"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"}) {
    for (uint32_t index : bundle.of_kind("admissionregistration.k8s.io", kind)) {
      yaml::Node hooks = bundle.objects[index].node.get("webhooks");
      for (size_t i = 0; i < hooks.size(); ++i) {
        WebhookClient c = read_webhook_client(hooks.item(i).get("clientConfig"));
        if (const Object* svc = resolve_service(bundle, c).service) out.insert(svc);
      }
    }
  }
  return out;
}

// The Service a reference to a missing one most likely means. Conversion and admission
// webhooks are usually served by the same server, so a Service the admission webhooks call
// comes first; then one whose name ends with the written name (charts prefix the release
// name); then a near miss.
void suggest(const Bundle& bundle, const std::set<const Object*>& admission, ConversionWiring& w) {
  std::vector<const Object*> ranked = similar_services(bundle, w.client.service_name);
  for (const Object* svc : ranked) {
    if (admission.contains(svc)) {
      w.suggestion = svc;
      w.suggestion_reason = "the bundle's admission webhooks call it";
      return;
    }
  }
  for (const Object* svc : ranked) {
    if (std::string_view(svc->name).ends_with(w.client.service_name)) {
      w.suggestion = svc;
      w.suggestion_reason = fmt::format("its name ends with {}", w.client.service_name);
      return;
    }
  }
  size_t tolerance = std::max<size_t>(3, w.client.service_name.size() / 4);
  if (!ranked.empty() && edit_distance(ranked.front()->name, w.client.service_name) <= tolerance) {
    w.suggestion = ranked.front();
    w.suggestion_reason = "it has the closest name";
  }
}

// cert-manager's CA injector reads inject-ca-from as "namespace/certificate"; an unsubstituted
// kustomize variable such as $(CERTIFICATE_NAMESPACE)/$(CERTIFICATE_NAME) names nothing.
std::string injection_problem(const Object& crd) {
  std::string_view from = crd.annotation("cert-manager.io/inject-ca-from");
  if (from.empty()) return "";
  size_t slash = from.find('/');
  if (slash != std::string_view::npos && is_dns_name(from.substr(0, slash)) &&
      is_dns_name(from.substr(slash + 1))) {
    return "";
  }
  if (from.find("$(") != std::string_view::npos) {
    return fmt::format(
        "its cert-manager.io/inject-ca-from value \"{}\" is an unsubstituted kustomize variable, "
        "so cert-manager injects nothing",
        from);
  }
  return fmt::format(
      "its cert-manager.io/inject-ca-from value \"{}\" is not namespace/certificate, so "
      "cert-manager injects nothing",
      from);
}

}  // namespace

std::vector<ConversionWiring> conversion_wiring(const Bundle& bundle, const RbacPolicy& policy) {
  std::vector<ConversionWiring> out;
  std::set<const Object*> admission = admission_services(bundle);
  for (const Object* crd : effective_crds(bundle)) {
    if (crd->version != "v1") continue;
    yaml::Node conversion = crd->node.at({"spec", "conversion"});
    if (conversion.get("strategy").str() != "Webhook") continue;
    ConversionWiring w;
    w.crd = crd;
    yaml::Node client_config = conversion.at({"webhook", "clientConfig"});
    w.client = read_webhook_client(client_config);
    w.backend = resolve_service(bundle, w.client);
    yaml::Node versions = crd->node.at({"spec", "versions"});
    w.versions = versions.size();
    for (size_t i = 0; i < versions.size(); ++i) {
      if (versions.item(i).get("storage").str() == "true")
        w.storage_version = std::string(versions.item(i).get("name").str());
    }
    if (w.client.is_service) {
      w.namespace_differs = w.client.service_namespace != bundle.default_namespace;
      if (!w.backend.service) suggest(bundle, admission, w);
      if (const Object* svc = w.target_service()) {
        ServiceBackend target = w.backend;
        if (!w.backend.service) {
          WebhookClient at = w.client;
          at.service_namespace = svc->namespace_;
          at.service_name = svc->name;
          target = resolve_service(bundle, at);
        }
        w.suggested_port = conversion_port(target, w.client.port);
      }
    }
    w.ca = ca_bundle_state(client_config);
    w.injectors = ca_injectors(*crd, policy);
    w.injection_problem = injection_problem(*crd);
    if (!w.injection_problem.empty()) {
      std::erase_if(w.injectors, [](const std::string& who) {
        return who.starts_with("cert-manager's CA injector, from Certificate");
      });
    }
    out.push_back(std::move(w));
  }
  return out;
}

std::vector<MissingCrd> missing_crds(const Bundle& bundle) {
  std::map<std::string, std::map<std::string, uint32_t>> groups;
  for (const Object& obj : bundle.objects) {
    if (obj.scope != Scope::kUnknown || bundle.resources.is_builtin_group(obj.group)) continue;
    ++groups[obj.group][obj.kind];
  }
  std::vector<MissingCrd> out;
  for (const auto& [group, kinds] : groups)
    out.push_back(MissingCrd{group, {kinds.begin(), kinds.end()}});
  return out;
}

bool CrdWriter::creates() const {
  return std::find(verbs.begin(), verbs.end(), "create") != verbs.end();
}

namespace {

// "nvidia.com_clusterpolicies.yaml" -> "clusterpolicies.nvidia.com", controller-gen's file name.
std::string crd_name_from_file(std::string_view token) {
  size_t slash = token.find_last_of("/=");
  std::string_view base = slash == std::string_view::npos ? token : token.substr(slash + 1);
  for (std::string_view ext : {".yaml", ".yml", ".json"}) {
    if (!base.ends_with(ext)) continue;
    base.remove_suffix(ext.size());
    size_t underscore = base.rfind('_');
    if (underscore == std::string_view::npos) return "";
    std::string_view group = base.substr(0, underscore);
    std::string_view plural = base.substr(underscore + 1);
    if (group.find('.') == std::string_view::npos || !is_dns_name(group) || !is_dns_name(plural))
      return "";
    return fmt::format("{}.{}", plural, group);
  }
  return "";
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A container installs CRDs when an argument names CRDs together with an installing verb
// (-manage-crds=true, /usr/bin/manage-crds apply, kubectl apply -f crds/), and is not a switch
// turned off (--crdWatcher=false, --install-crds=false).
std::optional<CrdInstallCommand> crd_install_command(const yaml::Node& container) {
  std::vector<std::string> tokens;
  for (const char* field : {"command", "args"}) {
    yaml::Node list = container.get(field);
    for (size_t i = 0; i < list.size(); ++i) {
      std::string_view arg = list.item(i).str();
      size_t start = 0;
      while (start < arg.size()) {  // shell scripts in `sh -c` arguments
        size_t end = arg.find_first_of(" \t\n;&|", start);
        if (end == std::string_view::npos) end = arg.size();
        if (end > start) tokens.emplace_back(arg.substr(start, end - start));
        start = end + 1;
      }
    }
  }
  static constexpr std::string_view kVerbs[] = {"install", "manage", "apply", "upgrade",
                                                "create",  "update", "sync",  "ensure"};
  auto has_verb = [](std::string_view s) {
    return std::any_of(std::begin(kVerbs), std::end(kVerbs),
                       [&](std::string_view v) { return s.find(v) != std::string_view::npos; });
  };
  bool verb_word = std::any_of(tokens.begin(), tokens.end(), [](const std::string& t) {
    return t == "apply" || t == "create" || t == "install" || t == "upgrade" || t == "replace";
  });
  CrdInstallCommand cmd;
  bool installs = false;
  for (const std::string& token : tokens) {
    std::string lower = lowercase(token);
    bool about_crds = lower.find("crd") != std::string::npos ||
                      lower.find("customresourcedefinition") != std::string::npos;
    if (!about_crds || lower.ends_with("=false") || lower.ends_with("=0")) continue;
    installs = installs || has_verb(lower) || verb_word;
  }
  for (const std::string& token : tokens) {
    std::string name = crd_name_from_file(token);
    if (!name.empty() &&
        std::find(cmd.crd_names.begin(), cmd.crd_names.end(), name) == cmd.crd_names.end()) {
      cmd.crd_names.push_back(name);
    }
  }
  if (!installs) return std::nullopt;
  cmd.container = std::string(container.get("name").str());
  std::string line = joined(tokens, " ");
  constexpr size_t kMaxShown = 160;
  cmd.evidence = line.size() > kMaxShown ? line.substr(0, kMaxShown) + " ..." : line;
  return cmd;
}

Subject normalized(const Subject& s, const RbacBinding& b) {
  Subject out = s;
  if (out.kind == SubjectKind::kServiceAccount && out.namespace_.empty())
    out.namespace_ = b.namespace_;
  return out;
}

void add_unique(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

}  // namespace

HiddenFootprint find_hidden_footprint(const Bundle& bundle, const RbacPolicy& policy) {
  HiddenFootprint out;
  std::map<Subject, CrdWriter> writers;
  for (const char* verb : {"create", "update", "patch"}) {
    Request request;
    request.verb = verb;
    request.api_group = kCrdGroup;
    request.resource = kCrdResource;
    for (const RbacPolicy::Grant& g : policy.who_can(request)) {
      if (g.binding->builtin()) continue;
      Subject s = normalized(g.subject, *g.binding);
      CrdWriter& w = writers[s];
      w.subject = s;
      add_unique(w.verbs, verb);
      add_unique(w.via, g.binding->display());
      if (!w.anchor) w.anchor = g.binding->object;
    }
  }
  std::vector<PodTemplate> templates = pod_templates(bundle);
  for (auto& entry : writers) {
    const Subject& subject = entry.first;
    CrdWriter& w = entry.second;
    // The CRDs its rules name, such as update limited to its own CRDs.
    for (const RbacBinding& b : policy.bindings()) {
      if (b.builtin() || !b.role) continue;
      bool bound = std::any_of(b.subjects.begin(), b.subjects.end(),
                               [&](const Subject& s) { return normalized(s, b) == subject; });
      if (!bound) continue;
      for (const PolicyRule& rule : b.role->rules) {
        if (api_group_matches(rule, kCrdGroup) && resource_matches(rule, kCrdResource, "")) {
          for (const std::string& name : rule.resource_names)
            add_unique(w.crd_names, name);
        }
      }
    }
    if (subject.kind != SubjectKind::kServiceAccount) continue;
    if (const Object* sa = bundle.find("", "ServiceAccount", subject.namespace_, subject.name))
      w.anchor = sa;
    for (const PodTemplate& t : templates) {
      std::string_view account = t.spec.get("serviceAccountName").str();
      if (account.empty()) account = t.spec.get("serviceAccount").str();
      if (account.empty()) account = "default";
      if (t.owner->namespace_ == subject.namespace_ && account == subject.name &&
          std::find(w.workloads.begin(), w.workloads.end(), t.owner) == w.workloads.end()) {
        w.workloads.push_back(t.owner);
      }
    }
  }
  for (auto& [subject, w] : writers) {
    if (w.anchor) out.writers.push_back(std::move(w));
  }
  for (const PodTemplate& t : templates) {
    for (const char* field : {"initContainers", "containers"}) {
      yaml::Node containers = t.spec.get(field);
      for (size_t i = 0; i < containers.size(); ++i) {
        if (auto cmd = crd_install_command(containers.item(i))) {
          cmd->workload = t.owner;
          out.commands.push_back(std::move(*cmd));
        }
      }
    }
  }
  return out;
}

std::vector<std::string> hidden_footprint_summary(const HiddenFootprint& hidden) {
  std::vector<std::string> out;
  for (const CrdWriter& w : hidden.writers) {
    std::string runs;
    if (!w.workloads.empty()) {
      std::vector<std::string> names;
      for (const Object* o : w.workloads)
        names.push_back(o->display());
      runs = fmt::format(" ({} run{} as it)", joined(names), w.workloads.size() == 1 ? "s" : "");
    }
    out.push_back(fmt::format(
        "{}{} may {} any CustomResourceDefinition: {}.", w.subject.display(), runs, joined(w.verbs),
        w.creates() ? "CRDs beyond this bundle can appear at run time"
                    : "CRDs of the cluster, not only this bundle's, can change"));
  }
  for (const CrdInstallCommand& c : hidden.commands) {
    out.push_back(fmt::format("{} (container {}) installs CRDs at run time: `{}`.",
                              c.workload->display(), c.container, c.evidence));
  }
  return out;
}

// --- Checks -------------------------------------------------------------------------------

namespace {

void run_too_large_for_client_side_apply(const Context& ctx, Findings& out) {
  for (const ObjectSize& s : ctx.sizes) {
    if (!s.sizes || !near_limit(s.sizes->annotation_bytes, kAnnotationLimit)) continue;
    const Object& obj = *s.object;
    bool over = s.sizes->annotation_bytes > kAnnotationLimit;
    std::string what = fmt::format(
        "{} is {} bytes as JSON. Client-side `kubectl apply` copies the whole object into the "
        "annotation {}, which brings its annotations to {} bytes",
        obj.display(), with_commas(s.sizes->json_bytes), kLastAppliedAnnotation,
        with_commas(s.sizes->annotation_bytes));
    if (over) {
      Finding& f = out.add(
          obj, Severity::kHigh,
          fmt::format("{}, over the API server's limit of {} bytes for all annotations: the "
                      "apply fails with \"metadata.annotations: Too long: must have at most "
                      "{} bytes\". Helm and server-side apply do not write this annotation.",
                      what, with_commas(kAnnotationLimit), kAnnotationLimit),
          "Apply it with `kubectl apply --server-side` (add --force-conflicts when it was "
          "applied client-side before), or create it with `kubectl create` and change it "
          "with `kubectl replace`.");
      f.summary = fmt::format("{} is too large for client-side kubectl apply: use --server-side",
                              obj.display());
    } else {
      Finding& f = out.add(
          obj, Severity::kLow,
          fmt::format("{}, {} of the API server's {}-byte limit: a little growth in a later "
                      "version will make client-side apply fail.",
                      what, percent_of(s.sizes->annotation_bytes, kAnnotationLimit),
                      with_commas(kAnnotationLimit)),
          "Apply it with `kubectl apply --server-side` from now on.");
      f.summary = fmt::format("{} is near the limit of client-side kubectl apply", obj.display());
    }
  }
}

void run_request_size_limit(const Context& ctx, Findings& out) {
  for (const ObjectSize& s : ctx.sizes) {
    if (!s.sizes || !near_limit(s.sizes->request_bytes, kRequestBodyLimit)) continue;
    bool over = s.sizes->request_bytes > kRequestBodyLimit;
    std::string what = fmt::format("{} is {} bytes as a request body", s.object->display(),
                                   with_commas(s.sizes->request_bytes));
    std::string fix =
        "Shrink the object: generate the CRD without schema descriptions (controller-gen "
        "crd:maxDescLen=0) or drop versions nobody serves; there is no client-side way around "
        "the limit.";
    if (over) {
      Finding& f = out.add(
          *s.object, Severity::kHigh,
          fmt::format("{}; the API server rejects any write over {} bytes (\"Request entity "
                      "too large: limit is {}\"), whatever the client, so it cannot be "
                      "installed.",
                      what, with_commas(kRequestBodyLimit), kRequestBodyLimit),
          fix);
      f.summary = fmt::format(
          "{} is over the API server's 3 MiB request limit: it cannot be "
          "installed",
          s.object->display());
    } else {
      Finding& f =
          out.add(*s.object, Severity::kLow,
                  fmt::format("{}, {} of the API server's {}-byte limit on request bodies: a later "
                              "version that grows a little cannot be installed at all.",
                              what, percent_of(s.sizes->request_bytes, kRequestBodyLimit),
                              with_commas(kRequestBodyLimit)),
                  fix);
      f.summary =
          fmt::format("{} is near the API server's 3 MiB request limit", s.object->display());
    }
  }
}

void run_etcd_size_limit(const Context& ctx, Findings& out) {
  for (const ObjectSize& s : ctx.sizes) {
    if (!s.sizes || !near_limit(s.sizes->json_bytes, kEtcdRequestLimit)) continue;
    bool over = s.sizes->json_bytes > kEtcdRequestLimit;
    Finding& f = out.add(
        *s.object, over ? Severity::kMedium : Severity::kLow,
        fmt::format("{} is {} bytes as JSON, {} of etcd's default --max-request-bytes of {}. "
                    "The stored object is of that order (the API server's storage encoding "
                    "is more compact, but managedFields add to it); over the cluster's "
                    "setting, the write fails with \"etcdserver: request is too large\".",
                    s.object->display(), with_commas(s.sizes->json_bytes),
                    percent_of(s.sizes->json_bytes, kEtcdRequestLimit),
                    with_commas(kEtcdRequestLimit)),
        "Check the cluster's value: the --max-request-bytes flag of etcd (in kubeadm "
        "clusters /etc/kubernetes/manifests/etcd.yaml; managed clusters keep the default). "
        "Raise it, or shrink the object (schema descriptions, unused versions).");
    f.summary = fmt::format("{} is {} etcd's default request limit", s.object->display(),
                            over ? "over" : "near");
  }
}

void run_helm_release_too_large(const Context& ctx, Findings& out) {
  std::optional<HelmReleaseEstimate> estimate = helm_release_estimate(ctx.bundle);
  if (!estimate || !near_limit(estimate->estimate_bytes, kHelmReleaseLimit)) return;
  if (ctx.bundle.objects.empty()) return;
  const Object* largest = &ctx.bundle.objects.front();
  for (const Object& obj : ctx.bundle.objects) {
    if (obj.yaml_bytes > largest->yaml_bytes) largest = &obj;
  }
  bool over = estimate->estimate_bytes > kHelmReleaseLimit;
  std::string amount =
      estimate->complete
          ? fmt::format("about {} bytes that way ({} gzipped)",
                        with_commas(estimate->estimate_bytes), with_commas(estimate->gzip_bytes))
          : fmt::format("more than {} bytes that way (footprint stopped compressing there)",
                        with_commas(estimate->estimate_bytes));
  Finding& f = out.add(
      *largest, over ? Severity::kHigh : Severity::kMedium,
      fmt::format("The bundle was rendered by Helm, which stores the release gzipped and "
                  "base64-encoded in a Secret of at most {} bytes. The rendered manifests "
                  "alone come to {}, {} of the limit. This is an estimate and a lower bound: "
                  "the release also holds the chart's templates, files and values. {} The "
                  "largest object is {} ({} bytes of YAML).",
                  with_commas(kHelmReleaseLimit), amount,
                  percent_of(estimate->estimate_bytes, kHelmReleaseLimit),
                  over ? "helm install fails with \"data: Too long: must have at most "
                         "1048576 bytes\"."
                       : "A little growth makes helm install fail.",
                  largest->display(), with_commas(largest->yaml_bytes)),
      "Install the CRDs separately (`kubectl apply --server-side`, or a chart of their own) "
      "and keep them out of this chart, including its crds/ directory, which Helm stores in "
      "the release too; or split the chart.");
  f.summary = over ? "helm install fails: the release is over Helm's 1 MiB Secret limit"
                   : "The Helm release is near Helm's 1 MiB Secret limit";
}

}  // namespace

extern const Check kCrdTooLargeForClientSideApply{
    "crd-too-large-for-client-side-apply",
    Severity::kLow,
    Severity::kHigh,
    Impact::kInstall,
    "crds",
    "An object is too large for client-side kubectl apply's last-applied annotation (256 KiB).",
    run_too_large_for_client_side_apply,
    "Client-side kubectl apply stores the whole object in the last-applied-configuration "
    "annotation, and all annotations together may not exceed 262,144 bytes; larger CRDs fail to "
    "apply that way (Helm and server-side apply do not write the annotation). High over the limit; "
    "low from 90 % of it.",
    "Apply with kubectl apply --server-side.",
    /*breaks_on_install=*/true};

extern const Check kCrdRequestSizeLimit{
    "crd-request-size-limit",
    Severity::kLow,
    Severity::kHigh,
    Impact::kInstall,
    "crds",
    "An object is over or near the API server's 3 MiB limit on request bodies.",
    run_request_size_limit,
    "The API server rejects request bodies over 3 MiB whatever the client, so such an object "
    "cannot be installed at all. High over the limit; low from 90 % of it.",
    "Shrink the object (drop schema descriptions or unused versions).",
    /*breaks_on_install=*/true};

extern const Check kCrdEtcdSizeLimit{
    "crd-etcd-size-limit",
    Severity::kLow,
    Severity::kMedium,
    Impact::kInstall,
    "crds",
    "An object is over or near etcd's default 1.5 MiB --max-request-bytes.",
    run_etcd_size_limit,
    "etcd's default --max-request-bytes is 1.5 MiB; a stored object near that size fails to write "
    "on clusters that keep the default. Medium over it; low from 90 %.",
    "Check the cluster's etcd setting, or shrink the object.",
    /*breaks_on_install=*/true};

extern const Check kHelmReleaseTooLarge{
    "helm-release-too-large",
    Severity::kMedium,
    Severity::kHigh,
    Impact::kInstall,
    "crds",
    "Helm's release Secret (1 MiB) is estimated to be over or near its limit.",
    run_helm_release_too_large,
    "Helm stores each release gzipped and base64-encoded in a Secret of at most 1 MiB; the "
    "estimate from the rendered manifests is a lower bound. High over the limit (helm install "
    "fails); medium from 90 %.",
    "Install the CRDs separately and keep them out of the chart, or split the chart."};

namespace {

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

void run_conversion_service_missing(const Context& ctx, Findings& out) {
  for (const ConversionWiring& w : conversion_wiring(ctx.bundle, ctx.rbac)) {
    if (!w.service_missing()) continue;
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
  for (const ConversionWiring& w : conversion_wiring(ctx.bundle, ctx.rbac)) {
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
  for (const ConversionWiring& w : conversion_wiring(ctx.bundle, ctx.rbac)) {
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
  for (const Object* crd : effective_crds(ctx.bundle)) {
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
  for (const Object* crd : effective_crds(ctx.bundle)) {
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
    "crd-conversion-service-missing",
    Severity::kLow,
    Severity::kHigh,
    Impact::kInstall,
    "crds",
    "A CRD's conversion webhook names a Service the bundle does not create.",
    run_conversion_service_missing,
    "A CRD with several versions converts through its webhook; a Service that does not exist fails "
    "every read or write in the other versions (the field report's conversion webhooks). High with "
    "several versions; low with one, where conversion never happens yet.",
    "Point the conversion webhook at the Service that serves it (`footprint fix crds`).",
    /*breaks_on_install=*/true};

extern const Check kCrdConversionPortMismatch{
    "crd-conversion-port-mismatch",
    Severity::kLow,
    Severity::kHigh,
    Impact::kInstall,
    "crds",
    "A CRD's conversion webhook calls a port its Service does not expose.",
    run_conversion_port_mismatch,
    "A conversion webhook that calls a port its Service does not expose fails the same way. High "
    "with several versions; low with one.",
    "Use the Service's port (`footprint fix crds`).",
    /*breaks_on_install=*/true};

extern const Check kCrdConversionCaNotInjected{
    "crd-conversion-ca-not-injected",
    Severity::kLow,
    Severity::kHigh,
    Impact::kInstall,
    "crds",
    "A CRD's conversion webhook has no caBundle and nothing in the bundle injects one.",
    run_conversion_ca_not_injected,
    "A conversion webhook without caBundle, and nothing that injects one, fails TLS verification. "
    "High with several versions; low with one.",
    "Inject the CA with cert-manager, or set caBundle (`footprint fix crds --ca-file`).",
    /*breaks_on_install=*/true};

extern const Check kCrdStorageVersion{
    "crd-storage-version",
    Severity::kHigh,
    Severity::kHigh,
    Impact::kInstall,
    "crds",
    "A CRD does not mark exactly one version as the storage version.",
    run_storage_version,
    "The API server requires exactly one storage version and rejects the CRD otherwise. High: the "
    "install fails.",
    "Mark exactly one version with storage: true."};

extern const Check kCrdVersionSchemaMissing{
    "crd-version-schema-missing",
    Severity::kHigh,
    Severity::kHigh,
    Impact::kInstall,
    "crds",
    "A CRD version has no OpenAPI schema, which apiextensions.k8s.io/v1 requires.",
    run_version_schema_missing,
    "apiextensions.k8s.io/v1 requires a schema for every version and rejects the CRD otherwise. "
    "High: the install fails.",
    "Add the version's OpenAPI schema, or remove the version."};

namespace {

std::string workload_list(const std::vector<const Object*>& workloads) {
  std::vector<std::string> names;
  for (const Object* o : workloads)
    names.push_back(o->display());
  return joined(names);
}

std::string command_text(const CrdInstallCommand& c) {
  return fmt::format("{}'s container {} runs `{}`", c.workload->display(), c.container, c.evidence);
}

// One finding per ServiceAccount that may write CRDs, naming the workloads that run as it and
// what their containers run; then workloads whose containers install CRDs without that right.
// The CRD names beyond the bundle's own CRDs, which are what the bundle does not show.
std::string unshipped(const Bundle& bundle, const std::vector<std::string>& names) {
  std::vector<std::string> hidden;
  for (const std::string& n : names) {
    if (!bundle.find("apiextensions.k8s.io", "CustomResourceDefinition", "", n))
      hidden.push_back(n);
  }
  if (hidden.empty()) return "";
  constexpr size_t kShown = 10;
  std::vector<std::string> shown(
      hidden.begin(), hidden.begin() + static_cast<long>(std::min(kShown, hidden.size())));
  std::string more =
      hidden.size() > kShown ? fmt::format(" and {} more", hidden.size() - kShown) : "";
  return fmt::format(" CRDs it names that the bundle does not ship ({}): {}{}.", hidden.size(),
                     joined(shown), more);
}

void run_installed_at_runtime(const Context& ctx, Findings& out) {
  HiddenFootprint hidden = find_hidden_footprint(ctx.bundle, ctx.rbac);
  std::set<const CrdInstallCommand*> reported;
  for (const CrdWriter& w : hidden.writers) {
    std::vector<std::string> parts;
    std::vector<std::string> names = w.crd_names;
    bool installs = w.creates();
    // Rewriting existing CRDs without creating any is rbac-crd-write's.
    parts.push_back(w.workloads.empty() ? std::string("no workload of the bundle runs as it")
                                        : fmt::format("{} run{} as it", workload_list(w.workloads),
                                                      w.workloads.size() == 1 ? "s" : ""));
    for (const CrdInstallCommand& c : hidden.commands) {
      if (std::find(w.workloads.begin(), w.workloads.end(), c.workload) == w.workloads.end())
        continue;
      reported.insert(&c);
      installs = true;
      parts.push_back(command_text(c));
      for (const std::string& n : c.crd_names)
        add_unique(names, n);
    }
    if (!installs) continue;
    std::string named = unshipped(ctx.bundle, names);
    Finding& f = out.add(
        *w.anchor, Severity::kMedium,
        fmt::format("{} may {} any CustomResourceDefinition (through {}); {}. {}{}",
                    w.subject.display(), joined(w.verbs), joined(w.via), joined(parts, "; "),
                    "CRDs can be installed or upgraded at run time, so the cluster-scoped "
                    "footprint is larger than this bundle shows: they become cluster-wide "
                    "APIs every tenant shares.",
                    named),
        "Install the CRDs yourself from the project's release, turn the operator's CRD "
        "management off (its flag or chart value), and drop create on "
        "customresourcedefinitions from its role.");
    f.summary =
        fmt::format("{} installs CRDs at run time, beyond this bundle", w.subject.display());
  }
  for (const CrdInstallCommand& c : hidden.commands) {
    if (reported.contains(&c)) continue;
    std::string named = unshipped(ctx.bundle, c.crd_names);
    Finding& f =
        out.add(*c.workload, Severity::kMedium,
                fmt::format("{}, which installs CRDs, though no role of the bundle lets its "
                            "ServiceAccount create them: it relies on rights granted outside the "
                            "bundle (a larger footprint than shown), or the step fails.{}",
                            command_text(c), named),
                "Install the CRDs yourself from the project's release and turn this step off.");
    f.summary =
        fmt::format("{} installs CRDs at run time, beyond this bundle", c.workload->display());
  }
}

}  // namespace

extern const Check kCrdInstalledAtRuntime{
    "crd-installed-at-runtime",
    Severity::kMedium,
    Severity::kMedium,
    Impact::kOtherTeams,
    "crds",
    "A workload of the bundle may create or change CRDs at run time, beyond the bundle.",
    run_installed_at_runtime,
    "A workload whose account may create CRDs, or whose container runs a CRD installer, adds "
    "cluster-wide APIs every tenant shares beyond what the bundle shows. Medium.",
    "Install the CRDs yourself and turn the operator's CRD management off."};

}  // namespace footprint
