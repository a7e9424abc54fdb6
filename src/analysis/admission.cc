// Admission webhook checks: what a webhook intercepts, where, and what happens to the cluster
// when its backend is down or slow. Failure behaviour is modelled from the API server's
// documented behaviour, not measured.
#include "analysis/admission.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace footprint {

namespace {

constexpr std::string_view kWorkloadKinds[] = {
    "deployments", "statefulsets",          "daemonsets", "replicasets", "jobs",
    "cronjobs",    "replicationcontrollers"};

bool defines_group(const Bundle& bundle, std::string_view group) {
  return std::any_of(bundle.resources.all().begin(), bundle.resources.all().end(),
                     [&](const ResourceInfo& r) { return !r.builtin && r.group == group; });
}

// Resources other teams use: built-in ones, and custom resources whose CRD the bundle does not
// ship (another operator's). The bundle's own CRDs are the operator's business.
bool is_shared(const Bundle& bundle, std::string_view group) {
  return group == "*" || bundle.resources.is_builtin_group(group) || !defines_group(bundle, group);
}

bool targets_pods_or_workloads(const AdmissionRule& rule) {
  for (const std::string& g : rule.api_groups) {
    for (const std::string& full : rule.resources) {
      std::string_view r = std::string_view(full).substr(0, full.find('/'));
      if (full.find('/') != std::string::npos && full.substr(full.find('/') + 1) != "*") continue;
      bool any = r == "*";
      if ((g.empty() || g == "*") && (any || r == "pods" || r == "replicationcontrollers"))
        return true;
      if ((g == "apps" || g == "batch" || g == "*") &&
          (any || std::find(std::begin(kWorkloadKinds), std::end(kWorkloadKinds), r) !=
                      std::end(kWorkloadKinds))) {
        return true;
      }
    }
  }
  return false;
}

bool targets_namespaced(const Bundle& bundle, const AdmissionRule& rule) {
  if (rule.scope == "Cluster") return false;
  for (const std::string& g : rule.api_groups) {
    for (const std::string& full : rule.resources) {
      std::string r = full.substr(0, full.find('/'));
      if (r == "*" || g == "*") return true;
      const ResourceInfo* info = bundle.resources.find_resource(g, r);
      // Unknown resources may be namespaced: assume the selector applies.
      if (!info || info->scope == Scope::kNamespaced) return true;
      if (r == "namespaces" && g.empty()) return true;  // matched against its own labels
    }
  }
  return false;
}

std::string backend_of(const WebhookClient& c) {
  if (!c.is_service) return c.url.empty() ? "none" : c.url;
  return fmt::format("service {}/{}:{}", c.service_namespace, c.service_name, c.port);
}

}  // namespace

std::string selector_scope(const LabelSelector& s) {
  if (s.empty()) return "none";
  if (s.only_exclusions()) return "opt-out";
  if (s.requirements.size() == 1 && s.requirements[0].key == kNamespaceNameLabel &&
      s.requirements[0].op == LabelRequirement::Op::kIn && s.requirements[0].values.size() == 1) {
    return fmt::format("{}={}", kNamespaceNameLabel, s.requirements[0].values[0]);
  }
  return "opt-in";
}

std::vector<WebhookSummary> summarize_webhooks(const Context& ctx) {
  std::vector<WebhookSummary> out;
  for (const AdmissionWebhook& w : ctx.admission.webhooks) {
    WebhookSummary s;
    s.webhook = &w;
    s.intercepts = describe_rules(w.rules);
    for (const AdmissionRule& rule : w.rules) {
      for (const std::string& g : rule.api_groups)
        s.shared = s.shared || is_shared(ctx.bundle, g);
      s.pods_or_workloads = s.pods_or_workloads || targets_pods_or_workloads(rule);
      s.namespaced_targets = s.namespaced_targets || targets_namespaced(ctx.bundle, rule);
    }
    s.namespace_scope = selector_scope(w.namespace_selector);
    s.object_scope = selector_scope(w.object_selector);
    s.opt_in = (s.namespace_scope != "none" && s.namespace_scope != "opt-out") ||
               (s.object_scope != "none" && s.object_scope != "opt-out");
    if (s.namespaced_targets) {
      s.namespaces_total = ctx.namespaces.size();
      for (const ClusterNamespace& ns : ctx.namespaces) {
        if (!w.namespace_selector.matches(ns.labels)) continue;
        s.namespaces_hit.push_back(ns.name);
        s.hits_kube_system = s.hits_kube_system || ns.name == "kube-system";
        s.hits_other_teams = s.hits_other_teams || !ns.operator_owned;
      }
    }
    s.backend = backend_of(w.client);
    s.worst_seconds = w.timeout_seconds * (w.reinvoked_if_needed ? 2 : 1);
    out.push_back(std::move(s));
  }
  return out;
}

AdmissionTrace trace_admission(const Admission& admission, const AdmissionRequest& request) {
  AdmissionTrace t;
  for (const AdmissionPolicy& p : admission.policies) {
    if (!policy_matches(p, request)) continue;
    (p.mutating ? t.mutating_policies : t.validating_policies).push_back(&p);
  }
  int validating_max = 0;
  for (const AdmissionWebhook& w : admission.webhooks) {
    if (!webhook_matches(w, request)) continue;
    if (w.mutating) {
      t.mutating_webhooks.push_back(&w);
      t.worst_seconds += w.timeout_seconds * (w.reinvoked_if_needed ? 2 : 1);
    } else {
      t.validating_webhooks.push_back(&w);
      validating_max = std::max(validating_max, w.timeout_seconds);
    }
    if (w.failure_policy == FailurePolicy::kFail) t.fail_closed.push_back(&w);
  }
  t.worst_seconds += validating_max;
  return t;
}

AdmissionRequest pod_create_request(const Context& ctx, const std::string& ns) {
  AdmissionRequest r;
  r.operation = "CREATE";
  r.api_version = "v1";
  r.resource = "pods";
  r.namespace_ = ns;
  for (const ClusterNamespace& n : ctx.namespaces) {
    if (n.name == ns) r.namespace_labels = n.labels;
  }
  if (r.namespace_labels.empty()) r.namespace_labels[kNamespaceNameLabel] = ns;
  return r;
}

namespace {

std::string where_hit(const WebhookSummary& s) {
  if (!s.namespaced_targets) return "cluster-wide (the resources are cluster-scoped)";
  std::vector<std::string> examples;
  if (s.hits_kube_system) examples.emplace_back("kube-system");
  if (std::find(s.namespaces_hit.begin(), s.namespaces_hit.end(), kOtherTeamNamespace) !=
      s.namespaces_hit.end()) {
    examples.emplace_back(kOtherTeamNamespace);
  }
  std::string out =
      fmt::format("in {} of {} namespaces", s.namespaces_hit.size(), s.namespaces_total);
  if (!examples.empty()) out += fmt::format(", including {}", fmt::join(examples, " and "));
  return out;
}

std::string scope_explanation(const WebhookSummary& s) {
  if (s.namespace_scope == "none" && s.object_scope == "none") {
    return " It has neither a namespaceSelector nor an objectSelector.";
  }
  if (s.namespace_scope == "opt-out") {
    return " Its namespaceSelector only excludes (NotIn/DoesNotExist), so every namespace "
           "without those labels is intercepted: that is cluster-wide.";
  }
  return "";
}

constexpr const char* kScopeFix =
    "Give the webhook a namespaceSelector that opts namespaces in (a label only the operator's "
    "namespaces carry, or kubernetes.io/metadata.name of the release namespace) or an "
    "objectSelector on a label only the operator's objects carry; when the chart has no value "
    "for it, patch the configuration with a post-renderer.";

void run_intercepts_shared(const Context& ctx, Findings& out) {
  for (const WebhookSummary& s : summarize_webhooks(ctx)) {
    if (!s.shared || (s.namespaced_targets && !s.hits_other_teams)) continue;
    const AdmissionWebhook& w = *s.webhook;
    Severity severity = s.opt_in              ? Severity::kLow
                        : s.pods_or_workloads ? Severity::kHigh
                                              : Severity::kMedium;
    out.add(*w.configuration, severity,
            fmt::format("{} webhook {} intercepts {} {}: other teams' requests are sent to {} "
                        "before they are admitted.{}{}",
                        w.mutating ? "Mutating" : "Validating", w.name, s.intercepts, where_hit(s),
                        s.backend, scope_explanation(s),
                        s.opt_in ? " Its selectors require a label, so only labelled "
                                   "namespaces or objects are affected."
                                 : ""),
            kScopeFix, w.node);
  }
}

}  // namespace

extern const Check kWebhookInterceptsSharedResources{
    "webhook-intercepts-shared-resources", Severity::kHigh, "admission",
    "A webhook intercepts built-in or other teams' resources outside the operator's namespaces.",
    run_intercepts_shared};

namespace {

void run_fail_closed(const Context& ctx, Findings& out) {
  // Webhooks on the operator's own resources are grouped per configuration.
  std::map<const Object*, std::vector<const WebhookSummary*>> own_only;
  std::vector<WebhookSummary> summaries = summarize_webhooks(ctx);
  for (const WebhookSummary& s : summaries) {
    const AdmissionWebhook& w = *s.webhook;
    if (w.failure_policy != FailurePolicy::kFail) continue;
    if (!s.shared) {
      own_only[w.configuration].push_back(&s);
      continue;
    }
    out.add(*w.configuration, s.opt_in ? Severity::kMedium : Severity::kHigh,
            fmt::format("Webhook {} has failurePolicy Fail{}: while {} has no ready endpoints "
                        "(the operator crashed, is being upgraded, or its node is gone), {} {} "
                        "is rejected.",
                        w.name, w.failure_policy_defaulted ? " (the API default)" : "", s.backend,
                        s.intercepts, where_hit(s)),
            "Use failurePolicy Ignore for webhooks that only default or observe, narrow the "
            "selectors, and run the backend with two or more replicas and a "
            "PodDisruptionBudget.",
            w.node);
  }
  for (const auto& [configuration, list] : own_only) {
    std::vector<std::string> what;
    for (const WebhookSummary* s : list)
      what.push_back(s->intercepts);
    out.add(*configuration, Severity::kMedium,
            fmt::format("{} webhook(s) of {} fail closed: while {} has no ready endpoints, {} "
                        "in every namespace are rejected. Workloads already running keep "
                        "running, but nobody can create or change these resources.",
                        list.size(), configuration->display(), list.front()->backend,
                        fmt::join(what, "; ")),
            "Keep the operator highly available (two replicas, a PodDisruptionBudget), or use "
            "failurePolicy Ignore where a missing check is acceptable.",
            list.front()->webhook->node);
  }
}

}  // namespace

extern const Check kWebhookFailClosed{
    "webhook-fail-closed", Severity::kHigh, "admission",
    "A webhook with failurePolicy Fail rejects matching requests while its backend is down.",
    run_fail_closed};

namespace {

void run_added_latency(const Context& ctx, Findings& out) {
  for (const WebhookSummary& s : summarize_webhooks(ctx)) {
    if (!s.shared || (s.namespaced_targets && !s.hits_other_teams)) continue;
    const AdmissionWebhook& w = *s.webhook;
    bool slow_pods = s.pods_or_workloads && !s.opt_in && w.timeout_seconds >= 10;
    std::string twice =
        w.reinvoked_if_needed
            ? fmt::format(", or {} s because reinvocationPolicy IfNeeded may call it twice",
                          s.worst_seconds)
            : "";
    out.add(*w.configuration, slow_pods ? Severity::kMedium : Severity::kLow,
            fmt::format("When {} accepts connections but does not answer, each matching request "
                        "({} {}) waits up to {} s{}{} before it {}. This is modelled from the API "
                        "server's documented behaviour, not measured.",
                        s.backend, s.intercepts, where_hit(s), w.timeout_seconds,
                        w.timeout_defaulted ? " (the default timeout)" : "", twice,
                        w.failure_policy == FailurePolicy::kFail ? "is rejected" : "proceeds"),
            "Lower timeoutSeconds (a few seconds is enough for a healthy webhook), narrow the "
            "selectors, and keep the backend close to the API server.",
            w.node);
  }
}

}  // namespace

extern const Check kWebhookAddedLatency{
    "webhook-added-latency", Severity::kMedium, "admission",
    "The worst-case seconds a webhook adds to other teams' requests when its backend hangs.",
    run_added_latency};

namespace {

void run_self_deadlock(const Context& ctx, Findings& out) {
  for (const AdmissionWebhook& w : ctx.admission.webhooks) {
    if (w.failure_policy != FailurePolicy::kFail || !w.client.is_service) continue;
    bool targets = std::any_of(w.rules.begin(), w.rules.end(), targets_pods_or_workloads);
    if (!targets) continue;
    AdmissionRequest request = pod_create_request(ctx, w.client.service_namespace);
    ServiceBackend backend = resolve_service(ctx.bundle, w.client);
    // The operator's own pods carry the labels of its pod template.
    std::vector<Labels> pod_labels;
    for (const Object* owner : backend.backends) {
      for (const PodTemplate& t : pod_templates(ctx.bundle)) {
        if (t.owner == owner) pod_labels.push_back(read_labels(t.metadata.get("labels")));
      }
    }
    if (pod_labels.empty()) pod_labels.emplace_back();
    bool blocks_itself = std::any_of(pod_labels.begin(), pod_labels.end(), [&](const Labels& l) {
      request.object_labels = l;
      return webhook_matches(w, request);
    });
    if (!blocks_itself) continue;
    out.add(*w.configuration, Severity::kHigh,
            fmt::format("Webhook {} fails closed on pod creation in namespace {}, where its own "
                        "backend {} runs. If the backend's pods die, their replacements must pass "
                        "this webhook, whose backend is exactly what is missing: the operator "
                        "cannot come back until someone deletes the webhook configuration.",
                        w.name, w.client.service_namespace, backend_of(w.client)),
            fmt::format("Exclude namespace {} with the namespaceSelector (kubernetes.io/"
                        "metadata.name NotIn [{}]) or the operator's pods with an objectSelector, "
                        "or use failurePolicy Ignore.",
                        w.client.service_namespace, w.client.service_namespace),
            w.node);
  }
}

}  // namespace

extern const Check kWebhookSelfDeadlock{
    "webhook-self-deadlock", Severity::kHigh, "admission",
    "A fail-closed webhook intercepts pod creation in its own backend's namespace.",
    run_self_deadlock};

namespace {

void run_kube_system(const Context& ctx, Findings& out) {
  for (const WebhookSummary& s : summarize_webhooks(ctx)) {
    if (!s.shared || !s.hits_kube_system) continue;
    const AdmissionWebhook& w = *s.webhook;
    bool fail = w.failure_policy == FailurePolicy::kFail;
    out.add(*w.configuration, fail ? Severity::kCritical : Severity::kMedium,
            fmt::format("Webhook {} intercepts {} in kube-system, because its selectors do not "
                        "exclude it.{}",
                        w.name, s.intercepts,
                        fail ? " With failurePolicy Fail, a dead backend blocks the cluster's "
                               "own components there (DNS, CNI, kube-proxy pods) from being "
                               "created or changed."
                             : " Each of the cluster's own components pays its latency."),
            "Exclude kube-system in the namespaceSelector: matchExpressions [{key: "
            "kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}].",
            w.node);
  }
}

}  // namespace

extern const Check kWebhookKubeSystem{"webhook-kube-system", Severity::kCritical, "admission",
                                      "A webhook intercepts shared resources in kube-system.",
                                      run_kube_system};

namespace {

Severity by_failure(const AdmissionWebhook& w) {
  return w.failure_policy == FailurePolicy::kFail ? Severity::kHigh : Severity::kMedium;
}

std::string consequence(const AdmissionWebhook& w) {
  return w.failure_policy == FailurePolicy::kFail
             ? "every matching request is rejected"
             : "every call fails and the request proceeds without the webhook";
}

void run_service_missing(const Context& ctx, Findings& out) {
  for (const AdmissionWebhook& w : ctx.admission.webhooks) {
    if (!w.client.is_service || resolve_service(ctx.bundle, w.client).service) continue;
    std::vector<const Object*> similar = similar_services(ctx.bundle, w.client.service_name);
    std::string hint = similar.empty() ? ""
                                       : fmt::format(" The bundle has Service {}.",
                                                     similar.front()->qualified_name());
    out.add(*w.configuration, by_failure(w),
            fmt::format("Webhook {} calls Service {}/{}, which the bundle does not create: "
                        "unless it exists already, {}.{}",
                        w.name, w.client.service_namespace, w.client.service_name, consequence(w),
                        hint),
            similar.empty() ? "Add the Service, or point clientConfig.service at the one that "
                              "serves the webhook."
                            : fmt::format("Point clientConfig.service at {}.",
                                          similar.front()->qualified_name()),
            w.client.node);
  }
}

}  // namespace

extern const Check kWebhookServiceMissing{
    "webhook-service-missing", Severity::kHigh, "admission",
    "A webhook's clientConfig.service names a Service the bundle does not create.",
    run_service_missing};

namespace {

void run_service_port_mismatch(const Context& ctx, Findings& out) {
  bool has_workloads = !pod_templates(ctx.bundle).empty();
  for (const AdmissionWebhook& w : ctx.admission.webhooks) {
    if (!w.client.is_service) continue;
    ServiceBackend b = resolve_service(ctx.bundle, w.client);
    if (!b.service) continue;
    if (!b.port_found) {
      out.add(*w.configuration, by_failure(w),
              fmt::format("Webhook {} calls port {}{} of Service {}, which exposes {}: {}.", w.name,
                          w.client.port, w.client.port_written ? "" : " (the default)",
                          b.service->qualified_name(), fmt::join(b.ports, ", "), consequence(w)),
              fmt::format("Set clientConfig.service.port to one of the Service's ports ({}).",
                          fmt::join(b.ports, ", ")),
              w.client.node);
    } else if (has_workloads && b.has_selector && b.backends.empty()) {
      out.add(*w.configuration, by_failure(w),
              fmt::format("Service {}, which webhook {} calls, selects no pod template in the "
                          "bundle: it will have no endpoints, so {}.",
                          b.service->qualified_name(), w.name, consequence(w)),
              "Make the Service's selector match the labels of the webhook server's pod "
              "template.",
              w.client.node);
    }
  }
}

}  // namespace

extern const Check kWebhookServicePortMismatch{
    "webhook-service-port-mismatch", Severity::kHigh, "admission",
    "A webhook's Service exists but lacks the port, or selects no pods of the bundle.",
    run_service_port_mismatch};

namespace {

void run_ca_not_injected(const Context& ctx, Findings& out) {
  std::map<const Object*, std::vector<const AdmissionWebhook*>> missing;
  for (const AdmissionWebhook& w : ctx.admission.webhooks) {
    if (w.client.is_service && !w.client.has_ca_bundle) missing[w.configuration].push_back(&w);
  }
  for (const auto& [configuration, webhooks] : missing) {
    if (!ca_injectors(*configuration, ctx.rbac).empty()) continue;
    std::vector<std::string> names;
    bool fail = false;
    for (const AdmissionWebhook* w : webhooks) {
      names.push_back(w->name);
      fail = fail || w->failure_policy == FailurePolicy::kFail;
    }
    out.add(
        *configuration, fail ? Severity::kHigh : Severity::kMedium,
        fmt::format("{} has no caBundle for {}, and nothing in the bundle fills it in: no "
                    "cert-manager or OpenShift injection annotation, and no ServiceAccount "
                    "that may patch it. The API server then verifies the webhook's serving "
                    "certificate against its system roots, which an operator's self-signed "
                    "certificate fails: {}.",
                    configuration->display(), fmt::join(names, ", "),
                    fail ? "matching requests are rejected"
                         : "every call fails and the webhook is skipped"),
        fmt::format("Add the annotation cert-manager.io/inject-ca-from: <namespace>/<Certificate>"
                    " to {} (with cert-manager), or set caBundle to the base64 PEM of the CA "
                    "that signed the serving certificate.",
                    configuration->name),
        webhooks.front()->client.node);
  }
}

}  // namespace

extern const Check kWebhookCaNotInjected{
    "webhook-ca-not-injected", Severity::kHigh, "admission",
    "A webhook has an empty caBundle and nothing in the bundle will inject one.",
    run_ca_not_injected};

namespace {

void run_url_external(const Context& ctx, Findings& out) {
  for (const AdmissionWebhook& w : ctx.admission.webhooks) {
    if (w.client.is_service || w.client.url.empty()) continue;
    out.add(*w.configuration, Severity::kMedium,
            fmt::format("Webhook {} calls {} directly: that endpoint's availability and latency "
                        "sit in the API server's path for {}, outside the cluster's control.",
                        w.name, w.client.url, describe_rules(w.rules)),
            "Serve the webhook from a Service in the cluster, or make sure the endpoint is as "
            "available as the API server.",
            w.client.node);
  }
}

}  // namespace

extern const Check kWebhookUrlExternal{
    "webhook-url-external", Severity::kMedium, "admission",
    "A webhook calls a URL: an external dependency sits in the admission path.", run_url_external};

}  // namespace footprint
