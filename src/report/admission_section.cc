#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"
#include "analysis/models/webhook_reach.h"
#include "report/report.h"

namespace footprint {

namespace {

std::string_view failure_name(FailurePolicy p) {
  return p == FailurePolicy::kFail ? "Fail" : "Ignore";
}

// A webhook that matches nothing hits no namespace; the HTML blast radius says the same.
std::string hit_cell(const WebhookSummary& s) {
  if (s.reach.matches_nothing()) return "matches nothing";
  if (!s.reach.namespaced) return "cluster-scoped";
  return fmt::format("{} of {} ({})", s.namespaces_hit.size(), s.namespaces_total,
                     s.namespace_scope);
}

Json webhook_json(const WebhookSummary& s) {
  const AdmissionWebhook& w = *s.webhook;
  Json j = {{"name", w.name},
            {"configuration", w.configuration->name},
            {"kind", w.mutating ? "mutating" : "validating"},
            {"intercepts", s.intercepts},
            {"reaches",
             {{"podCreation", s.reach.pod_creation},
              {"builtin", s.reach.builtin},
              {"otherProjects", s.reach.other_custom},
              {"own", s.reach.own}}},
            {"reachesOtherTeams", s.reaches_other_teams()},
            {"namespaceSelector", s.namespace_scope},
            {"objectSelector", s.object_scope},
            {"namespacesHit", s.reach.matches_nothing() ? Json::array()
                              : s.reach.namespaced      ? Json(s.namespaces_hit)
                                                        : Json(nullptr)},
            {"otherTeamsNamespacesHit", s.others_hit},
            {"namespacesTotal", s.namespaces_total},
            {"failurePolicy", failure_name(w.failure_policy)},
            {"failurePolicyDefaulted", w.failure_policy_defaulted},
            {"timeoutSeconds", w.timeout_seconds},
            {"timeoutDefaulted", w.timeout_defaulted},
            {"reinvocation", w.reinvoked_if_needed ? "IfNeeded" : "Never"},
            {"matchPolicy", w.exact_match_policy ? "Exact" : "Equivalent"},
            {"sideEffects", w.side_effects},
            {"backend", s.backend_name},
            {"caBundle", w.client.has_ca_bundle}};
  Json conditions = Json::array();
  for (const MatchCondition& c : w.match_conditions) {
    conditions.push_back({{"name", c.name}, {"expression", c.expression}});
  }
  j["matchConditions"] = conditions;
  return j;
}

}  // namespace

Section admission_section(const Context& ctx) {
  Section s;
  s.id = "admission";
  s.title = "Admission";
  const std::vector<WebhookSummary>& summaries = ctx.webhooks;
  Json webhooks = Json::array();
  Table table;
  table.header = {"WEBHOOK",         "M/V",     "INTERCEPTS", "NAMESPACES HIT",
                  "OBJECT SELECTOR", "FAILURE", "TIMEOUT",    "BACKEND"};
  // Backends are long and shared by many webhooks: the table numbers them, a list names them.
  std::vector<std::string> backends;
  for (const WebhookSummary& w : summaries) {
    auto it = std::find(backends.begin(), backends.end(), w.backend_name);
    size_t number = static_cast<size_t>(it - backends.begin()) + 1;
    if (it == backends.end()) backends.push_back(w.backend_name);
    table.rows.push_back({w.webhook->name, w.webhook->kind_letter(), w.intercepts, hit_cell(w),
                          w.object_scope, std::string(failure_name(w.webhook->failure_policy)),
                          fmt::format("{}s", w.webhook->timeout_seconds),
                          fmt::format("[{}]", number)});
    webhooks.push_back(webhook_json(w));
  }
  size_t mutating = std::count_if(summaries.begin(), summaries.end(),
                                  [](const WebhookSummary& w) { return w.webhook->mutating; });
  std::string names;
  for (const ClusterNamespace& ns : ctx.namespaces)
    names += (names.empty() ? "" : ", ") + ns.name;
  s.blocks.push_back(Block{{fmt::format("{}: {} mutating, {} validating. Namespaces "
                                        "hit are counted over: {}.",
                                        count_of(summaries.size(), "webhook"), mutating,
                                        summaries.size() - mutating, names)},
                           std::nullopt});
  if (!table.rows.empty()) {
    Block b{{}, std::move(table)};
    s.blocks.push_back(std::move(b));
    Block list;
    for (size_t i = 0; i < backends.size(); ++i) {
      list.lines.push_back(fmt::format("[{}] {}", i + 1, backends[i]));
    }
    s.blocks.push_back(std::move(list));
  }

  // What a pod in another team's namespace goes through: the seed's unmeasured question.
  const ClusterNamespace* other_team = other_team_namespace(ctx.namespaces);
  std::string other_team_name = other_team ? other_team->name : kOtherTeamNamespace;
  AdmissionTrace pod =
      trace_admission(ctx.admission, pod_create_request(ctx.namespaces, other_team_name));
  std::vector<std::string> fail_closed;
  for (const AdmissionWebhook* w : pod.fail_closed)
    fail_closed.push_back(w->name);
  Json failure = {{"podCreateInOtherTeam",
                   {{"namespace", other_team_name},
                    {"mutatingWebhooks", pod.mutating_webhooks.size()},
                    {"validatingWebhooks", pod.validating_webhooks.size()},
                    {"worstCaseSeconds", pod.worst_seconds},
                    {"failClosed", fail_closed}}}};
  if (!summaries.empty() && pod.mutating_webhooks.empty() && pod.validating_webhooks.empty()) {
    // "waits up to 0 s" would read as a measurement; nothing is called, so nothing waits.
    s.blocks.push_back(Block{{fmt::format("Creating a pod in another team's namespace ({}) "
                                          "passes none of this bundle's webhooks.",
                                          other_team_name)},
                             std::nullopt});
  } else if (!summaries.empty()) {
    std::string line = fmt::format(
        "Creating a pod in another team's namespace ({}) passes {} mutating and {} "
        "of this bundle. If their backends hang, it waits up to {} s (mutating "
        "webhooks are called in series, validating ones in parallel). If their backends are "
        "down, {}. Modelled from the API server's documented behaviour, not measured.",
        other_team_name, pod.mutating_webhooks.size(),
        count_of(pod.validating_webhooks.size(), "validating webhook"), pod.worst_seconds,
        fail_closed.empty() ? "it is admitted"
                            : fmt::format("it is rejected by {}", fmt::join(fail_closed, ", ")));
    s.blocks.push_back(Block{{line}, std::nullopt});
  }

  Json policies = Json::array();
  Table policy_table;
  policy_table.header = {"POLICY", "M/V", "INTERCEPTS", "BINDING", "FAILURE", "ACTIONS"};
  for (const AdmissionPolicy& p : ctx.admission.policies) {
    std::string binding = p.binding ? p.binding->name : "none: the policy does nothing";
    policy_table.rows.push_back({p.name, p.mutating ? "M" : "V", describe_rules(p.rules), binding,
                                 std::string(failure_name(p.failure_policy)),
                                 fmt::format("{}", fmt::join(p.validation_actions, ", "))});
    policies.push_back({{"name", p.name},
                        {"kind", p.mutating ? "mutating" : "validating"},
                        {"intercepts", describe_rules(p.rules)},
                        {"binding", p.binding ? Json(p.binding->name) : Json(nullptr)},
                        {"failurePolicy", failure_name(p.failure_policy)},
                        {"validationActions", p.validation_actions}});
  }
  if (!policy_table.rows.empty()) {
    s.blocks.push_back(Block{{"Admission policies run inside the API server (CEL): no backend "
                              "can fail, but they still reject or change requests."},
                             std::move(policy_table)});
  }
  s.json = {{"webhooks", webhooks}, {"policies", policies}, {"failureModes", failure}};
  return s;
}

}  // namespace footprint
