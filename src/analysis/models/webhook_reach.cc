#include "analysis/models/webhook_reach.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/models/ownership.h"
#include "analysis/models/rights.h"
#include "load/parallel.h"
#include "util/strings.h"

namespace footprint {

namespace {

constexpr std::string_view kOperations[] = {"CREATE", "UPDATE", "DELETE", "CONNECT"};

// The admission operations the API server can send for a resource or subresource, from the REST
// interfaces its storage implements (pkg/registry/core/pod/rest/subresources.go: exec, attach,
// portforward and proxy are rest.Connecter; log is only read, and reads are never admitted;
// status, scale, approval, finalize, ephemeralcontainers and resize are updated; binding,
// eviction and token are created). A webhook rule on `pods/*` CREATE never sees an exec.
bool operation_exists(std::string_view group, std::string_view resource,
                      std::string_view subresource, std::string_view op) {
  if (subresource.empty()) {
    // Reviews and bindings are only ever created (their storage is a rest.Creater alone), and
    // componentstatuses are only read.
    bool create_only = (group.empty() && resource == "bindings") ||
                       group == "authentication.k8s.io" || group == "authorization.k8s.io";
    if (create_only) return op == "CREATE";
    if (group.empty() && resource == "componentstatuses") return false;
    return op != "CONNECT";
  }
  if (subresource == "exec" || subresource == "attach" || subresource == "portforward" ||
      subresource == "proxy") {
    return op == "CONNECT";
  }
  if (subresource == "log") return false;
  if (subresource == "status" || subresource == "scale" || subresource == "approval" ||
      subresource == "finalize" || subresource == "ephemeralcontainers" ||
      subresource == "resize") {
    return op == "UPDATE";
  }
  if (subresource == "binding" || subresource == "eviction" || subresource == "token") {
    return op == "CREATE";
  }
  return true;
}

// Workloads whose controllers create pods; blocking their CREATE or UPDATE stops rollouts.
bool creates_pods(std::string_view group, std::string_view resource) {
  if (group.empty() && resource == "pods") return false;
  return std::any_of(
      std::begin(kPodCreators), std::end(kPodCreators),
      [&](const WorkloadResource& c) { return c.group == group && c.resource == resource; });
}

std::string resource_label(const ResourceInfo& info, std::string_view subresource) {
  std::string out = info.resource;
  if (!info.group.empty()) out += "." + info.group;
  if (!subresource.empty()) out += fmt::format("/{}", subresource);
  return out;
}

// The operations of `webhook` that match requests on one resource or subresource, in any served
// version; namespace and object selectors are left to the caller.
std::vector<std::string_view> matching_operations(const AdmissionWebhook& webhook,
                                                  const ResourceInfo& info,
                                                  std::string_view subresource) {
  std::vector<std::string_view> out;
  AdmissionRequest request;
  request.api_group = info.group;
  request.resource = info.resource;
  request.subresource = subresource;
  request.namespace_ = info.scope == Scope::kCluster ? "" : "x";
  request.served_versions = info.versions;
  if (exempt_from_webhooks(request)) return out;
  for (std::string_view op : kOperations) {
    if (!operation_exists(info.group, info.resource, subresource, op)) continue;
    request.operation = op;
    bool matches = std::any_of(info.versions.begin(), info.versions.end(), [&](const auto& v) {
      request.api_version = v;
      return std::any_of(webhook.rules.begin(), webhook.rules.end(), [&](const AdmissionRule& r) {
        return rule_matches(r, request, webhook.exact_match_policy);
      });
    });
    if (matches) out.push_back(op);
  }
  return out;
}

WebhookReach reach_of(const ResourceTable& resources, const OwnApis& own_apis,
                      const AdmissionWebhook& webhook) {
  WebhookReach reach;
  for (const ResourceInfo& info : resources.all()) {
    std::vector<std::string_view> subresources = {""};
    subresources.insert(subresources.end(), info.subresources.begin(), info.subresources.end());
    for (std::string_view sub : subresources) {
      std::vector<std::string_view> ops = matching_operations(webhook, info, sub);
      if (ops.empty()) continue;
      bool namespace_selector_applies =
          info.scope != Scope::kCluster || (info.group.empty() && info.resource == "namespaces");
      if (namespace_selector_applies) reach.namespaced = true;
      std::string what = fmt::format("{} {}", resource_label(info, sub), fmt::join(ops, "/"));
      if (!info.builtin) {
        add_unique(reach.own, std::move(what));
        continue;
      }
      bool pod_create =
          sub.empty() && ((info.group.empty() && info.resource == "pods" &&
                           std::find(ops.begin(), ops.end(), "CREATE") != ops.end()) ||
                          (creates_pods(info.group, info.resource) &&
                           std::any_of(ops.begin(), ops.end(), [](std::string_view op) {
                             return op == "CREATE" || op == "UPDATE";
                           })));
      add_unique(pod_create ? reach.pod_creation : reach.builtin, std::move(what));
      if (!namespace_selector_applies) reach.cluster_wide = true;
    }
  }
  // Groups the table does not know: other projects' CRDs, or the install's own whose CRDs are
  // not in the input. Their scope is unknown, so the namespaceSelector may apply.
  for (const AdmissionRule& rule : webhook.rules) {
    for (const std::string& g : rule.api_groups) {
      if (g != "*" && (resources.is_builtin_group(g) ||
                       std::any_of(resources.all().begin(), resources.all().end(),
                                   [&](const ResourceInfo& r) { return r.group == g; }))) {
        continue;
      }
      if (rule.resources.empty() || rule.operations.empty()) continue;
      for (const std::string& r : rule.resources) {
        std::string what = g == "*"
                               ? fmt::format("every custom resource ({})", r)
                               : fmt::format("{}.{} {}", r, g, fmt::join(rule.operations, "/"));
        bool own = g != "*" && own_apis.owns(g);
        if (rule.scope != "Cluster") reach.namespaced = true;
        if (rule.scope == "Cluster" && !own) reach.cluster_wide = true;
        add_unique(own ? reach.own : reach.other_custom, std::move(what));
      }
    }
  }
  return reach;
}

struct ComponentCall {
  const char* namespace_;  // empty for cluster-scoped resources
  const char* operation;
  const char* group;
  const char* resource;
  const char* subresource;
  bool vital;           // without it, components cannot start or keep their leases
  const char* blocked;  // what the components cannot do when the webhook rejects it
};

// What the cluster's own components do: in kube-system, start pods (DNS, CNI, kube-proxy), get
// their tokens, renew leader-election leases, publish endpoints and roll out upgrades; and every
// kubelet's heartbeat, a Lease in kube-node-lease renewed every 10 s and its Node's status.
// Without heartbeats the node lifecycle controller marks nodes NotReady and evicts their pods.
constexpr ComponentCall kComponentCalls[] = {
    {"kube-system", "CREATE", "", "pods", "", true, "start pods (DNS, CNI and kube-proxy)"},
    {"kube-system", "CREATE", "", "serviceaccounts", "token", true, "get their tokens"},
    {"kube-system", "UPDATE", "coordination.k8s.io", "leases", "", true,
     "renew their leader-election leases"},
    {"kube-system", "CREATE", "discovery.k8s.io", "endpointslices", "", true,
     "publish Service endpoints"},
    {"kube-system", "UPDATE", "discovery.k8s.io", "endpointslices", "", true,
     "publish Service endpoints"},
    {"kube-node-lease", "UPDATE", "coordination.k8s.io", "leases", "", true,
     "renew node heartbeats (every node turns NotReady)"},
    {"", "UPDATE", "", "nodes", "status", true, "report node status"},
    {"kube-system", "UPDATE", "", "configmaps", "", false, "update their ConfigMaps"},
    {"kube-system", "UPDATE", "apps", "daemonsets", "", false, "roll out DaemonSet upgrades"},
    {"kube-system", "UPDATE", "apps", "deployments", "", false, "roll out Deployment upgrades"},
    {"kube-system", "CREATE", "", "events", "", false, "record events"},
};

ComponentHit components_hit(const ResourceTable& resources,
                            std::span<const ClusterNamespace> namespaces,
                            const AdmissionWebhook& w) {
  ComponentHit hit;
  for (const ComponentCall& c : kComponentCalls) {
    AdmissionRequest r = pod_create_request(namespaces, c.namespace_);
    if (std::string_view(c.namespace_).empty()) r.namespace_labels.clear();
    r.operation = c.operation;
    r.api_group = c.group;
    r.resource = c.resource;
    r.subresource = c.subresource;
    const ResourceInfo* info = resources.find_resource(c.group, c.resource);
    r.api_version = info && !info->versions.empty() ? info->versions.front() : "v1";
    if (info) r.served_versions = info->versions;
    if (!webhook_matches(w, r)) continue;
    std::string what = r.resource;
    if (!r.api_group.empty()) what += "." + r.api_group;
    if (!r.subresource.empty()) what += "/" + r.subresource;
    hit.requests.push_back({r.namespace_, r.operation, std::move(what), r.namespace_.empty()});
    if (!r.namespace_.empty()) add_unique(hit.namespaces, r.namespace_);
    add_unique(hit.blocked, c.blocked);
    hit.vital = hit.vital || c.vital;
  }
  return hit;
}

std::string backend_of(const WebhookClient& c) {
  if (!c.is_service) return c.url.empty() ? "none" : c.url;
  return fmt::format("service {}/{}:{}", c.service_namespace, c.service_name, c.port);
}

}  // namespace

std::string ComponentRequest::display() const {
  if (ns.empty() || ns == "kube-system") return fmt::format("{} {}", resource, verb);
  return fmt::format("{} in {} {}", resource, ns, verb);
}

std::string selector_scope(const LabelSelector& s) {
  if (s.empty()) return "none";
  if (s.only_exclusions()) return "opt-out";
  // An In on the name label pins the namespaces, whatever else is ANDed to it: the API server
  // sets that label to the namespace's name, so no other team can opt in by setting it.
  for (const LabelRequirement& r : s.requirements) {
    if (r.key != kNamespaceNameLabel || r.op != LabelRequirement::Op::kIn) continue;
    return r.values.size() == 1
               ? fmt::format("{}={}", kNamespaceNameLabel, r.values[0])
               : fmt::format("{} in ({})", kNamespaceNameLabel, fmt::join(r.values, ", "));
  }
  return "opt-in";
}

std::vector<std::string> webhook_names(const std::vector<const WebhookSummary*>& list) {
  std::vector<std::string> names;
  for (const WebhookSummary* s : list)
    names.push_back(s->webhook->name);
  return names;
}

std::vector<WebhookSummary> summarize_webhooks(const Bundle& bundle,
                                               std::span<const PodTemplate> pods,
                                               const Admission& admission, const OwnApis& own,
                                               std::span<const ClusterNamespace> namespaces) {
  // One resolution per Service port called: a configuration's webhooks usually share one.
  std::map<std::string, ServiceBackend> backends;
  for (const AdmissionWebhook& w : admission.webhooks) {
    std::string name = backend_of(w.client);
    if (w.client.is_service && !backends.contains(name))
      backends.emplace(name, resolve_service(bundle, pods, w.client));
  }
  // Each webhook's reach asks the matcher about every served resource; webhooks are independent.
  std::vector<WebhookSummary> out(admission.webhooks.size());
  parallel_for(out.size(), bundle.input.jobs, [&](size_t i) {
    const AdmissionWebhook& w = admission.webhooks[i];
    WebhookSummary& s = out[i];
    s.webhook = &w;
    s.intercepts = describe_rules(w.rules);
    s.reach = reach_of(bundle.resources, own, w);
    s.namespace_scope = selector_scope(w.namespace_selector);
    s.object_scope = selector_scope(w.object_selector);
    s.opt_in = (s.object_scope != "none" && s.object_scope != "opt-out") ||
               (s.namespace_scope == "opt-in" && !s.reach.cluster_wide);
    if (s.reach.namespaced) {
      s.namespaces_total = namespaces.size();
      for (const ClusterNamespace& ns : namespaces) {
        // The cluster's own namespaces (kube-system, kube-public, kube-node-lease) are no team's:
        // webhook-kube-system judges what their components need.
        if (!ns.operator_owned && !ns.system) ++s.others_total;
        if (!w.namespace_selector.matches(ns.labels)) continue;
        s.namespaces_hit.push_back(ns.name);
        if (ns.name == "kube-system") {
          s.hits_kube_system = true;
        } else if (!ns.operator_owned && !ns.system && !s.opt_in) {
          s.others_hit.push_back(ns.name);
        }
      }
    }
    s.components = components_hit(bundle.resources, namespaces, w);
    s.backend_name = backend_of(w.client);
    if (w.client.is_service) s.backend = backends.at(s.backend_name);
    s.worst_seconds = w.timeout_seconds * (w.reinvoked_if_needed ? 2 : 1);
  });
  return out;
}

// Pod creation in other teams' namespaces: nobody can start anything while the backend is down.
// Other shared resources: other teams' changes are blocked. The operator's own resources only:
// the usual pattern of a controller that validates its own API.
std::optional<Severity> fail_closed_severity(const WebhookSummary& s) {
  if (s.webhook->failure_policy != FailurePolicy::kFail || s.reach.matches_nothing()) {
    return std::nullopt;
  }
  if (s.reach.shared() && s.opt_in) return Severity::kMedium;
  if (!s.reaches_other_teams()) return Severity::kLow;
  return s.reach.pod_creation.empty() ? Severity::kHigh : Severity::kCritical;
}

// A mutating webhook on every team's pods can change what they run; a validating one can reject
// it, and either adds its latency. Opt-in objectSelectors limit this to labelled objects.
std::optional<Severity> intercepts_severity(const WebhookSummary& s) {
  if (!s.reach.shared()) return std::nullopt;
  if (s.opt_in) return Severity::kLow;
  if (!s.reaches_other_teams()) return std::nullopt;
  if (s.webhook->mutating && !s.reach.pod_creation.empty()) return Severity::kHigh;
  return Severity::kMedium;
}

// Fail-closed on what components need to start and keep their leases: an outage of the cluster;
// on other component writes: they fail; fail-open: only the wait for a hung backend.
std::optional<Severity> components_severity(const WebhookSummary& s) {
  if (s.components.requests.empty()) return std::nullopt;
  if (s.webhook->failure_policy == FailurePolicy::kIgnore) return Severity::kLow;
  return s.components.vital ? Severity::kCritical : Severity::kHigh;
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

const ClusterNamespace* other_team_namespace(std::span<const ClusterNamespace> namespaces) {
  const ClusterNamespace* found = nullptr;
  for (const ClusterNamespace& ns : namespaces) {
    if (ns.operator_owned || ns.system) continue;
    if (ns.name == kOtherTeamNamespace) return &ns;
    if (!found) found = &ns;
  }
  return found;
}

AdmissionRequest pod_create_request(std::span<const ClusterNamespace> namespaces,
                                    const std::string& ns) {
  AdmissionRequest r;
  r.operation = "CREATE";
  r.api_version = "v1";
  r.resource = "pods";
  r.served_versions = {"v1"};
  r.namespace_ = ns;
  for (const ClusterNamespace& n : namespaces) {
    if (n.name == ns) r.namespace_labels = n.labels;
  }
  if (r.namespace_labels.empty()) r.namespace_labels[kNamespaceNameLabel] = ns;
  return r;
}

}  // namespace footprint
