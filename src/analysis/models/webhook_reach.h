// Admission analysis shared by the webhook-* checks, the Admission section, `compare` and
// `footprint admission`: what each webhook intercepts, where, and what its failure costs. What a
// webhook intercepts is found by asking the matcher (model/admission.h) about every resource
// the API server serves, not by reading its rules as text.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/finding.h"
#include "model/admission.h"
#include "model/namespaces.h"
#include "model/webhook_client.h"
#include "model/workloads.h"

namespace footprint {

struct OwnApis;  // models/ownership.h

// How a selector scopes a webhook: "none" (no selector: everything), "opt-out" (only
// exclusions, so everything unlabelled matches), "opt-in" (a label must be present), or
// "kubernetes.io/metadata.name=X" (pinned to one namespace).
std::string selector_scope(const LabelSelector& selector);

// The classes of requests a webhook's rules match, each as "resource[.group] OPERATIONS".
struct WebhookReach {
  // CREATE of pods, or CREATE and UPDATE of the workloads that create pods: what every team
  // needs to run anything.
  std::vector<std::string> pod_creation;
  std::vector<std::string> builtin;       // other built-in resources and subresources
  std::vector<std::string> other_custom;  // other projects' custom resources
  std::vector<std::string> own;           // the install's own API groups
  bool namespaced = false;  // some matched resource is namespaced, so namespaceSelector applies
  // Some shared resource matched is cluster-scoped (other than Namespace): the API server
  // ignores the namespaceSelector for those, so they are intercepted for everyone.
  bool cluster_wide = false;

  bool shared() const { return !pod_creation.empty() || !builtin.empty() || !other_custom.empty(); }
  bool matches_nothing() const { return !shared() && own.empty(); }
};

// The requests of the cluster's own components a webhook is called for: in kube-system (start
// DNS, CNI and kube-proxy pods, tokens, leader-election leases, endpoints, upgrades) and every
// kubelet's heartbeat (its Lease in kube-node-lease, its Node's status).
// One request of the cluster's components: `resource` is "resource[.group][/subresource]",
// `ns` is empty for a cluster-scoped resource.
struct ComponentRequest {
  std::string ns;
  std::string verb;  // the admission operation: CREATE, UPDATE
  std::string resource;
  bool cluster_scoped = false;

  // "pods CREATE", "leases.coordination.k8s.io in kube-node-lease UPDATE": kube-system, where
  // most are, goes unsaid.
  std::string display() const;
  bool operator==(const ComponentRequest&) const = default;
};

struct ComponentHit {
  std::vector<ComponentRequest> requests;
  std::vector<std::string> namespaces;  // where those requests are: kube-system, kube-node-lease
  std::vector<std::string> blocked;     // what the components cannot do while it rejects them
  bool vital = false;  // without them, components cannot start or keep their leases
};

struct WebhookSummary {
  const AdmissionWebhook* webhook = nullptr;
  std::string intercepts;  // describe_rules()
  WebhookReach reach;
  std::string namespace_scope;
  std::string object_scope;
  // A selector requires a label: other teams' objects or namespaces are reached only if they
  // carry it, that is, if their owners opted in. A namespaceSelector does not make a webhook on
  // cluster-scoped resources opt-in: it does not apply to them.
  bool opt_in = false;
  std::vector<std::string> namespaces_hit;  // of the namespace set, when reach.namespaced
  size_t namespaces_total = 0;
  bool hits_kube_system = false;
  // Namespaces hit that the operator does not own, kube-system excepted (it has its own check),
  // and how many such namespaces the set has.
  std::vector<std::string> others_hit;
  size_t others_total = 0;
  ComponentHit components;
  std::string backend_name;  // "service ns/name:443" or the URL
  // What the bundle provides behind the Service the webhook calls; empty for a URL. Webhooks
  // calling the same Service port share one resolution.
  ServiceBackend backend;
  int worst_seconds = 0;  // timeout, doubled when reinvocation may call it twice

  // Other teams' requests reach the webhook: it matches shared resources, and either they are
  // cluster-scoped or the webhook is called in a namespace the operator does not own.
  bool reaches_other_teams() const {
    return reach.shared() && (reach.cluster_wide || !reach.namespaced || !others_hit.empty());
  }
};

// The webhooks' names, in the order of `list`.
std::vector<std::string> webhook_names(const std::vector<const WebhookSummary*>& list);

// For Context::webhooks: what each webhook of `admission` reaches among the bundle's resources,
// the install's own APIs (`own`) and the namespace set, and what backs it among the bundle's
// Services and `pods` (its pod templates). The i-th summary is that of admission.webhooks[i]:
// summaries are in the order the API server calls the webhooks.
std::vector<WebhookSummary> summarize_webhooks(const Bundle& bundle,
                                               std::span<const PodTemplate> pods,
                                               const Admission& admission, const OwnApis& own,
                                               std::span<const ClusterNamespace> namespaces);

// What each webhook check rates one webhook, or nothing when the check does not report it. The
// checks group webhooks by backend and report the worst; the HTML matrix colours by the same.
// webhook-fail-closed: other teams' requests rejected while the backend is down.
std::optional<Severity> fail_closed_severity(const WebhookSummary& summary);
// webhook-intercepts-shared-resources: other teams' requests sent to the backend.
std::optional<Severity> intercepts_severity(const WebhookSummary& summary);
// webhook-kube-system: the cluster's own components' requests sent to the backend.
std::optional<Severity> components_severity(const WebhookSummary& summary);

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

// A namespace the operator does not own and that is not a system namespace: where another team's
// pod would be created. The stand-in "other-team" when it is in the set (the default namespaces),
// else the first such namespace of the cluster; null when every namespace is the operator's or
// the system's.
const ClusterNamespace* other_team_namespace(std::span<const ClusterNamespace> namespaces);

// A CREATE of a v1 Pod in `ns`, with that namespace's labels from the namespace set.
AdmissionRequest pod_create_request(std::span<const ClusterNamespace> namespaces,
                                    const std::string& ns);

}  // namespace footprint
