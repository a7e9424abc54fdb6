#include "model/admission.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "model/kubectl_json.h"
#include "util/strings.h"

namespace footprint {

namespace {

constexpr std::string_view kGroup = "admissionregistration.k8s.io";

std::vector<std::string> strings_of(const yaml::Node& list) {
  std::vector<std::string> out;
  for (size_t i = 0; i < list.size(); ++i)
    out.emplace_back(list.item(i).str());
  return out;
}

std::vector<AdmissionRule> rules_of(const yaml::Node& rules) {
  std::vector<AdmissionRule> out;
  for (size_t i = 0; i < rules.size(); ++i) {
    yaml::Node r = rules.item(i);
    AdmissionRule rule;
    rule.operations = strings_of(r.get("operations"));
    rule.api_groups = strings_of(r.get("apiGroups"));
    rule.api_versions = strings_of(r.get("apiVersions"));
    rule.resources = strings_of(r.get("resources"));
    if (!r.get("scope").str().empty()) rule.scope = std::string(r.get("scope").str());
    out.push_back(std::move(rule));
  }
  return out;
}

std::vector<MatchCondition> conditions_of(const yaml::Node& conditions) {
  std::vector<MatchCondition> out;
  for (size_t i = 0; i < conditions.size(); ++i) {
    yaml::Node c = conditions.item(i);
    out.push_back(
        MatchCondition{std::string(c.get("name").str()), std::string(c.get("expression").str())});
  }
  return out;
}

LabelSelector selector_of(const yaml::Node& node) {
  auto selector = parse_label_selector(node);
  return selector ? *selector : LabelSelector{};
}

LabelSelector both(const LabelSelector& a, const LabelSelector& b) {
  LabelSelector out;
  out.absent = a.absent && b.absent;
  out.requirements = a.requirements;
  out.requirements.insert(out.requirements.end(), b.requirements.begin(), b.requirements.end());
  return out;
}

AdmissionWebhook read_webhook(const Object& configuration, const yaml::Node& w) {
  // admissionregistration v1beta1 defaults differ from v1: failurePolicy Ignore, 30 s,
  // matchPolicy Exact, sideEffects Unknown.
  bool beta = configuration.version == "v1beta1";
  AdmissionWebhook h;
  h.configuration = &configuration;
  h.mutating = configuration.kind == "MutatingWebhookConfiguration";
  h.name = std::string(w.get("name").str());
  h.node = w;
  h.rules = rules_of(w.get("rules"));
  h.namespace_selector = selector_of(w.get("namespaceSelector"));
  h.object_selector = selector_of(w.get("objectSelector"));
  std::string_view match_policy = w.get("matchPolicy").str();
  h.exact_match_policy = match_policy.empty() ? beta : match_policy == "Exact";
  h.match_conditions = conditions_of(w.get("matchConditions"));
  std::string_view failure = w.get("failurePolicy").str();
  h.failure_policy_defaulted = failure.empty();
  h.failure_policy = failure.empty()       ? (beta ? FailurePolicy::kIgnore : FailurePolicy::kFail)
                     : failure == "Ignore" ? FailurePolicy::kIgnore
                                           : FailurePolicy::kFail;
  // As kubectl sends it (YAML 1.1: 0x10 is 16); build_bundle set aside any other than 1 to 30.
  std::optional<int64_t> timeout = kubectl_int(w.get("timeoutSeconds"));
  h.timeout_defaulted = !timeout;
  h.timeout_seconds = timeout ? static_cast<int>(*timeout) : (beta ? 30 : 10);
  h.side_effects = std::string(w.get("sideEffects").str());
  if (h.side_effects.empty() && beta) h.side_effects = "Unknown";
  h.reinvoked_if_needed = h.mutating && w.get("reinvocationPolicy").str() == "IfNeeded";
  h.client = read_webhook_client(w.get("clientConfig"));
  return h;
}

bool is_admission(const Object& obj, std::string_view kind) {
  return obj.group == kGroup && obj.kind == kind;
}

}  // namespace

Admission read_admission(const Bundle& bundle, const Bundle* cluster) {
  Admission a;
  // The cluster's objects, less those the bundle replaces by name, then the bundle's.
  std::vector<std::pair<const Object*, bool>> objects;  // object, in the cluster
  if (cluster) {
    for (const Object& obj : cluster->objects) {
      if (!obj.replaced() && obj.group == "admissionregistration.k8s.io" &&
          !bundle.find(obj.group, obj.kind, "", obj.name)) {
        objects.emplace_back(&obj, true);
      }
    }
  }
  for (const Object& obj : bundle.objects) {
    if (!obj.replaced() && obj.group == "admissionregistration.k8s.io")
      objects.emplace_back(&obj, false);
  }
  for (const char* kind : {"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"}) {
    std::vector<std::pair<const Object*, bool>> configurations;
    for (const auto& entry : objects) {
      if (is_admission(*entry.first, kind)) configurations.push_back(entry);
    }
    // The API server calls webhooks of configurations in name order
    // (apiserver/pkg/admission/configuration/*_webhook_manager.go sorts them by name).
    std::stable_sort(configurations.begin(), configurations.end(),
                     [](const auto& x, const auto& y) { return x.first->name < y.first->name; });
    for (const auto& [c, in_cluster] : configurations) {
      yaml::Node webhooks = c->node.get("webhooks");
      for (size_t i = 0; i < webhooks.size(); ++i) {
        a.webhooks.push_back(read_webhook(*c, webhooks.item(i)));
        a.webhooks.back().in_cluster = in_cluster;
      }
    }
  }
  for (const auto& [policy_ptr, in_cluster] : objects) {
    const Object& policy = *policy_ptr;
    bool mutating = is_admission(policy, "MutatingAdmissionPolicy");
    if (!mutating && !is_admission(policy, "ValidatingAdmissionPolicy")) continue;
    yaml::Node spec = policy.node.get("spec");
    yaml::Node constraints = spec.get("matchConstraints");
    AdmissionPolicy base;
    base.policy = &policy;
    base.in_cluster = in_cluster;
    base.mutating = mutating;
    base.name = policy.name;
    base.rules = rules_of(constraints.get("resourceRules"));
    base.exclude_rules = rules_of(constraints.get("excludeResourceRules"));
    base.namespace_selector = selector_of(constraints.get("namespaceSelector"));
    base.object_selector = selector_of(constraints.get("objectSelector"));
    base.match_conditions = conditions_of(spec.get("matchConditions"));
    base.failure_policy =
        spec.get("failurePolicy").str() == "Ignore" ? FailurePolicy::kIgnore : FailurePolicy::kFail;
    std::string binding_kind = std::string(policy.kind) + "Binding";
    bool bound = false;
    for (const auto& entry : objects) {
      const Object& binding = *entry.first;
      if (!is_admission(binding, binding_kind) ||
          binding.node.at({"spec", "policyName"}).str() != policy.name) {
        continue;
      }
      bound = true;
      AdmissionPolicy p = base;
      p.binding = &binding;
      yaml::Node resources = binding.node.at({"spec", "matchResources"});
      p.binding_rules = rules_of(resources.get("resourceRules"));
      p.namespace_selector =
          both(p.namespace_selector, selector_of(resources.get("namespaceSelector")));
      p.object_selector = both(p.object_selector, selector_of(resources.get("objectSelector")));
      p.validation_actions = strings_of(binding.node.at({"spec", "validationActions"}));
      a.policies.push_back(std::move(p));
    }
    if (!bound) a.policies.push_back(std::move(base));
  }
  return a;
}

bool rule_matches(const AdmissionRule& rule, const AdmissionRequest& request, bool exact) {
  if (!contains(rule.operations, "*") && !contains(rule.operations, request.operation)) {
    return false;
  }
  if (!contains(rule.api_groups, "*") && !contains(rule.api_groups, request.api_group)) {
    return false;
  }
  // Equivalent: the API server converts the request to a version the rule lists, if the
  // resource is served in that version.
  if (!contains(rule.api_versions, "*") && !contains(rule.api_versions, request.api_version)) {
    if (exact) return false;
    bool served =
        request.served_versions.empty() ||
        std::any_of(rule.api_versions.begin(), rule.api_versions.end(),
                    [&](const std::string& v) { return contains(request.served_versions, v); });
    if (!served) return false;
  }
  bool resource_match = false;
  for (const std::string& r : rule.resources) {
    size_t slash = r.find('/');
    std::string_view res = std::string_view(r).substr(0, slash);
    std::string_view sub = slash == std::string::npos ? "" : std::string_view(r).substr(slash + 1);
    // "*" alone means every resource but no subresource; "pods/*" every pods subresource.
    if ((res == "*" || res == request.resource) && (sub == "*" || sub == request.subresource)) {
      resource_match = true;
      break;
    }
  }
  if (!resource_match) return false;
  // Namespace objects are cluster-scoped even though their requests carry a namespace.
  bool namespace_object = request.resource == "namespaces" && request.api_group.empty();
  bool cluster = namespace_object || request.namespace_.empty();
  if (rule.scope == "Cluster") return cluster;
  if (rule.scope == "Namespaced") return !cluster;
  return true;
}

namespace {

bool is_namespace_object(const AdmissionRequest& request) {
  return request.resource == "namespaces" && request.api_group.empty();
}

// The labels a namespaceSelector is evaluated on (predicates/namespace/matcher.go,
// GetNamespaceLabels): for CREATE and UPDATE of a Namespace object itself, the labels of the
// object in the request, because the namespace lister does not have them yet; otherwise the
// labels of the namespace the request is in (for DELETE of a Namespace, its stored labels).
const Labels& namespace_labels_for(const AdmissionRequest& request) {
  bool writes_namespace = is_namespace_object(request) && request.subresource.empty() &&
                          (request.operation == "CREATE" || request.operation == "UPDATE");
  return writes_namespace ? request.object_labels : request.namespace_labels;
}

bool selectors_match(const LabelSelector& namespace_selector, const LabelSelector& object_selector,
                     const AdmissionRequest& request) {
  // MatchNamespaceSelector: a request for a cluster-scoped resource other than a namespace is
  // never exempted by the namespaceSelector.
  if ((is_namespace_object(request) || !request.namespace_.empty()) &&
      !namespace_selector.matches(namespace_labels_for(request))) {
    return false;
  }
  // predicates/object/matcher.go: a non-empty objectSelector needs an object with metadata,
  // and a CONNECT request carries only its options (PodExecOptions...), never such an object.
  if (request.operation == "CONNECT" && !object_selector.empty()) return false;
  return object_selector.matches(request.object_labels);
}

}  // namespace

bool exempt_from_webhooks(const AdmissionRequest& request) {
  static constexpr std::string_view kExempt[] = {
      "validatingwebhookconfigurations", "mutatingwebhookconfigurations",
      "validatingadmissionpolicies",     "validatingadmissionpolicybindings",
      "mutatingadmissionpolicies",       "mutatingadmissionpolicybindings"};
  return request.api_group == kGroup &&
         std::find(std::begin(kExempt), std::end(kExempt), request.resource) != std::end(kExempt);
}

bool webhook_matches(const AdmissionWebhook& webhook, const AdmissionRequest& request) {
  if (exempt_from_webhooks(request)) return false;
  bool any = std::any_of(webhook.rules.begin(), webhook.rules.end(), [&](const AdmissionRule& r) {
    return rule_matches(r, request, webhook.exact_match_policy);
  });
  return any && selectors_match(webhook.namespace_selector, webhook.object_selector, request);
}

bool policy_matches(const AdmissionPolicy& policy, const AdmissionRequest& request) {
  auto any_of = [&](const std::vector<AdmissionRule>& rules) {
    return std::any_of(rules.begin(), rules.end(),
                       [&](const AdmissionRule& r) { return rule_matches(r, request, false); });
  };
  if (!policy.binding || !any_of(policy.rules) || any_of(policy.exclude_rules)) return false;
  if (!policy.binding_rules.empty() && !any_of(policy.binding_rules)) return false;
  return selectors_match(policy.namespace_selector, policy.object_selector, request);
}

std::string describe_rules(const std::vector<AdmissionRule>& rules) {
  std::vector<std::string> parts;
  for (const AdmissionRule& rule : rules) {
    std::vector<std::string> resources;
    for (const std::string& g : rule.api_groups) {
      for (const std::string& r : rule.resources) {
        std::string what = r == "*"     ? "all resources"
                           : r == "*/*" ? "all resources and subresources"
                                        : r;
        if (g == "*") {
          what += " (all groups)";
        } else if (!g.empty()) {
          what += "." + g;
        }
        resources.push_back(std::move(what));
      }
    }
    std::string ops = contains(rule.operations, "*")
                          ? "all operations"
                          : fmt::format("{}", fmt::join(rule.operations, ", "));
    parts.push_back(fmt::format("{} {}", fmt::join(resources, ", "), ops));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

}  // namespace footprint
