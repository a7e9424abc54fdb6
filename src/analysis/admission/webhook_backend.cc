// Webhook backend checks: whether the API server can reach and trust the server behind each
// webhook. A broken backend fails from the moment of install; what that costs depends on what
// the webhooks intercept (webhook_scope.cc rates the same reach while the backend is healthy).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/context.h"
#include "analysis/models/webhook_reach.h"

namespace footprint {

namespace {

// A webhook whose rules match nothing has a backend nobody calls (webhook-matches-nothing);
// one without rules gets them at run time, so its backend will be called.
bool never_called(const WebhookSummary& s) {
  return !s.webhook->rules.empty() && s.reach.matches_nothing();
}

// A backend that never answers: fail-closed webhooks on other teams' pod creation stop every
// team at once; other fail-closed webhooks reject what they match, so the install does not
// work; fail-open ones are skipped on every call, so they silently do nothing.
Severity broken_backend_severity(const std::vector<const WebhookSummary*>& webhooks) {
  Severity worst = Severity::kMedium;
  for (const WebhookSummary* s : webhooks) {
    if (s->webhook->failure_policy != FailurePolicy::kFail || s->reach.matches_nothing()) continue;
    bool everyone = s->reaches_other_teams() && !s->reach.pod_creation.empty();
    worst = std::max(worst, everyone ? Severity::kCritical : Severity::kHigh);
  }
  return worst;
}

std::string consequence(const std::vector<const WebhookSummary*>& webhooks) {
  Severity s = broken_backend_severity(webhooks);
  if (s == Severity::kCritical) {
    return "pod creation is rejected in every namespace the webhooks select, other teams' "
           "included";
  }
  if (s == Severity::kHigh) return "every request the fail-closed webhooks match is rejected";
  return "every call fails and the request proceeds without the webhook, which then does nothing";
}

// Webhooks grouped by the Service port they call, in the API server's order.
std::vector<std::pair<std::string, std::vector<const WebhookSummary*>>> by_service(
    const Context& ctx, bool (*keep)(const ServiceBackend&)) {
  std::vector<std::pair<std::string, std::vector<const WebhookSummary*>>> out;
  for (const WebhookSummary& s : ctx.webhooks) {
    if (!s.webhook->client.is_service || never_called(s) || !keep(s.backend)) continue;
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const auto& e) { return e.first == s.backend_name; });
    if (it == out.end()) it = out.insert(out.end(), {s.backend_name, {}});
    it->second.push_back(&s);
  }
  return out;
}

Finding& report(Findings& out, const std::vector<const WebhookSummary*>& webhooks,
                std::string message, std::string fix, std::string summary) {
  const AdmissionWebhook& first = *webhooks.front()->webhook;
  Finding& f = out.add(*first.configuration, broken_backend_severity(webhooks), std::move(message),
                       std::move(fix), first.client.node);
  f.summary = std::move(summary);
  f.affects.emplace_back("webhooks", webhook_names(webhooks));
  return f;
}

void run_service_missing(const Context& ctx, Findings& out) {
  auto missing = [](const ServiceBackend& b) { return b.service == nullptr; };
  for (const auto& [service, webhooks] : by_service(ctx, missing)) {
    const WebhookClient& client = webhooks.front()->webhook->client;
    std::vector<const Object*> similar = similar_services(ctx.bundle, client.service_name);
    std::string hint = similar.empty() ? ""
                                       : fmt::format(" The bundle has Service {}.",
                                                     similar.front()->qualified_name());
    report(
        out, webhooks,
        fmt::format("{} ({}) call{} Service {}/{}, which the bundle does not create: unless it "
                    "exists already, {}.{}",
                    webhooks.size() == 1 ? "Webhook" : fmt::format("{} webhooks", webhooks.size()),
                    some_of(webhook_names(webhooks)), webhooks.size() == 1 ? "s" : "",
                    client.service_namespace, client.service_name, consequence(webhooks), hint),
        similar.empty()
            ? "Add the Service, or point clientConfig.service at the one that "
              "serves the webhook."
            : fmt::format("Point clientConfig.service at {}.", similar.front()->qualified_name()),
        fmt::format("Webhooks call Service {}/{}, which nothing creates", client.service_namespace,
                    client.service_name));
  }
}

}  // namespace

extern const Check kWebhookServiceMissing{
    .id = "webhook-service-missing",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kCritical,
    .impact = Impact::kInstall,
    .area = Area::kAdmission,
    .description = "A webhook's clientConfig.service names a Service the bundle does not create.",
    .run = run_service_missing,
    .rationale =
        "A webhook whose Service the bundle does not create fails every call from the moment of "
        "install, unless the Service exists already. Critical when fail-closed webhooks then "
        "reject other teams' pod creation; high for other fail-closed webhooks (the install does "
        "not work); medium for fail-open ones, which silently do nothing.",
    .fix = "Add the Service, or point clientConfig.service at the one that serves the webhook.",
    .breaks_on_install = true,
};

namespace {

void run_service_port_mismatch(const Context& ctx, Findings& out) {
  auto wrong_port = [](const ServiceBackend& b) { return b.service && !b.port_found; };
  for (const auto& [service, webhooks] : by_service(ctx, wrong_port)) {
    const WebhookClient& client = webhooks.front()->webhook->client;
    const ServiceBackend& b = webhooks.front()->backend;
    report(out, webhooks,
           fmt::format("Webhooks {} call port {}{} of Service {}, which exposes {}: {}.",
                       some_of(webhook_names(webhooks)), client.port,
                       client.port_written ? "" : " (the default)", b.service->qualified_name(),
                       fmt::join(b.ports, ", "), consequence(webhooks)),
           fmt::format("Set clientConfig.service.port to one of the Service's ports ({}).",
                       fmt::join(b.ports, ", ")),
           fmt::format("Webhooks call port {} of Service {}, which does not expose it", client.port,
                       b.service->qualified_name()));
  }
  if (ctx.pods.empty()) return;
  auto no_endpoints = [](const ServiceBackend& b) {
    return b.service && b.port_found && b.has_selector && b.backends.empty();
  };
  for (const auto& [service, webhooks] : by_service(ctx, no_endpoints)) {
    const ServiceBackend& b = webhooks.front()->backend;
    report(
        out, webhooks,
        fmt::format("Service {}, which webhooks {} call, selects no pod template in the "
                    "bundle: it will have no endpoints, so {}.",
                    b.service->qualified_name(), some_of(webhook_names(webhooks)),
                    consequence(webhooks)),
        "Make the Service's selector match the labels of the webhook server's pod template.",
        fmt::format("Service {} behind the webhooks selects no pods", b.service->qualified_name()));
  }
}

}  // namespace

extern const Check kWebhookServicePortMismatch{
    .id = "webhook-service-port-mismatch",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kCritical,
    .impact = Impact::kInstall,
    .area = Area::kAdmission,
    .description =
        "A webhook's Service exists but lacks the port, or selects no pods of the bundle.",
    .run = run_service_port_mismatch,
    .rationale =
        "A webhook that calls a port its Service does not expose, or a Service that selects no pod "
        "of the bundle, fails every call. Severity as for webhook-service-missing.",
    .fix =
        "Use one of the Service's ports, and match the Service's selector to the webhook server's "
        "pods.",
    .breaks_on_install = true,
};

namespace {

void run_ca_not_injected(const Context& ctx, Findings& out) {
  std::map<const Object*, std::vector<const WebhookSummary*>> missing;
  for (const WebhookSummary& s : ctx.webhooks) {
    const WebhookClient& client = s.webhook->client;
    if (client.is_service && !client.has_ca_bundle && !never_called(s))
      missing[s.webhook->configuration].push_back(&s);
  }
  for (const auto& [configuration, webhooks] : missing) {
    if (!ca_injectors(*configuration, ctx.rbac).empty()) continue;
    report(out, webhooks,
           fmt::format("{} has no caBundle for {}, and nothing in the bundle fills it in: no "
                       "cert-manager or OpenShift injection annotation, and no ServiceAccount "
                       "that may patch it. The API server then verifies the webhook's serving "
                       "certificate against its system roots, which an operator's self-signed "
                       "certificate fails: {}.",
                       configuration->display(), some_of(webhook_names(webhooks)),
                       consequence(webhooks)),
           fmt::format("Add the annotation cert-manager.io/inject-ca-from: <namespace>/"
                       "<Certificate> to {} (with cert-manager), or set caBundle to the base64 "
                       "PEM of the CA that signed the serving certificate.",
                       configuration->name),
           fmt::format("{} has no caBundle and nothing injects one", configuration->display()));
  }
}

}  // namespace

extern const Check kWebhookCaNotInjected{
    .id = "webhook-ca-not-injected",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kCritical,
    .impact = Impact::kInstall,
    .area = Area::kAdmission,
    .description = "A webhook has an empty caBundle and nothing in the bundle will inject one.",
    .run = run_ca_not_injected,
    .rationale =
        "Without a caBundle, the API server verifies the webhook's serving certificate against its "
        "own roots, which an operator's self-signed certificate fails; nothing fills it in when "
        "there is no injection annotation and no subject may patch the configuration. Severity as "
        "for webhook-service-missing.",
    .fix =
        "Annotate for cert-manager's CA injector, or set caBundle to the CA that signed the "
        "serving certificate.",
    .breaks_on_install = true,
};

namespace {

void run_url_external(const Context& ctx, Findings& out) {
  for (const WebhookSummary& s : ctx.webhooks) {
    const AdmissionWebhook& w = *s.webhook;
    if (w.client.is_service || w.client.url.empty() || never_called(s)) continue;
    bool others = s.reaches_other_teams() && w.failure_policy == FailurePolicy::kFail;
    Finding& f = out.add(
        *w.configuration, others ? Severity::kHigh : Severity::kMedium,
        fmt::format("Webhook {} calls {} directly: that endpoint's availability and latency sit "
                    "in the API server's path for {}, outside the cluster's control{}.",
                    w.name, w.client.url, s.intercepts,
                    others ? ", and with failurePolicy Fail its outage rejects other teams' "
                             "requests"
                           : ""),
        "Serve the webhook from a Service in the cluster, or make sure the endpoint is as "
        "available as the API server.",
        w.client.node);
    f.summary = fmt::format("Webhook {} depends on {}, outside the cluster", w.name, w.client.url);
  }
}

}  // namespace

extern const Check kWebhookUrlExternal{
    .id = "webhook-url-external",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kHigh,
    .impact = Impact::kOtherTeams,
    .area = Area::kAdmission,
    .description = "A webhook calls a URL: an external dependency sits in the admission path.",
    .run = run_url_external,
    .rationale =
        "A webhook called by URL puts an endpoint outside the cluster's control in the admission "
        "path. High when it fails closed on other teams' requests; medium otherwise.",
    .fix = "Serve the webhook from a Service in the cluster.",
};

}  // namespace footprint
