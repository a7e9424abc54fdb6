// Whether the control plane of --provider can reach the pods behind webhooks, APIServices and
// CRD conversion webhooks: managed API servers dial the endpoint pod on the Service's targetPort,
// so the pod port must be one their network lets through (and on an overlay CNI, the pod must be
// on the node's network). Also: a host-network backend on the kubelet's port, and AKS's
// admissions enforcer, which rewrites every webhook's namespaceSelector. Sources:
// ../shared/research/delivery-paths.md, section 2; docs/providers.md.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "analysis/context.h"
#include "analysis/models/control_plane.h"
#include "analysis/models/webhook_reach.h"

namespace footprint {

namespace {

constexpr int32_t kKubeletPort = 10250;
constexpr std::string_view kEnforcerAnnotation = "admissions.enforcer/disabled";

// The webhooks that reject what they match when their backend cannot be called.
bool fail_closed(const WebhookSummary& s) {
  return s.webhook->client.is_service && s.backend.service &&
         s.webhook->failure_policy == FailurePolicy::kFail && !s.reach.matches_nothing();
}

std::string port_text(const PodPort& p) {
  return p.name.empty() ? std::to_string(p.number) : fmt::format("{} ({})", p.number, p.name);
}

// What the provider's control plane reaches, said after "On <provider> ".
std::string control_plane_reach(Provider provider) {
  if (!reaches_pod_ips(provider)) {
    return "the control plane sits outside the overlay pod network and reaches no pod IP, only "
           "the nodes (hostNetwork backends)";
  }
  std::optional<std::vector<int32_t>> ports = reachable_ports(provider);
  return fmt::format(
      "the control plane dials the pod on that port, and reaches only ports {} by default",
      fmt::join(ports.value_or(std::vector<int32_t>{}), ", "));
}

// What makes the pod port reachable: the rule that opens it, or (on an overlay) host networking.
std::string reachability_fix(Provider provider, int32_t port, std::string_view what) {
  if (!reaches_pod_ips(provider))
    return fmt::format("Move {} onto the node's network: {}.", what, opening_rule(provider, port));
  std::optional<std::vector<int32_t>> ports = reachable_ports(provider);
  return fmt::format(
      "Open the port: {}. Or serve {} on a port the control plane reaches ({}; below "
      "1024 the container needs NET_BIND_SERVICE) and point targetPort at it.",
      opening_rule(provider, port), what, fmt::join(ports.value_or(std::vector<int32_t>{}), ", "));
}

// The conversion webhooks the API server calls: a CRD with more than one version whose webhook
// names a Service of the bundle. Skipped: a CRD that a container rewrites to another Service at
// run time (crd-conversion-* say so).
bool converts_through_service(const ConversionWiring& c) {
  return c.client.is_service && c.backend.service && c.versions > 1 && !c.rewriter;
}

// One finding per Service port: the webhooks that call it.
struct Group {
  const WebhookSummary* first = nullptr;
  PodPort port;
  std::vector<std::string> names;
  bool everyone = false;  // other teams' pod creation is rejected
};

std::vector<Group> fail_closed_groups(const Context& ctx,
                                      bool (*keep)(const Context&, const PodPort&)) {
  std::vector<Group> out;
  for (const WebhookSummary& s : ctx.webhooks) {
    if (!fail_closed(s)) continue;
    std::vector<PodTemplate> pods = templates_of(ctx.pods, s.backend.backends);
    PodPort port = pod_port(*s.backend.service, s.webhook->client.port, pods);
    if (!port.found || port.number == 0 || !keep(ctx, port)) continue;
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const Group& g) { return g.first->backend_name == s.backend_name; });
    if (it == out.end()) it = out.insert(out.end(), Group{&s, port, {}, false});
    it->names.push_back(s.webhook->name);
    it->everyone = it->everyone || (s.reaches_other_teams() && !s.reach.pod_creation.empty());
  }
  return out;
}

void run_port_unreachable(const Context& ctx, Findings& out) {
  if (reaches_pod_ips(ctx.provider) && !reachable_ports(ctx.provider)) return;
  auto unreachable = [](const Context& c, const PodPort& p) { return !reaches(c.provider, p); };
  std::string provider(provider_name(ctx.provider));
  std::string reach = control_plane_reach(ctx.provider);
  for (const Group& g : fail_closed_groups(ctx, unreachable)) {
    const AdmissionWebhook& w = *g.first->webhook;
    Finding& f = out.add(
        *w.configuration, g.everyone ? Severity::kCritical : Severity::kHigh,
        fmt::format("Webhook{} {} call{} {}, whose pods listen on port {}. On {} {}: every call "
                    "times out (\"failed calling webhook ...: context deadline exceeded\"), and "
                    "with failurePolicy Fail {}.",
                    g.names.size() == 1 ? "" : "s", some_of(g.names),
                    g.names.size() == 1 ? "s" : "", g.first->backend_name, port_text(g.port),
                    provider, reach,
                    g.everyone ? "pod creation is rejected in every namespace the webhooks "
                                 "select, other teams' included"
                               : "every request they match is rejected"),
        reachability_fix(ctx.provider, g.port.number, "the webhook"), w.client.node);
    f.summary = fmt::format("{} cannot reach webhook backend {} on pod port {}", provider,
                            g.first->backend_name, g.port.number);
    f.affects.emplace_back("webhooks", g.names);
  }
  for (const AggregatedApi& api : ctx.aggregated_apis) {
    if (!api.backend.service) continue;
    std::vector<PodTemplate> pods = templates_of(ctx.pods, api.backend.backends);
    PodPort port = pod_port(*api.backend.service, api.client.port, pods);
    if (!port.found || port.number == 0 || reaches(ctx.provider, port)) continue;
    Finding& f = out.add(
        *api.api_service, Severity::kHigh,
        fmt::format("APIService {} proxies to {}, whose pods listen on port {}. On {} {}: "
                    "discovery of {} fails for every client, and namespace deletion waits on it.",
                    api.api_service->name, api.backend_name(), port_text(port), provider, reach,
                    api.group_version),
        reachability_fix(ctx.provider, port.number, "the aggregated API server"));
    f.summary = fmt::format("{} cannot reach APIService {} on pod port {}", provider,
                            api.api_service->name, port.number);
  }
  // A conversion webhook has no failurePolicy: when it cannot be called, the request fails
  // (apiextensions-apiserver pkg/apiserver/conversion/webhook_converter.go: "conversion webhook
  // for <group/version, Kind=...> failed: ...").
  for (const ConversionWiring& c : ctx.conversions) {
    if (!converts_through_service(c)) continue;
    std::vector<PodTemplate> pods = templates_of(ctx.pods, c.backend.backends);
    PodPort port = pod_port(*c.backend.service, c.client.port, pods);
    if (!port.found || port.number == 0 || reaches(ctx.provider, port)) continue;
    std::string_view group = c.crd->node.at({"spec", "group"}).str();
    std::string_view kind = c.crd->node.at({"spec", "names", "kind"}).str();
    Finding& f = out.add(
        *c.crd, Severity::kHigh,
        fmt::format("The conversion webhook of CustomResourceDefinition {} calls Service {}/{}, "
                    "whose pods listen on port {}. On {} {}: every conversion times out "
                    "(\"conversion webhook for {}/{}, Kind={} failed: Post ...: context deadline "
                    "exceeded\"), so reading or writing {} objects in a version other than the "
                    "stored one fails, for the operator's own controllers too.",
                    c.crd->name, c.client.service_namespace, c.client.service_name, port_text(port),
                    provider, reach, group, c.storage_version, kind, kind),
        reachability_fix(ctx.provider, port.number, "the conversion webhook"), c.client.node);
    f.summary = fmt::format("{} cannot reach the conversion webhook of {} on pod port {}", provider,
                            c.crd->name, port.number);
  }
}

// kubelet listens on 10250 on every node address; a pod in the node's network namespace cannot
// bind it (cert-manager/cert-manager#3237, compatibility.md: move securePort, e.g. 10260).
void run_host_network_kubelet_port(const Context& ctx, Findings& out) {
  auto clash = [](const Context&, const PodPort& p) {
    return p.host_network && p.number == kKubeletPort;
  };
  for (const Group& g : fail_closed_groups(ctx, clash)) {
    const AdmissionWebhook& w = *g.first->webhook;
    Finding& f = out.add(
        *w.configuration, g.everyone ? Severity::kCritical : Severity::kHigh,
        fmt::format("The pods behind {} run with hostNetwork and serve port 10250, where the "
                    "kubelet already listens on every node: the webhook server cannot bind it "
                    "(\"address already in use\"), and with failurePolicy Fail webhook{} {} "
                    "reject{} what {} match.",
                    g.first->backend_name, g.names.size() == 1 ? "" : "s", some_of(g.names),
                    g.names.size() == 1 ? "s" : "", g.names.size() == 1 ? "it" : "they"),
        "Serve the webhook on another host port (cert-manager uses 10260) and point the "
        "Service's targetPort at it.",
        w.client.node);
    f.summary = fmt::format("Host-network webhook backend {} serves the kubelet's port 10250",
                            g.first->backend_name);
    f.affects.emplace_back("webhooks", g.names);
  }
}

// AKS's admissions enforcer (Azure/AKS#4002) adds namespaceSelector NotIn terms on
// control-plane=true and kubernetes.azure.com/managedby=aks to every webhook of a configuration
// not annotated admissions.enforcer/disabled: "true".
void run_aks_admissions_enforcer(const Context& ctx, Findings& out) {
  if (ctx.provider != Provider::kAks) return;
  std::vector<const Object*> seen;
  for (const WebhookSummary& s : ctx.webhooks) {
    const Object* config = s.webhook->configuration;
    if (std::find(seen.begin(), seen.end(), config) != seen.end()) continue;
    seen.push_back(config);
    if (config->annotation(kEnforcerAnnotation) == "true") continue;
    Finding& f = out.add(
        *config, Severity::kLow,
        fmt::format("On AKS the admissions enforcer adds to every webhook of {} a "
                    "namespaceSelector term NotIn [\"true\"] on control-plane and on "
                    "kubernetes.azure.com/managedby NotIn [\"aks\"]: kube-system and AKS's "
                    "managed namespaces are left out, so the live scope is narrower than the "
                    "rendered one. Whoever owns the configuration sees drift: Argo CD and Flux "
                    "report it out of sync, an operator that reconciles it fights AKS in a loop, "
                    "and `footprint fix webhooks` output is rewritten the same way once applied.",
                    config->display()),
        fmt::format("Annotate {} {}: \"true\" when the webhooks must see kube-system (then "
                    "webhook-kube-system applies as rendered); otherwise add the same NotIn terms "
                    "to the rendered namespaceSelector, so that the live and rendered objects "
                    "agree.",
                    config->display(), kEnforcerAnnotation));
    f.summary = fmt::format("AKS rewrites the namespaceSelector of {}", config->display());
  }
}

}  // namespace

extern const Check kWebhookPortUnreachable{
    .id = "webhook-port-unreachable",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kCritical,
    .impact = Impact::kOtherTeams,
    .area = Area::kAdmission,
    .description =
        "The control plane of --provider cannot reach the pod port behind a "
        "fail-closed webhook, an APIService or a CRD's conversion webhook.",
    .run = run_port_unreachable,
    .rationale =
        "Managed API servers dial the endpoint pod on the Service's targetPort. GKE private "
        "clusters open only 443 and 10250 to the nodes, EKS with a custom node security group "
        "only the ports its rules list; calls to any other port time out. On EKS with an overlay "
        "CNI no pod IP is reachable, so only hostNetwork backends are. Only with --provider "
        "gke-private, eks-custom-sg or eks-overlay. Critical when other teams' pod creation is "
        "rejected, else high.",
    .fix =
        "Open the port from the control plane (firewall rule or security group), or serve on "
        "443 or 10250; on an overlay CNI, run the backend with hostNetwork on a port other than "
        "10250.",
    .breaks_on_install = true,
};

extern const Check kWebhookHostNetworkKubeletPort{
    .id = "webhook-host-network-kubelet-port",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kCritical,
    .impact = Impact::kOtherTeams,
    .area = Area::kAdmission,
    .description = "A host-network webhook backend serves port 10250, which the kubelet holds.",
    .run = run_host_network_kubelet_port,
    .rationale =
        "A pod with hostNetwork shares the node's ports, and the kubelet listens on 10250, so the "
        "webhook server cannot start; its fail-closed webhooks reject what they match. Critical "
        "when that is other teams' pod creation, else high.",
    .fix = "Serve on another host port (10260) and point targetPort at it.",
    .breaks_on_install = true,
};

extern const Check kWebhookAksAdmissionsEnforcer{
    .id = "webhook-aks-admissions-enforcer",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kLow,
    .impact = Impact::kHygiene,
    .area = Area::kAdmission,
    .description =
        "AKS rewrites the namespaceSelector of a webhook configuration (--provider aks).",
    .run = run_aks_admissions_enforcer,
    .rationale =
        "AKS's admissions enforcer adds NotIn terms on control-plane and "
        "kubernetes.azure.com/managedby to every webhook unless the configuration is annotated "
        "admissions.enforcer/disabled: \"true\": kube-system is spared, and the live object "
        "drifts from the rendered one, which GitOps tools and reconciling operators fight. Low.",
    .fix = "Annotate admissions.enforcer/disabled: \"true\", or render the same NotIn terms.",
};

}  // namespace footprint
