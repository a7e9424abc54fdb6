// Admission analysis shared by the webhook-* checks, the Admission section and `footprint
// admission`: what each webhook intercepts, where, and what its failure costs.
#pragma once

#include <string>
#include <vector>

#include "analysis/check.h"

namespace footprint {

// How a selector scopes a webhook: "none" (no selector: everything), "opt-out" (only
// exclusions, so everything unlabelled matches), "opt-in" (a label must be present), or
// "kubernetes.io/metadata.name=X" (pinned to one namespace).
std::string selector_scope(const LabelSelector& selector);

struct WebhookSummary {
  const AdmissionWebhook* webhook = nullptr;
  std::string intercepts;  // describe_rules()
  bool shared = false;  // intercepts resources other teams use (built-in, or not the bundle's CRDs)
  bool pods_or_workloads = false;
  bool namespaced_targets = false;  // some target is namespaced, so namespaceSelector applies
  std::string namespace_scope;
  std::string object_scope;
  bool opt_in = false;  // namespace or object scope requires a label other teams lack
  std::vector<std::string> namespaces_hit;
  size_t namespaces_total = 0;
  bool hits_kube_system = false;
  bool hits_other_teams = false;  // hits a namespace the operator does not own
  std::string backend;            // "service ns/name:443" or the URL
  int worst_seconds = 0;          // timeout, doubled when reinvocation may call it twice
};

std::vector<WebhookSummary> summarize_webhooks(const Context& context);

// What admitting one request through the bundle's webhooks and policies involves.
struct AdmissionTrace {
  std::vector<const AdmissionPolicy*> mutating_policies;
  std::vector<const AdmissionWebhook*> mutating_webhooks;  // called in series
  std::vector<const AdmissionPolicy*> validating_policies;
  std::vector<const AdmissionWebhook*> validating_webhooks;  // called in parallel
  // Worst case when every backend accepts connections and never answers: the mutating
  // timeouts add up (twice for reinvocable ones), the validating ones overlap.
  int worst_seconds = 0;
  std::vector<const AdmissionWebhook*>
      fail_closed;  // reject the request when their backend is down
};

AdmissionTrace trace_admission(const Admission& admission, const AdmissionRequest& request);

// A CREATE of a v1 Pod in `ns`, with that namespace's labels from the context's namespace set.
AdmissionRequest pod_create_request(const Context& context, const std::string& ns);

}  // namespace footprint
