// Webhook scope checks: whose requests a webhook sees, and what other teams and the cluster's
// own components suffer when its backend is down or slow. One finding per webhook backend: the
// webhooks served by one Service share one failure, and the finding lists them. Failure
// behaviour is modelled from the API server's documented behaviour, not measured.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"
#include "analysis/models/webhook_reach.h"
#include "util/strings.h"

namespace footprint {

namespace {

// Webhooks that share a backend, in the order the API server calls them.
struct BackendGroup {
  std::string backend;
  std::vector<const WebhookSummary*> webhooks;
  std::vector<Severity> severities;  // per webhook
};

template <typename Rate>
std::vector<BackendGroup> group_by_backend(const std::vector<WebhookSummary>& summaries,
                                           Rate rate) {
  std::vector<BackendGroup> groups;
  for (const WebhookSummary& s : summaries) {
    std::optional<Severity> severity = rate(s);
    if (!severity) continue;
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const BackendGroup& g) { return g.backend == s.backend_name; });
    if (it == groups.end()) it = groups.insert(groups.end(), BackendGroup{s.backend_name, {}, {}});
    it->webhooks.push_back(&s);
    it->severities.push_back(*severity);
  }
  return groups;
}

Severity worst(const BackendGroup& g) {
  return *std::max_element(g.severities.begin(), g.severities.end());
}

// The webhooks of a group at its worst severity: the ones its message is about.
std::vector<const WebhookSummary*> worst_webhooks(const BackendGroup& g) {
  std::vector<const WebhookSummary*> out;
  Severity top = worst(g);
  for (size_t i = 0; i < g.webhooks.size(); ++i) {
    if (g.severities[i] == top) out.push_back(g.webhooks[i]);
  }
  return out;
}

template <typename Field>
std::vector<std::string> union_of(const std::vector<const WebhookSummary*>& list, Field field) {
  std::vector<std::string> out;
  for (const WebhookSummary* s : list) {
    for (const std::string& item : field(*s)) {
      if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
    }
  }
  return out;
}

std::vector<std::string> shared_requests(const std::vector<const WebhookSummary*>& list) {
  return union_of(list, [](const WebhookSummary& s) {
    std::vector<std::string> all = s.reach.pod_creation;
    all.insert(all.end(), s.reach.builtin.begin(), s.reach.builtin.end());
    all.insert(all.end(), s.reach.other_custom.begin(), s.reach.other_custom.end());
    return all;
  });
}

// "in 4 of 6 namespaces other teams use (default, kube-public and 2 more)", or cluster-wide.
std::string where_others(const std::vector<const WebhookSummary*>& list) {
  std::vector<std::string> namespaces =
      union_of(list, [](const WebhookSummary& s) { return s.others_hit; });
  bool cluster_scoped = std::any_of(list.begin(), list.end(),
                                    [](const WebhookSummary* s) { return s->reach.cluster_wide; });
  if (namespaces.empty()) return cluster_scoped ? "cluster-wide" : "";
  size_t total = list.front()->others_total;
  std::string out =
      namespaces.size() == total
          ? fmt::format("in every namespace other teams use ({})", some_of(namespaces))
          : fmt::format("in {} of the {} namespaces other teams use ({})", namespaces.size(), total,
                        some_of(namespaces));
  return cluster_scoped ? out + ", and cluster-wide" : out;
}

// "pods CREATE/UPDATE" -> "pods", for one-line summaries.
std::vector<std::string> resources_of(const std::vector<std::string>& requests) {
  std::vector<std::string> out;
  for (const std::string& r : requests) {
    std::string resource = r.substr(0, r.find(' '));
    if (std::find(out.begin(), out.end(), resource) == out.end()) out.push_back(resource);
  }
  return out;
}

// where_others() without the names, for one-line summaries.
std::string where_short(const std::vector<const WebhookSummary*>& list) {
  std::vector<std::string> namespaces =
      union_of(list, [](const WebhookSummary& s) { return s.others_hit; });
  if (namespaces.empty()) return "cluster-wide";
  size_t total = list.front()->others_total;
  return namespaces.size() == total
             ? "in every namespace other teams use"
             : fmt::format("in {} of the {} namespaces other teams use", namespaces.size(), total);
}

// "objects labelled inject=true", for a webhook whose selectors require a label.
std::string opted_in(const WebhookSummary& s) {
  const AdmissionWebhook& w = *s.webhook;
  if (s.object_scope != "none" && s.object_scope != "opt-out")
    return "objects labelled " + w.object_selector.to_string();
  return "namespaces labelled " + w.namespace_selector.to_string();
}

// opted_in() of every webhook of a group, each selector once: webhooks behind one backend often
// select differently (istio's injector: by namespace label or by pod label).
std::string opted_in(const std::vector<const WebhookSummary*>& list) {
  std::vector<std::string> selectors;
  for (const WebhookSummary* s : list) {
    std::string one = opted_in(*s);
    if (std::find(selectors.begin(), selectors.end(), one) == selectors.end())
      selectors.push_back(std::move(one));
  }
  return fmt::format("{}", fmt::join(selectors, " or "));
}

// opted_in() for one-line summaries: the selector when there is one, else what they have in
// common.
std::string opted_in_short(const std::vector<const WebhookSummary*>& list) {
  std::string all = opted_in(list);
  return all.find(" or ") == std::string::npos ? all : "labelled namespaces or objects";
}

// "Mutating webhook a", "Validating webhooks a, b", or "Webhooks a, b" when both kinds are in it.
std::string who_of(const std::vector<const WebhookSummary*>& list) {
  size_t mutating = std::count_if(list.begin(), list.end(),
                                  [](const WebhookSummary* s) { return s->webhook->mutating; });
  std::string kind = mutating == list.size() ? "Mutating webhook"
                     : mutating == 0         ? "Validating webhook"
                                             : "Webhook";
  return fmt::format("{}{} {}", kind, list.size() == 1 ? "" : "s", some_of(webhook_names(list), 2));
}

// The object a group's finding is reported against: the first webhook's configuration.
const Object& anchor(const std::vector<const WebhookSummary*>& list) {
  return *list.front()->webhook->configuration;
}

// The webhooks the finding's severity is about, then the backend's other webhooks (its outage
// reaches them too, at a lower cost), the configurations, the shared requests and the namespaces
// they are sent in; with `others`, the namespaces of other teams among them, which the HTML
// matrix highlights.
void add_affects(Finding& f, const BackendGroup& g, bool others) {
  // Listed: the webhooks at the finding's severity, and with a critical finding the high ones too
  // (the report highlights both alike).
  Severity listed_from = std::min(worst(g), Severity::kHigh);
  std::vector<const WebhookSummary*> listed;
  std::vector<std::string> rest;
  std::vector<std::string> configurations;
  for (size_t i = 0; i < g.webhooks.size(); ++i) {
    const WebhookSummary* s = g.webhooks[i];
    if (g.severities[i] >= listed_from) {
      listed.push_back(s);
    } else {
      rest.push_back(s->webhook->name);
    }
    add_unique(configurations, s->webhook->configuration->display());
  }
  f.affects.emplace_back("webhooks", webhook_names(listed));
  if (!rest.empty()) f.affects.emplace_back("same backend", std::move(rest));
  f.affects.emplace_back("configurations", std::move(configurations));
  std::vector<std::string> requests = shared_requests(g.webhooks);
  if (!requests.empty()) f.affects.emplace_back("requests", std::move(requests));
  std::vector<std::string> namespaces =
      union_of(g.webhooks, [](const WebhookSummary& s) { return s.namespaces_hit; });
  if (!namespaces.empty()) f.affects.emplace_back("namespaces", std::move(namespaces));
  // Only where shared resources are sent: the install's own kinds there are the install's cost.
  std::vector<std::string> others_hit = union_of(listed, [](const WebhookSummary& s) {
    return s.reach.shared() ? s.others_hit : std::vector<std::string>{};
  });
  if (others && !others_hit.empty())
    f.affects.emplace_back("other teams' namespaces", std::move(others_hit));
}

// The fix webhooks command that narrows these webhooks, as a sentence to append to a fix; empty
// when a namespaceSelector cannot scope any of them (cluster-scoped resources only).
std::string fix_command(const Context& ctx, const std::vector<const WebhookSummary*>& list,
                        std::string_view scope, std::string_view alternative = "") {
  bool scoped = std::any_of(list.begin(), list.end(), [](const WebhookSummary* s) {
    return s->reach.namespaced && !s->webhook->in_cluster;
  });
  if (!scoped) return "";
  return fmt::format(
      " `footprint fix webhooks -n {} {}`{} writes the configurations so narrowed (also as "
      "kustomize patches, or as a Helm post-renderer that keeps them narrowed on upgrade).",
      ctx.bundle.default_namespace, scope,
      alternative.empty() ? "" : fmt::format(" (or `{}`)", alternative));
}

std::string count_webhooks(size_t n, std::string_view what = "webhook") {
  return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
}

// webhook-fail-closed ------------------------------------------------------------------------

void run_fail_closed(const Context& ctx, Findings& out) {
  for (const BackendGroup& g : group_by_backend(ctx.webhooks, fail_closed_severity)) {
    Severity severity = worst(g);
    std::vector<const WebhookSummary*> top = worst_webhooks(g);
    const AdmissionWebhook& first = *top.front()->webhook;
    std::string down = fmt::format(
        "While {} has no ready endpoints (the operator crashed, is being upgraded, or its node is "
        "gone), the API server rejects",
        g.backend);
    std::string message;
    std::string summary;
    std::string fix;
    if (severity >= Severity::kHigh) {
      std::vector<std::string> requests = shared_requests(top);
      bool pods = severity == Severity::kCritical;
      message =
          fmt::format("{} ({}) {} failurePolicy Fail{}. {} {} {}: {}", count_webhooks(top.size()),
                      some_of(webhook_names(top)), top.size() == 1 ? "has" : "have",
                      first.failure_policy_defaulted ? " (the API default)" : "", down,
                      some_of(requests, 4), where_others(top),
                      pods ? "other teams cannot start pods or roll out workloads until it is back."
                           : "other teams' changes to these resources fail until it is back.");
      // A Namespace request is "in" the namespace it changes: say whose namespaces instead.
      bool namespaces_only = resources_of(requests) == std::vector<std::string>{"namespaces"};
      summary = fmt::format(
          "{} fail{} whenever {} is down ({})",
          pods ? "Pod creation " + where_short(top)
          : namespaces_only
              ? std::string("Changes to other teams' namespaces")
              : "Changes to " + some_of(resources_of(requests), 2) + " " + where_short(top),
          pods ? "s" : "", g.backend, count_webhooks(top.size(), "fail-closed webhook"));
      fix =
          "Use failurePolicy Ignore for webhooks whose check may be skipped, scope the "
          "namespaceSelector or objectSelector to the namespaces and objects that use the "
          "operator, and run the backend with two or more replicas and a PodDisruptionBudget." +
          fix_command(ctx, top, "--scope opt-in --label KEY=VALUE", "--scope own");
    } else if (severity == Severity::kMedium) {
      message = fmt::format(
          "{} ({}) with failurePolicy Fail {} {}, but only for {}: their owners opt in. {} those "
          "requests.",
          count_webhooks(top.size()), some_of(webhook_names(top)),
          top.size() == 1 ? "intercepts" : "intercept", some_of(shared_requests(top), 4),
          opted_in(top), down);
      summary = fmt::format("Labelled objects of other teams are rejected whenever {} is down",
                            g.backend);
      fix =
          "Keep the label opt-in, document it for the teams who set it, and run the backend "
          "with two or more replicas and a PodDisruptionBudget.";
    } else {
      std::vector<std::string> own =
          union_of(top, [](const WebhookSummary& s) { return s.reach.own; });
      if (own.empty()) own = shared_requests(top);
      message = fmt::format(
          "{} ({}) {} failurePolicy Fail on the operator's own resources or namespaces. {} {}. "
          "Workloads already running keep running, but nobody can create or change these "
          "resources until it is back; this is the usual pattern of a controller that validates "
          "its own API.",
          count_webhooks(top.size()), some_of(webhook_names(top)), top.size() == 1 ? "has" : "have",
          down, some_of(own, 4));
      summary =
          fmt::format("The operator's own resources cannot be changed while {} is down", g.backend);
      fix =
          "Run the backend with two or more replicas and a PodDisruptionBudget, or use "
          "failurePolicy Ignore where a missed check is acceptable.";
    }
    Finding& f = out.add(anchor(top), severity, std::move(message), std::move(fix), first.node);
    f.summary = std::move(summary);
    add_affects(f, g, true);
  }
}

}  // namespace

extern const Check kWebhookFailClosed{
    .id = "webhook-fail-closed",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kCritical,
    .impact = Impact::kOtherTeams,
    .area = Area::kAdmission,
    .description =
        "Webhooks with failurePolicy Fail reject matching requests while their backend is down.",
    .run = run_fail_closed,
    .rationale =
        "With failurePolicy Fail, the API server rejects every request a webhook matches while its "
        "backend has no ready endpoints. One finding per backend. Critical when that is pod "
        "creation (or the workloads that create pods) in namespaces other teams use; high for "
        "other shared resources; medium when only labelled objects are reached; low for the "
        "operator's own resources, the usual pattern of a controller that validates its own API.",
    .fix =
        "Use failurePolicy Ignore where a skipped check is acceptable, scope the selectors "
        "(`footprint fix webhooks` writes them), and run the backend with two replicas and a "
        "PodDisruptionBudget.",
};

// webhook-intercepts-shared-resources ---------------------------------------------------------

namespace {

std::string on_failure(const AdmissionWebhook& w) {
  return w.failure_policy == FailurePolicy::kFail
             ? "if it is down, the request is rejected"
             : "if it is down, the request proceeds without it";
}

void run_intercepts_shared(const Context& ctx, Findings& out) {
  for (const BackendGroup& g : group_by_backend(ctx.webhooks, intercepts_severity)) {
    Severity severity = worst(g);
    std::vector<const WebhookSummary*> top = worst_webhooks(g);
    const AdmissionWebhook& first = *top.front()->webhook;
    std::vector<std::string> requests = shared_requests(top);
    bool mutating = std::any_of(top.begin(), top.end(),
                                [](const WebhookSummary* s) { return s->webhook->mutating; });
    std::string power = mutating ? "may change" : "may reject";
    std::string where = severity == Severity::kLow ? "for " + opted_in(top) : where_others(top);
    std::string detail;
    constexpr size_t kDetailed = 3;
    for (size_t i = 0; i < top.size() && i < kDetailed; ++i) {
      const AdmissionWebhook& w = *top[i]->webhook;
      detail +=
          fmt::format(" {} ({}, {}, {} s): {}.", w.name, w.mutating ? "mutating" : "validating",
                      w.failure_policy == FailurePolicy::kFail ? "Fail" : "Ignore",
                      w.timeout_seconds, on_failure(w));
    }
    if (top.size() > kDetailed) detail += fmt::format(" And {} more.", top.size() - kDetailed);
    // The backend's other webhooks on shared resources, rated lower (validating ones, or opt-in
    // selectors), are in the same path: name them, as affects lists them.
    std::vector<const WebhookSummary*> rest;
    for (const WebhookSummary* s : g.webhooks) {
      if (std::find(top.begin(), top.end(), s) == top.end()) rest.push_back(s);
    }
    if (!rest.empty()) {
      detail += fmt::format(" The same backend also serves {} on other teams' requests: {}.",
                            count_webhooks(rest.size()), some_of(webhook_names(rest), 4));
    }
    std::string scope;
    if (top.front()->namespace_scope == "none" && top.front()->object_scope == "none") {
      scope = " They have neither a namespaceSelector nor an objectSelector.";
    } else if (top.front()->namespace_scope == "opt-out") {
      scope =
          " Their namespaceSelector only excludes, so every namespace without those labels "
          "is intercepted.";
    }
    Finding& f = out.add(
        anchor(top), severity,
        fmt::format("Other teams' {} {} are sent to {} before they are admitted, and it {} them.{}"
                    "{} If the backend hangs, each request waits for the webhook's timeout.",
                    some_of(requests, 4), where, g.backend, power, detail, scope),
        "Scope the webhooks to the namespaces that use the operator: a namespaceSelector on a "
        "label only those namespaces carry (or kubernetes.io/metadata.name), or an objectSelector "
        "on a label only the operator's objects carry; when the chart has no value for it, patch "
        "the configuration with a post-renderer." +
            fix_command(ctx, top, "--scope opt-in --label KEY=VALUE", "--scope own"),
        first.node);
    std::string who = who_of(top);
    std::vector<std::string> creators =
        resources_of(union_of(top, [](const WebhookSummary& s) { return s.reach.pod_creation; }));
    bool pods = std::find(creators.begin(), creators.end(), "pods") != creators.end();
    std::string created = creators.size() == 1 && pods ? "pod"
                          : pods                       ? "pod and workload"
                                                       : "workload";
    f.summary = severity == Severity::kHigh
                    ? fmt::format("{} {} every {} created {}", who,
                                  top.size() == 1 ? "sees" : "see", created, where_short(top))
                : severity == Severity::kLow
                    ? fmt::format("{} {} other teams' {} for {}", who,
                                  top.size() == 1 ? "intercepts" : "intercept",
                                  some_of(resources_of(requests), 2), opted_in_short(top))
                    : fmt::format("{} {} other teams' {} {}", who,
                                  top.size() == 1 ? "intercepts" : "intercept",
                                  some_of(resources_of(requests), 2), where_short(top));
    add_affects(f, g, true);
  }
}

}  // namespace

extern const Check kWebhookInterceptsSharedResources{
    .id = "webhook-intercepts-shared-resources",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kHigh,
    .impact = Impact::kOtherTeams,
    .area = Area::kAdmission,
    .description =
        "Webhooks see built-in or other projects' resources in namespaces the operator does not "
        "own.",
    .run = run_intercepts_shared,
    .rationale =
        "Webhooks whose rules the matcher finds on built-in or other projects' resources, in "
        "namespaces the operator does not own, put the operator in other teams' path: a mutating "
        "webhook may change their objects, any webhook adds its latency and may reject them. One "
        "finding per backend. High for a mutating webhook on other teams' pod creation; medium for "
        "other shared resources or validating webhooks; low when a selector requires a label, so "
        "only teams that opt in are reached. kube-system has its own check.",
    .fix =
        "Scope the webhooks with a namespaceSelector or objectSelector to the namespaces and "
        "objects that use the operator; when the chart has no value for it, `footprint fix "
        "webhooks` writes them as objects, kustomize patches or a Helm post-renderer.",
};

// webhook-added-latency -----------------------------------------------------------------------

namespace {

// kube-apiserver's --request-timeout default: a request still in admission after it fails,
// whatever the webhooks' failurePolicy.
constexpr int kRequestTimeoutSeconds = 60;

void run_added_latency(const Context& ctx, Findings& out) {
  const ClusterNamespace* ns = other_team_namespace(ctx.namespaces);
  if (!ns) return;
  AdmissionTrace t = trace_admission(ctx.admission, pod_create_request(ctx.namespaces, ns->name));
  std::vector<const AdmissionWebhook*> chain = t.mutating_webhooks;
  chain.insert(chain.end(), t.validating_webhooks.begin(), t.validating_webhooks.end());
  // One webhook's wait is part of webhook-intercepts-shared-resources; the sum is news only
  // when several are chained.
  if (chain.size() < 2) return;
  Severity severity = t.worst_seconds >= kRequestTimeoutSeconds       ? Severity::kHigh
                      : t.worst_seconds >= kRequestTimeoutSeconds / 2 ? Severity::kMedium
                                                                      : Severity::kLow;
  std::vector<std::string> names;
  std::vector<const WebhookSummary*> summaries;
  for (const AdmissionWebhook* w : chain) {
    names.push_back(w->name);
    for (const WebhookSummary& s : ctx.webhooks) {
      if (s.webhook == w) summaries.push_back(&s);
    }
  }
  std::string over =
      severity == Severity::kHigh
          ? fmt::format(
                " That reaches the API server's default request timeout ({} s), so the "
                "request fails even where failurePolicy is Ignore.",
                kRequestTimeoutSeconds)
          : "";
  Finding& f = out.add(
      *chain.front()->configuration, severity,
      fmt::format("Creating a pod in another team's namespace ({}) passes {} of this bundle: {} "
                  "mutating in series{}, then {} validating in parallel. When their backends "
                  "accept connections but do not answer, the request waits up to {} s.{} This is "
                  "modelled from the API server's documented behaviour, not measured.",
                  ns->name, count_webhooks(chain.size()), t.mutating_webhooks.size(),
                  std::any_of(t.mutating_webhooks.begin(), t.mutating_webhooks.end(),
                              [](const AdmissionWebhook* w) { return w->reinvoked_if_needed; })
                      ? " (reinvocationPolicy IfNeeded may call some twice)"
                      : "",
                  t.validating_webhooks.size(), t.worst_seconds, over),
      "Lower timeoutSeconds (a few seconds is enough for a healthy webhook), merge webhooks that "
      "see the same requests, and scope them to the namespaces that use the operator." +
          fix_command(ctx, summaries, "--scope opt-in --label KEY=VALUE", "--scope own"),
      chain.front()->node);
  f.summary = fmt::format("Pod creation in other teams' namespaces can wait up to {} s for {}",
                          t.worst_seconds, count_webhooks(chain.size()));
  f.affects.emplace_back("webhooks", std::move(names));
}

}  // namespace

extern const Check kWebhookAddedLatency{
    .id = "webhook-added-latency",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kHigh,
    .impact = Impact::kOtherTeams,
    .area = Area::kAdmission,
    .description =
        "The worst-case seconds a chain of the bundle's webhooks adds to another team's pod "
        "creation.",
    .run = run_added_latency,
    .rationale =
        "Mutating webhooks run in series (twice with reinvocationPolicy IfNeeded) and validating "
        "ones in parallel, so a hung backend adds their timeouts to another team's pod creation. "
        "Reported when the bundle chains several webhooks there. High when the worst case reaches "
        "kube-apiserver's default request timeout of 60 s (the request fails even with "
        "failurePolicy Ignore); medium from 30 s; low below.",
    .fix =
        "Lower timeoutSeconds, merge webhooks that see the same requests, and scope them "
        "(`footprint fix webhooks`).",
};

// webhook-kube-system ---------------------------------------------------------------------------

namespace {

void run_kube_system(const Context& ctx, Findings& out) {
  for (const BackendGroup& g : group_by_backend(ctx.webhooks, components_severity)) {
    Severity severity = worst(g);
    std::vector<const WebhookSummary*> top = worst_webhooks(g);
    std::vector<ComponentRequest> requests;
    std::vector<std::string> blocked;
    int worst_seconds = 0;
    for (const WebhookSummary* s : top) {
      for (const ComponentRequest& r : s->components.requests) {
        if (std::find(requests.begin(), requests.end(), r) == requests.end()) requests.push_back(r);
      }
      for (const std::string& b : s->components.blocked)
        add_unique(blocked, b);
      worst_seconds = std::max(worst_seconds, s->worst_seconds);
    }
    // Only what the matched requests block: a webhook on pods says nothing about leases.
    std::string cannot = blocked.front();
    for (size_t i = 1; i < blocked.size(); ++i)
      cannot += (i + 1 == blocked.size() ? " or " : ", ") + blocked[i];
    std::string consequence =
        severity == Severity::kCritical
            ? fmt::format(
                  "With failurePolicy Fail, while {} is down the cluster's own components "
                  "there cannot {}: an outage of the operator becomes an outage of the cluster, "
                  "and the operator's own pods may need those components to come back.",
                  g.backend, cannot)
        : severity == Severity::kHigh
            ? fmt::format(
                  "With failurePolicy Fail, while {} is down the cluster's own components "
                  "there cannot {}.",
                  g.backend, cannot)
            : fmt::format(
                  "With failurePolicy Ignore a dead backend (no endpoints) is skipped at once, "
                  "but a hung one makes each of these requests wait up to {} s.",
                  worst_seconds);
    // What to exclude: the system namespaces the requests are in; a namespaceSelector cannot
    // exclude the cluster-scoped nodes/status, so those leave the rules.
    std::vector<std::string> exclude;
    bool nodes = false;
    std::vector<std::string> shown;
    for (const ComponentRequest& r : requests) {
      shown.push_back(r.display());
      if (r.cluster_scoped) {
        nodes = true;
      } else {
        add_unique(exclude, r.ns);
      }
    }
    std::string fix;
    if (!exclude.empty()) {
      fix = fmt::format(
          "Exclude {} in the namespaceSelector: matchExpressions [{{key: "
          "kubernetes.io/metadata.name, operator: NotIn, values: [{}]}}].",
          fmt::join(exclude, " and "), fmt::join(exclude, ", "));
    }
    if (!exclude.empty()) fix += fix_command(ctx, top, "--scope exclude-system");
    if (nodes) {
      fix += std::string(fix.empty() ? "" : " ") +
             "Take nodes/status out of the rules (a namespaceSelector does not apply to "
             "cluster-scoped Nodes), or use failurePolicy Ignore.";
    }
    Finding& f =
        out.add(anchor(top), severity,
                fmt::format("{} ({}) {} called for the cluster's own components: {}, because {} "
                            "selectors do not exclude them. {}",
                            count_webhooks(top.size()), some_of(webhook_names(top)),
                            top.size() == 1 ? "is" : "are", some_of(shown, 4),
                            top.size() == 1 ? "its" : "their", consequence),
                std::move(fix), top.front()->webhook->node);
    f.summary = severity == Severity::kLow
                    ? fmt::format("The cluster's own components wait up to {} s whenever {} hangs",
                                  worst_seconds, g.backend)
                    : fmt::format("The cluster's own components cannot {} whenever {} is down",
                                  cannot, g.backend);
    add_affects(f, g, false);
    f.affects.emplace_back("kube-system requests", std::move(shown));
  }
}

}  // namespace

extern const Check kWebhookKubeSystem{
    .id = "webhook-kube-system",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kCritical,
    .impact = Impact::kOtherTeams,
    .area = Area::kAdmission,
    .description =
        "Webhooks are called for the cluster's own components: in kube-system, and node "
        "heartbeats.",
    .run = run_kube_system,
    .rationale =
        "Webhooks the matcher finds on what the cluster's own components do (in kube-system: start "
        "DNS, CNI and kube-proxy pods, get tokens, renew leader-election leases, publish "
        "endpoints; every kubelet: renew its Lease in kube-node-lease and update its Node's "
        "status) turn an outage of the operator into an outage of the cluster. Critical for "
        "fail-closed webhooks on pod creation, tokens, leases, endpoints or node heartbeats; high "
        "for other component writes; low for fail-open ones, which only add latency.",
    .fix =
        "Exclude kube-system and kube-node-lease in the namespaceSelector (`footprint fix "
        "webhooks`), and keep Nodes out of the rules.",
};

// webhook-self-deadlock -------------------------------------------------------------------------

namespace {

void run_self_deadlock(const Context& ctx, Findings& out) {
  for (const WebhookSummary& s : ctx.webhooks) {
    const AdmissionWebhook& w = *s.webhook;
    if (w.failure_policy != FailurePolicy::kFail || !w.client.is_service) continue;
    AdmissionRequest request = pod_create_request(ctx.namespaces, w.client.service_namespace);
    // The operator's own pods carry the labels of its pod template.
    std::vector<Labels> pod_labels;
    for (const Object* owner : s.backend.backends) {
      for (const PodTemplate& t : ctx.pods) {
        if (t.owner == owner) pod_labels.push_back(read_labels(t.metadata.get("labels")));
      }
    }
    if (pod_labels.empty()) pod_labels.emplace_back();
    bool blocks_itself = std::any_of(pod_labels.begin(), pod_labels.end(), [&](const Labels& l) {
      request.object_labels = l;
      return webhook_matches(w, request);
    });
    if (!blocks_itself) continue;
    std::string service = fmt::format("service {}/{}:{}", w.client.service_namespace,
                                      w.client.service_name, w.client.port);
    Finding& f = out.add(
        *w.configuration, Severity::kHigh,
        fmt::format("Webhook {} fails closed on pod creation in namespace {}, where its own "
                    "backend {} runs. If the backend's pods die, their replacements must pass "
                    "this webhook, whose backend is exactly what is missing: the operator cannot "
                    "come back until someone deletes the webhook configuration.",
                    w.name, w.client.service_namespace, service),
        fmt::format("Exclude namespace {} with the namespaceSelector (kubernetes.io/"
                    "metadata.name NotIn [{}]) or the operator's pods with an objectSelector, "
                    "or use failurePolicy Ignore.",
                    w.client.service_namespace, w.client.service_namespace),
        w.node);
    f.summary = fmt::format("The operator cannot restart while webhook {} is down", w.name);
  }
}

}  // namespace

extern const Check kWebhookSelfDeadlock{
    .id = "webhook-self-deadlock",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kAdmission,
    .description = "A fail-closed webhook intercepts pod creation in its own backend's namespace.",
    .run = run_self_deadlock,
    .rationale =
        "A fail-closed webhook that intercepts pod creation in its own backend's namespace blocks "
        "the backend's replacement pods: once the operator dies it cannot come back until someone "
        "deletes the configuration. High.",
    .fix = "Exclude the operator's namespace or pods with a selector, or use failurePolicy Ignore.",
};

}  // namespace footprint
