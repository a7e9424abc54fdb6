// NetworkPolicies that drop the API server's calls to a webhook backend. A policy that selects
// the backend pods for ingress isolates them; traffic is then admitted only by its ingress rules
// (networking/v1 NetworkPolicySpec: policyTypes defaults to Ingress for every policy). Peers
// given as podSelector or namespaceSelector match pods, and the API server is no pod of the
// cluster on most CNIs (it runs on the host network or outside the cluster), so only a rule
// without `from` or with an ipBlock can admit it.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/context.h"
#include "analysis/models/control_plane.h"
#include "analysis/models/webhook_reach.h"
#include "model/webhook_client.h"

namespace footprint {

namespace {

// Whether one NetworkPolicyPort admits the target port. A port this model cannot resolve (a
// name against a number with no container port to tell) counts as admitting: the check claims
// a drop only when it is sure.
bool port_admits(const yaml::Node& entry, const PodPort& target) {
  std::string_view protocol = entry.get("protocol").str();
  if (!protocol.empty() && protocol != "TCP") return false;
  yaml::Node port = entry.get("port");
  if (!port) return true;  // every port of the protocol
  int32_t number = port_number(port.str());
  if (number == 0) return target.name.empty() || port.str() == target.name;
  if (target.number == 0) return true;
  int32_t end = port_number(entry.get("endPort").str());
  return end ? target.number >= number && target.number <= end : target.number == number;
}

// Whether a selector of a peer is absent or matches `labels`.
bool absent_or_matches(const yaml::Node& selector, const Labels& labels) {
  if (!selector) return true;
  auto parsed = parse_label_selector(selector);
  return parsed && parsed->matches(labels);
}

// Whether a `from` peer admits the pods the provider's webhook calls come from: konnectivity-agent
// pods in kube-system on AKS and GKE (tigera/operator PR#5212: `app` on AKS, `k8s-app` on GKE),
// the host-network policy group on OpenShift (OVN-Kubernetes admits host-network traffic as that
// namespace group).
bool peer_is_call_source(const yaml::Node& peer, Provider provider) {
  yaml::Node namespaces = peer.get("namespaceSelector");
  if (!namespaces) return false;  // the policy's own namespace only
  yaml::Node pods = peer.get("podSelector");
  if (provider == Provider::kAks || provider == Provider::kGke ||
      provider == Provider::kGkePrivate) {
    Labels ns = {{"kubernetes.io/metadata.name", "kube-system"}};
    Labels agent = {{provider == Provider::kAks ? "app" : "k8s-app", "konnectivity-agent"}};
    return absent_or_matches(namespaces, ns) && absent_or_matches(pods, agent);
  }
  if (provider == Provider::kOpenshift) {
    Labels group = {{"policy-group.network.openshift.io/host-network", ""}};
    return absent_or_matches(namespaces, group) && absent_or_matches(pods, Labels{});
  }
  return false;
}

// Whether an ingress rule admits the API server on the target port.
bool rule_admits_api_server(const yaml::Node& rule, const PodPort& target, Provider provider) {
  yaml::Node from = rule.get("from");
  bool any_source = from.size() == 0;
  for (size_t i = 0; i < from.size() && !any_source; ++i) {
    if (from.item(i).get("ipBlock")) any_source = true;  // may hold the API server's address
    if (peer_is_call_source(from.item(i), provider)) any_source = true;
  }
  if (!any_source) return false;
  yaml::Node ports = rule.get("ports");
  if (ports.size() == 0) return true;
  for (size_t i = 0; i < ports.size(); ++i) {
    if (port_admits(ports.item(i), target)) return true;
  }
  return false;
}

bool affects_ingress(const Object& policy) {
  yaml::Node types = policy.node.at({"spec", "policyTypes"});
  if (types.size() == 0) return true;
  for (size_t i = 0; i < types.size(); ++i) {
    if (types.item(i).str() == "Ingress") return true;
  }
  return false;
}

// The NetworkPolicies of `ns`: the cluster's, less those the bundle replaces, then the bundle's.
std::vector<const Object*> policies_in(const Context& ctx, std::string_view ns) {
  std::vector<const Object*> out;
  auto add = [&](const Bundle& source, bool cluster) {
    for (uint32_t i : source.of_kind("networking.k8s.io", "NetworkPolicy")) {
      const Object& p = source.objects[i];
      if (p.namespace_ != ns) continue;
      if (cluster && ctx.bundle.find(p.group, p.kind, p.namespace_, p.name)) continue;
      out.push_back(&p);
    }
  };
  if (ctx.cluster) add(ctx.cluster->objects, true);
  add(ctx.bundle, false);
  return out;
}

// Where the API server's webhook calls come from, as a NetworkPolicy peer admits them.
std::string call_source(Provider provider) {
  switch (provider) {
    case Provider::kAks:
    case Provider::kGke:
    case Provider::kGkePrivate:
      return fmt::format(
          "the konnectivity-agent pods that carry the API server's calls on {}: `from: "
          "[{{namespaceSelector: {{matchLabels: {{kubernetes.io/metadata.name: kube-system}}}}, "
          "podSelector: {{matchLabels: {{{}: konnectivity-agent}}}}}}]`",
          provider == Provider::kAks ? "AKS" : "GKE",
          provider == Provider::kAks ? "app" : "k8s-app");
    case Provider::kOpenshift:
      return "the host-network policy group the API server belongs to on OpenShift: `from: "
             "[{namespaceSelector: {matchLabels: {policy-group.network.openshift.io/host-network: "
             "\"\"}}}]`";
    default:
      return "the API server (an ipBlock with the control plane's addresses), or with no `from` "
             "at all";
  }
}

// What the rules admit, said against where the provider's calls come from.
std::string dropped_sources(Provider provider) {
  switch (provider) {
    case Provider::kAks:
    case Provider::kGke:
    case Provider::kGkePrivate:
      return "pods or namespaces other than the konnectivity-agent pods of kube-system, which "
             "carry the API server's calls there";
    case Provider::kOpenshift:
      return "pods or namespaces other than the host-network policy group, where the API "
             "server's calls come from on OpenShift";
    default:
      return "pods or namespaces; the API server is neither on most CNIs";
  }
}

struct Blackhole {
  const Object* policy = nullptr;
  bool in_bundle = false;
  PodPort port;
  std::string backend_labels;
  std::vector<const AdmissionWebhook*> webhooks;
};

void run_webhook_network_policy(const Context& ctx, Findings& out) {
  const std::vector<PodTemplate>& templates = ctx.pods;
  std::map<std::string, Blackhole> found;  // by policy, in the order first met
  std::vector<std::string> order;
  for (const WebhookSummary& summary : ctx.webhooks) {
    const AdmissionWebhook& w = *summary.webhook;
    if (!w.client.is_service) continue;
    const ServiceBackend& backend = summary.backend;
    const Object* service = backend.service;
    if (!service && ctx.cluster) {
      service = ctx.cluster->objects.find("", "Service", w.client.service_namespace,
                                          w.client.service_name);
    }
    if (!service) continue;  // webhook-service-missing's
    std::vector<PodTemplate> pods = templates_of(templates, backend.backends);
    // The labels every backend pod carries: its template's, or at least the Service selector's.
    std::vector<Labels> pod_labels;
    for (const PodTemplate& t : pods)
      pod_labels.push_back(read_labels(t.metadata.get("labels")));
    if (pod_labels.empty())
      pod_labels.push_back(read_labels(service->node.at({"spec", "selector"})));
    PodPort port = pod_port(*service, w.client.port, pods);

    std::vector<const Object*> selecting;
    bool admitted = false;
    for (const Object* policy : policies_in(ctx, w.client.service_namespace)) {
      if (!affects_ingress(*policy)) continue;
      auto selector = parse_label_selector(policy->node.at({"spec", "podSelector"}));
      if (!selector) continue;
      bool selects = std::any_of(pod_labels.begin(), pod_labels.end(),
                                 [&](const Labels& l) { return selector->matches(l); });
      if (!selects) continue;
      selecting.push_back(policy);
      yaml::Node ingress = policy->node.at({"spec", "ingress"});
      for (size_t i = 0; i < ingress.size() && !admitted; ++i)
        admitted = rule_admits_api_server(ingress.item(i), port, ctx.provider);
    }
    if (selecting.empty() || admitted) continue;
    const Object* policy = selecting.front();
    std::string key = policy->qualified_name();
    auto [it, fresh] = found.try_emplace(key);
    if (fresh) {
      order.push_back(key);
      it->second.policy = policy;
      it->second.in_bundle =
          policy->index < ctx.bundle.objects.size() && &ctx.bundle.objects[policy->index] == policy;
      it->second.port = port;
      std::vector<std::string> labels;
      for (const auto& [k, v] : pod_labels.front())
        labels.push_back(fmt::format("{}={}", k, v));
      it->second.backend_labels = fmt::format("{}", fmt::join(labels, ","));
    }
    it->second.webhooks.push_back(&w);
  }

  for (const std::string& key : order) {
    const Blackhole& b = found.at(key);
    std::vector<std::string> names;
    std::vector<std::string> fail_closed;
    std::vector<std::string> fail_open;
    bool pods_everywhere = false;
    for (const AdmissionWebhook* w : b.webhooks) {
      names.push_back(w->name);
      (w->failure_policy == FailurePolicy::kFail ? fail_closed : fail_open)
          .push_back(
              fmt::format("{} ({}, {} s)", w->name, describe_rules(w->rules), w->timeout_seconds));
      bool every =
          !ctx.namespaces.empty() &&
          std::all_of(ctx.namespaces.begin(), ctx.namespaces.end(),
                      [&](const ClusterNamespace& ns) {
                        return webhook_matches(*w, pod_create_request(ctx.namespaces, ns.name));
                      });
      pods_everywhere = pods_everywhere || every;
    }
    std::string port = b.port.number ? std::to_string(b.port.number) : b.port.name;
    std::string effect;
    if (!fail_closed.empty()) {
      effect += fmt::format("with failurePolicy Fail every request they match is rejected: {}.",
                            fmt::join(fail_closed, "; "));
    }
    if (!fail_open.empty()) {
      effect += fmt::format(
          "{}with failurePolicy Ignore every request they match waits the full timeout before "
          "the API server gives up (a dead backend, by contrast, fails fast): {}.",
          effect.empty() ? "" : " And ", fmt::join(fail_open, "; "));
    }
    const Object& anchor = b.in_bundle ? *b.policy : *b.webhooks.front()->configuration;
    Finding& f = out.add(
        anchor, pods_everywhere ? Severity::kCritical : Severity::kHigh,
        fmt::format("NetworkPolicy {}{} selects the webhook backend pods ({}) and admits "
                    "ingress to port {} only from {}, so its calls to {} are dropped: {}",
                    b.policy->qualified_name(), b.in_bundle ? "" : " (in the cluster)",
                    b.backend_labels, port, dropped_sources(ctx.provider), some_of(names, 3),
                    effect),
        fmt::format("Add an ingress rule to NetworkPolicy {} that admits TCP port {} from {}.",
                    b.policy->qualified_name(), port, call_source(ctx.provider)),
        b.in_bundle ? b.policy->node.at({"spec", "ingress"}) : b.webhooks.front()->node);
    f.summary =
        fmt::format("NetworkPolicy {} blocks the API server from webhook{} {}",
                    b.policy->qualified_name(), names.size() == 1 ? "" : "s", some_of(names, 2));
    f.affects.emplace_back("webhooks", std::move(names));
  }
}

}  // namespace

extern const Check kWebhookNetworkPolicyBlocks{
    .id = "webhook-network-policy-blocks",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kCritical,
    .impact = Impact::kOtherTeams,
    .area = Area::kAdmission,
    .description = "A NetworkPolicy drops the API server's calls to a webhook backend.",
    .run = run_webhook_network_policy,
    .rationale =
        "A NetworkPolicy of the bundle or the cluster (--cluster) selects a webhook's backend pods "
        "and admits ingress to its port only from pods or namespaces, which the API server is not "
        "on most CNIs (with --provider aks or gke its calls come from konnectivity-agent pods in "
        "kube-system, on openshift from the host-network policy group, and rules admitting those "
        "count). Fail-closed webhooks then reject every request they match; fail-open ones "
        "make each wait the full timeoutSeconds. High; critical when the webhook sees pod creation "
        "in every namespace.",
    .fix = "Admit the webhook port from the API server's addresses (ipBlock) or from anywhere.",
    .breaks_on_install = true,
};

}  // namespace footprint
