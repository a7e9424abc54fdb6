// Admission control as the API server applies it: webhooks from Mutating/Validating
// WebhookConfigurations (v1 and the legacy v1beta1, each with its own defaults), and in-process
// Validating/MutatingAdmissionPolicies with their bindings; and the request matching rules
// (admission/plugin/webhook/predicates).
#pragma once

#include <string>
#include <vector>

#include "model/object.h"
#include "model/selector.h"
#include "model/webhook_client.h"

namespace footprint {

struct AdmissionRule {
  std::vector<std::string> operations;  // CREATE, UPDATE, DELETE, CONNECT or *
  std::vector<std::string> api_groups;
  std::vector<std::string> api_versions;
  std::vector<std::string> resources;  // "pods", "pods/exec", "*", "pods/*", "*/scale", "*/*"
  std::string scope = "*";             // "*", "Cluster" or "Namespaced"
};

struct MatchCondition {
  std::string name;
  std::string expression;  // CEL; not evaluated, shown as what narrows the match
};

enum class FailurePolicy : uint8_t { kFail, kIgnore };

struct AdmissionWebhook {
  const Object* configuration = nullptr;
  bool mutating = false;
  std::string name;
  yaml::Node node;
  std::vector<AdmissionRule> rules;
  LabelSelector namespace_selector;  // absent means {} (everything), the API default
  LabelSelector object_selector;
  bool exact_match_policy = false;  // v1 default Equivalent; v1beta1 default Exact
  std::vector<MatchCondition> match_conditions;
  FailurePolicy failure_policy = FailurePolicy::kFail;  // v1 default Fail; v1beta1 Ignore
  bool failure_policy_defaulted = false;
  int timeout_seconds = 10;  // v1 default 10; v1beta1 30
  bool timeout_defaulted = false;
  std::string side_effects;          // v1beta1 default Unknown
  bool reinvoked_if_needed = false;  // reinvocationPolicy: IfNeeded (mutating only)
  bool in_cluster = false;           // already in the cluster (--cluster), not the bundle's
  WebhookClient client;

  std::string kind_letter() const { return mutating ? "M" : "V"; }
};

// A ValidatingAdmissionPolicy or MutatingAdmissionPolicy together with one binding: the
// policy's matchConstraints narrowed by the binding's matchResources. A policy acts only
// through bindings.
struct AdmissionPolicy {
  const Object* policy = nullptr;
  const Object* binding = nullptr;  // null: the policy is not bound by anything in the bundle
  bool mutating = false;
  bool in_cluster = false;  // already in the cluster (--cluster), not the bundle's
  std::string name;
  std::vector<AdmissionRule> rules;          // policy matchConstraints.resourceRules
  std::vector<AdmissionRule> exclude_rules;  // policy excludeResourceRules
  std::vector<AdmissionRule> binding_rules;  // binding matchResources.resourceRules, if any
  LabelSelector namespace_selector;          // policy and binding selectors, ANDed
  LabelSelector object_selector;
  std::vector<MatchCondition> match_conditions;
  FailurePolicy failure_policy = FailurePolicy::kFail;
  std::vector<std::string> validation_actions;  // Deny, Warn, Audit
};

struct Admission {
  std::vector<AdmissionWebhook> webhooks;  // in the order the API server calls them
  std::vector<AdmissionPolicy> policies;
};

// Reads every webhook and policy of the bundle. Webhooks are ordered as the API server calls
// them: configurations sorted by name, webhooks in listed order within each. With `cluster`, a
// snapshot's webhooks and policies join them (marked in_cluster), less those the bundle replaces
// by name.
Admission read_admission(const Bundle& bundle, const Bundle* cluster = nullptr);

// An admission request, as admission.Attributes describes it.
struct AdmissionRequest {
  std::string operation;  // CREATE, UPDATE, DELETE, CONNECT
  std::string api_group;
  std::string api_version;
  std::string resource;
  std::string subresource;
  std::string namespace_;  // empty for cluster-scoped resources
  // The labels of the namespace the request is in. For CREATE and UPDATE of a Namespace object,
  // the namespaceSelector reads object_labels instead, as the API server does.
  Labels namespace_labels;
  Labels object_labels;
  // The versions the API server serves the resource in: with matchPolicy Equivalent, a rule
  // naming any of them matches (the equivalent resources of generic/webhook.go ShouldCallHook);
  // a rule naming only versions nobody serves matches nothing. Empty: unknown, any version.
  std::vector<std::string> served_versions;
};

// Matching per admission/plugin/webhook/predicates: rules (operation, group, version unless
// matchPolicy is Equivalent, resource/subresource, scope), then namespaceSelector (skipped for
// cluster-scoped resources other than namespaces), then objectSelector (never matched by
// CONNECT when non-empty). matchConditions are CEL and not evaluated: a match here means "may be
// called". Requests on webhook configurations and admission policies never reach a webhook.
bool exempt_from_webhooks(const AdmissionRequest& request);
bool rule_matches(const AdmissionRule& rule, const AdmissionRequest& request, bool exact);
bool webhook_matches(const AdmissionWebhook& webhook, const AdmissionRequest& request);
bool policy_matches(const AdmissionPolicy& policy, const AdmissionRequest& request);

// "pods CREATE", "deployments.apps CREATE, UPDATE", "all resources", ... for display.
std::string describe_rules(const std::vector<AdmissionRule>& rules);

}  // namespace footprint
