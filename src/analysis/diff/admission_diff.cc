// Admission deltas: webhooks and admission policies added, removed or changed in what they
// reach (webhook_reach.h: found by asking the matcher about every served resource) and in what
// their failure costs; and what another team's pod creation and kube-system's go through, as
// trace_admission answers for each side.
#include <fmt/format.h>

#include <map>

#include "analysis/context.h"
#include "analysis/diff/diff.h"
#include "analysis/models/webhook_reach.h"
#include "model/units.h"
#include "util/strings.h"

namespace footprint {

namespace {

std::string key_of(const WebhookSummary& w) {
  const AdmissionWebhook& hook = *w.webhook;
  return fmt::format("{} webhook {} ({})", hook.mutating ? "Mutating" : "Validating", hook.name,
                     hook.configuration ? hook.configuration->name : "");
}

std::string_view policy_name(FailurePolicy p) {
  return p == FailurePolicy::kFail ? "Fail" : "Ignore";
}

// What the webhook failing closed costs, as webhook-fail-closed rates it; low when that check
// does not report it (only the install's own API).
Severity closing_severity(const WebhookSummary& w) {
  return fail_closed_severity(w).value_or(Severity::kLow);
}

// What a webhook that appears costs: its failure when it fails closed, else the requests of
// other teams it sees (and may slow or change).
Severity reach_severity(const WebhookSummary& w) {
  if (w.webhook->failure_policy == FailurePolicy::kFail) return closing_severity(w);
  return w.reaches_other_teams() ? Severity::kMedium : Severity::kLow;
}

std::string reach_text(const WebhookSummary& w) {
  std::string where = w.reach.namespaced ? fmt::format("in {} of {}", w.namespaces_hit.size(),
                                                       count_of(w.namespaces_total, "namespace"))
                                         : "cluster-wide";
  return fmt::format("{}; {}, failurePolicy {}, timeout {}s", w.intercepts, where,
                     policy_name(w.webhook->failure_policy), w.webhook->timeout_seconds);
}

Change webhook_change(const WebhookSummary& w, const Context& ctx, Severity severity,
                      std::string change) {
  Change c;
  c.area = "admission";
  c.severity = severity;
  c.subject = key_of(w);
  c.change = std::move(change);
  if (w.webhook->configuration) c.location = location_of(ctx, *w.webhook->configuration);
  return c;
}

void compare_webhook(const WebhookSummary& before, const WebhookSummary& after, const Context& ctx,
                     std::vector<Change>& out) {
  const AdmissionWebhook& o = *before.webhook;
  const AdmissionWebhook& n = *after.webhook;
  bool shared = after.reaches_other_teams();
  Severity closing = closing_severity(after);
  if (o.failure_policy != n.failure_policy) {
    bool closes = n.failure_policy == FailurePolicy::kFail;
    Change c = webhook_change(after, ctx, closes ? closing : Severity::kInfo,
                              fmt::format("failurePolicy {} -> {}", policy_name(o.failure_policy),
                                          policy_name(n.failure_policy)));
    c.consequence = closes ? "When its backend is down, the requests it intercepts are now "
                             "rejected instead of let through."
                           : "When its backend is down, requests now pass unchecked.";
    if (closes && shared)
      c.fix = "Keep Ignore, or narrow its namespaceSelector to the operator's namespaces first.";
    out.push_back(std::move(c));
  }
  if (o.timeout_seconds != n.timeout_seconds) {
    Change c = webhook_change(
        after, ctx,
        n.timeout_seconds > o.timeout_seconds && shared ? Severity::kLow : Severity::kInfo,
        fmt::format("timeout {}s -> {}s", o.timeout_seconds, n.timeout_seconds));
    c.consequence = fmt::format("A hung backend now holds each request it intercepts up to {}s.",
                                after.worst_seconds);
    out.push_back(std::move(c));
  }
  bool wider = after.namespaces_hit.size() > before.namespaces_hit.size() ||
               (!before.hits_kube_system && after.hits_kube_system) ||
               (!before.reach.cluster_wide && after.reach.cluster_wide) ||
               (after.reach.pod_creation.size() > before.reach.pod_creation.size()) ||
               (after.reach.builtin.size() > before.reach.builtin.size()) ||
               (after.reach.other_custom.size() > before.reach.other_custom.size());
  bool changed = before.intercepts != after.intercepts ||
                 before.namespace_scope != after.namespace_scope ||
                 before.object_scope != after.object_scope;
  if (wider || changed) {
    Change c = webhook_change(after, ctx, wider ? reach_severity(after) : Severity::kInfo,
                              wider ? "scope widened" : "scope changed");
    c.consequence = fmt::format("Was: {}. Now: {}.", reach_text(before), reach_text(after));
    if (!before.hits_kube_system && after.hits_kube_system)
      c.consequence += " It now intercepts kube-system.";
    if (wider && shared) c.fix = "Narrow its namespaceSelector or rules to what the operator owns.";
    c.details.push_back("namespaceSelector: " + before.namespace_scope + " -> " +
                        after.namespace_scope);
    c.details.push_back("objectSelector: " + before.object_scope + " -> " + after.object_scope);
    out.push_back(std::move(c));
  }
}

// What a CREATE of a pod in `ns` goes through on one side.
struct PodPath {
  size_t fail_closed = 0;
  int worst_seconds = 0;
  size_t webhooks = 0;
};

PodPath pod_path(const Context& ctx, const std::string& ns) {
  AdmissionTrace t = trace_admission(ctx.admission, pod_create_request(ctx.namespaces, ns));
  return {t.fail_closed.size(), t.worst_seconds,
          t.mutating_webhooks.size() + t.validating_webhooks.size()};
}

void compare_pod_creation(const DiffSide& old_side, const DiffSide& new_side, const std::string& ns,
                          std::string_view whose, std::vector<Change>& out) {
  PodPath before = pod_path(old_side.context, ns);
  PodPath after = pod_path(new_side.context, ns);
  if (before.webhooks == after.webhooks && before.fail_closed == after.fail_closed &&
      before.worst_seconds == after.worst_seconds)
    return;
  Change c;
  c.area = "admission";
  c.subject = fmt::format("Pod creation in {} ({})", ns, whose);
  bool worse = after.fail_closed > before.fail_closed || after.worst_seconds > before.worst_seconds;
  c.severity = !worse                                   ? Severity::kInfo
               : after.fail_closed > before.fail_closed ? Severity::kHigh
                                                        : Severity::kLow;
  c.change = fmt::format(
      "webhooks called {} -> {}, that reject it when down {} -> {}, worst wait {}s -> {}s",
      before.webhooks, after.webhooks, before.fail_closed, after.fail_closed, before.worst_seconds,
      after.worst_seconds);
  c.consequence = worse ? "After the upgrade, an outage of the operator's webhooks stops more "
                          "pods (or stalls them longer) there."
                        : "Pod creation there depends less on the operator.";
  out.push_back(std::move(c));
}

void diff_policies(const DiffSide& old_side, const DiffSide& new_side, std::vector<Change>& out) {
  auto key = [](const AdmissionPolicy& p) {
    return fmt::format("{}AdmissionPolicy {}{}", p.mutating ? "Mutating" : "Validating", p.name,
                       p.binding ? " (binding " + p.binding->name + ")" : "");
  };
  std::map<std::string, const AdmissionPolicy*> before;
  for (const AdmissionPolicy& p : old_side.context.admission.policies)
    if (!p.in_cluster) before[key(p)] = &p;
  std::map<std::string, const AdmissionPolicy*> after;
  for (const AdmissionPolicy& p : new_side.context.admission.policies)
    if (!p.in_cluster) after[key(p)] = &p;
  for (const auto& [name, p] : after) {
    auto it = before.find(name);
    Change c;
    c.area = "admission";
    c.subject = name;
    if (p->policy) c.location = location_of(new_side.context, *p->policy);
    if (it == before.end()) {
      c.severity = p->binding ? Severity::kMedium : Severity::kInfo;
      c.change = "added";
      c.consequence = p->binding ? "A new in-process admission rule applies to the requests it "
                                   "matches (see the Admission section of the new bundle)."
                                 : "Unbound: it acts on nothing until bound.";
    } else if (it->second->failure_policy != p->failure_policy) {
      c.severity = Severity::kLow;
      c.change = fmt::format("failurePolicy {} -> {}", policy_name(it->second->failure_policy),
                             policy_name(p->failure_policy));
      c.consequence = "Changes whether a failing CEL evaluation rejects the request.";
    } else {
      continue;
    }
    out.push_back(std::move(c));
  }
  for (const auto& [name, p] : before) {
    if (after.contains(name)) continue;
    Change c;
    c.area = "admission";
    c.subject = name;
    c.change = "removed";
    c.consequence = "Its checks no longer run.";
    out.push_back(std::move(c));
  }
}

}  // namespace

void diff_admission(const DiffSide& old_side, const DiffSide& new_side, std::vector<Change>& out) {
  std::map<std::string, const WebhookSummary*> before;
  for (const WebhookSummary& w : old_side.context.webhooks)
    if (!w.webhook->in_cluster) before[key_of(w)] = &w;
  std::map<std::string, const WebhookSummary*> after;
  for (const WebhookSummary& w : new_side.context.webhooks)
    if (!w.webhook->in_cluster) after[key_of(w)] = &w;
  for (const auto& [key, w] : after) {
    auto it = before.find(key);
    if (it != before.end()) {
      compare_webhook(*it->second, *w, new_side.context, out);
      continue;
    }
    Change c = webhook_change(*w, new_side.context, reach_severity(*w), "added");
    c.consequence = "Intercepts " + reach_text(*w) + ".";
    if (w->reaches_other_teams())
      c.fix =
          "Check its namespaceSelector keeps it to the operator's namespaces, and that its "
          "failurePolicy suits what it intercepts.";
    out.push_back(std::move(c));
  }
  for (const auto& [key, w] : before) {
    if (after.contains(key)) continue;
    Change c = webhook_change(*w, old_side.context, Severity::kInfo, "removed");
    c.consequence = "Requests no longer pass through it.";
    out.push_back(std::move(c));
  }
  diff_policies(old_side, new_side, out);
  if (const ClusterNamespace* other = other_team_namespace(new_side.context.namespaces))
    compare_pod_creation(old_side, new_side, other->name, "another team's", out);
  compare_pod_creation(old_side, new_side, "kube-system", "the cluster's own", out);
}

}  // namespace footprint
