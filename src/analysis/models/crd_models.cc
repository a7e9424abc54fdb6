// The CRD models of crd_models.h, which the Context builds once for the crd-* checks, the CRDs
// section and `footprint fix crds`.
#include "analysis/models/crd_models.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/models/ownership.h"
#include "load/base64.h"
#include "model/names.h"
#include "model/units.h"
#include "util/strings.h"

namespace footprint {

namespace {

constexpr std::string_view kCrdGroup = "apiextensions.k8s.io";
constexpr std::string_view kCrdResource = "customresourcedefinitions";

// A DNS-1123 label or subdomain, as namespaces and object names are.
bool is_dns_name(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
  });
}

}  // namespace

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
std::set<const Object*> admission_services(const Bundle& bundle,
                                           std::span<const PodTemplate> pods) {
  std::set<const Object*> out;
  for (const char* kind : {"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"}) {
    for (uint32_t index : bundle.of_kind("admissionregistration.k8s.io", kind)) {
      yaml::Node hooks = bundle.objects[index].node.get("webhooks");
      for (size_t i = 0; i < hooks.size(); ++i) {
        WebhookClient c = read_webhook_client(hooks.item(i).get("clientConfig"));
        if (const Object* svc = resolve_service(bundle, pods, c).service) out.insert(svc);
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

std::vector<ConversionWiring> conversion_wiring(const Bundle& bundle,
                                                std::span<const PodTemplate> pods,
                                                const std::vector<const Object*>& crds,
                                                const RbacPolicy& policy,
                                                const HiddenFootprint& hidden, const OwnApis& own) {
  std::vector<ConversionWiring> out;
  std::set<const Object*> admission = admission_services(bundle, pods);
  for (const Object* crd : crds) {
    if (crd->version != "v1") continue;
    yaml::Node conversion = crd->node.at({"spec", "conversion"});
    if (conversion.get("strategy").str() != "Webhook") continue;
    ConversionWiring w;
    w.crd = crd;
    yaml::Node client_config = conversion.at({"webhook", "clientConfig"});
    w.client = read_webhook_client(client_config);
    w.backend = resolve_service(bundle, pods, w.client);
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
          target = resolve_service(bundle, pods, at);
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
    // Commands that name no CRD files apply what they embed: the install's own CRDs.
    for (const CrdInstallCommand& c : hidden.commands) {
      bool applies = c.crd_names.empty() ? own.owns(crd->node.at({"spec", "group"}).str())
                                         : contains(c.crd_names, crd->name);
      if (!applies || c.conversion_service_name.empty()) continue;
      w.rewriter = &c;
      w.rewritten_service =
          bundle.find("", "Service", c.conversion_service_namespace, c.conversion_service_name);
      break;
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
    std::string lowered = lower(token);
    bool about_crds = lowered.find("crd") != std::string::npos ||
                      lowered.find("customresourcedefinition") != std::string::npos;
    if (!about_crds || lowered.ends_with("=false") || lowered.ends_with("=0")) continue;
    installs = installs || has_verb(lowered) || verb_word;
  }
  for (const std::string& token : tokens) {
    std::string name = crd_name_from_file(token);
    if (!name.empty() &&
        std::find(cmd.crd_names.begin(), cmd.crd_names.end(), name) == cmd.crd_names.end()) {
      cmd.crd_names.push_back(name);
    }
  }
  if (!installs) return std::nullopt;
  for (size_t i = 0; i < tokens.size(); ++i) {
    std::string_view token = tokens[i];
    size_t eq = token.find('=');
    std::string_view flag = token.substr(0, eq);
    std::string value = eq != std::string_view::npos ? std::string(token.substr(eq + 1))
                        : i + 1 < tokens.size()      ? tokens[i + 1]
                                                     : std::string();
    if (flag == "--conversion-webhook-service-name") cmd.conversion_service_name = value;
    if (flag == "--conversion-webhook-service-namespace" && !value.empty())
      cmd.conversion_service_namespace = value;
  }
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

}  // namespace

HiddenFootprint find_hidden_footprint(const Bundle& bundle, const RbacPolicy& policy,
                                      const std::vector<PodTemplate>& pods) {
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
    for (const PodTemplate& t : pods) {
      if (t.owner->namespace_ == subject.namespace_ && service_account_of(t.spec) == subject.name &&
          std::find(w.workloads.begin(), w.workloads.end(), t.owner) == w.workloads.end()) {
        w.workloads.push_back(t.owner);
      }
    }
  }
  for (auto& [subject, w] : writers) {
    if (w.anchor) out.writers.push_back(std::move(w));
  }
  for (const PodTemplate& t : pods) {
    for_each_container(t.spec, [&](const yaml::Node& container) {
      if (auto cmd = crd_install_command(container)) {
        cmd->workload = t.owner;
        if (cmd->conversion_service_namespace.empty())
          cmd->conversion_service_namespace = t.owner->namespace_;
        out.commands.push_back(std::move(*cmd));
      }
    });
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

}  // namespace footprint
