// webhook-matches-nothing: a webhook whose rules match no resource the API server serves is
// never called. Its failure policy, backend and scope then cost nothing, so the other webhook
// checks leave it alone (WebhookReach::matches_nothing) and this one finding says what is wrong.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"
#include "analysis/models/webhook_reach.h"

namespace footprint {

namespace {

bool lists(const std::vector<std::string>& values, std::string_view value) {
  return std::any_of(values.begin(), values.end(),
                     [&](const std::string& v) { return v == "*" || v == value; });
}

void add_hint(std::vector<std::string>& hints, std::string hint) {
  if (std::find(hints.begin(), hints.end(), hint) == hints.end()) hints.push_back(std::move(hint));
}

// Why a rule's resource matches nothing, for the usual mistakes: the resource named under the
// wrong group ("deployments is served in group apps"), in a version nobody serves, or excluded
// by the rule's scope ("pods is namespaced, so scope Cluster excludes it").
std::vector<std::string> why_nothing(const Context& ctx, const AdmissionWebhook& w) {
  std::vector<std::string> hints;
  for (const AdmissionRule& rule : w.rules) {
    for (const std::string& written : rule.resources) {
      std::string resource = written.substr(0, written.find('/'));
      if (resource == "*") continue;
      std::vector<std::string> groups;
      std::vector<const ResourceInfo*> in_group;
      for (const ResourceInfo& info : ctx.bundle.resources.all()) {
        if (info.resource != resource) continue;
        std::string group = info.group.empty() ? "\"\" (core)" : info.group;
        if (std::find(groups.begin(), groups.end(), group) == groups.end()) groups.push_back(group);
        if (lists(rule.api_groups, info.group)) in_group.push_back(&info);
      }
      if (groups.empty()) continue;
      if (in_group.empty()) {
        add_hint(hints,
                 fmt::format("{} is served in {} {}", resource,
                             groups.size() == 1 ? "group" : "groups", fmt::join(groups, ", ")));
        continue;
      }
      for (const ResourceInfo* info : in_group) {
        bool version =
            std::any_of(info->versions.begin(), info->versions.end(),
                        [&](const std::string& v) { return lists(rule.api_versions, v); });
        // Namespace objects are cluster-scoped, like the rule's scope Cluster expects.
        bool cluster = info->scope == Scope::kCluster;
        if (!version) {
          add_hint(hints, fmt::format("{} is served in {} {}", resource,
                                      info->versions.size() == 1 ? "version" : "versions",
                                      fmt::join(info->versions, ", ")));
        } else if (rule.scope == "Cluster" && !cluster && info->scope != Scope::kUnknown) {
          add_hint(hints, fmt::format("{} is namespaced, so scope Cluster excludes it", resource));
        } else if (rule.scope == "Namespaced" && cluster) {
          add_hint(hints,
                   fmt::format("{} is cluster-scoped, so scope Namespaced excludes it", resource));
        }
      }
    }
  }
  return hints;
}

void run_matches_nothing(const Context& ctx, Findings& out) {
  for (const WebhookSummary& s : ctx.webhooks) {
    const AdmissionWebhook& w = *s.webhook;
    if (!s.reach.matches_nothing()) continue;
    if (w.rules.empty()) {
      // As written it is never called; but Knative's and Tekton's webhooks reconcile their own
      // rules at run time, so what it will intercept is not in the manifest: low, and said so.
      Finding& f = out.add(
          *w.configuration, Severity::kLow,
          fmt::format("Webhook {} has no rules, so as written the API server never calls it. "
                      "Operators such as Knative and Tekton fill the rules in at run time; then "
                      "what it intercepts is decided by the operator, not by these manifests, "
                      "and this review cannot see it.",
                      w.name),
          fmt::format("If the operator writes the rules, review them after the install (kubectl "
                      "get {}webhookconfiguration {} -o yaml); otherwise add rules or remove the "
                      "webhook.",
                      w.mutating ? "mutating" : "validating", w.configuration->name),
          w.node);
      f.summary = fmt::format("Webhook {} has no rules, so as written it never runs", w.name);
      continue;
    }
    std::vector<std::string> hints = why_nothing(ctx, w);
    std::string hint = hints.empty() ? "" : fmt::format(" ({})", fmt::join(hints, "; "));
    Finding& f = out.add(
        *w.configuration, Severity::kMedium,
        fmt::format("Webhook {} matches no resource the API server serves: its rules ({}) name "
                    "no served group, version and resource together{}. The API server never "
                    "calls it, so the {} it was written for never happens; its failure policy "
                    "and backend do not matter.",
                    w.name, s.intercepts, hint, w.mutating ? "defaulting" : "validation"),
        hints.empty()
            ? "Correct the rules' apiGroups, apiVersions and resources to what the "
              "webhook server handles, or remove the webhook."
            : fmt::format("Correct the rules ({}), or remove the webhook.", fmt::join(hints, "; ")),
        w.node);
    f.summary = fmt::format("Webhook {} matches nothing, so it never runs", w.name);
  }
}

}  // namespace

extern const Check kWebhookMatchesNothing{
    .id = "webhook-matches-nothing",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kMedium,
    .impact = Impact::kInstall,
    .area = Area::kAdmission,
    .description =
        "A webhook's rules match no resource the API server serves, so it is never called.",
    .run = run_matches_nothing,
    .rationale =
        "The API server calls a webhook only for requests its rules match; rules that name a "
        "resource in the wrong group (deployments in the core group) or a version nobody serves "
        "match nothing. The webhook is dead code, most likely a chart bug, and the validation or "
        "defaulting it was meant to do silently never happens. Medium. A webhook without rules "
        "(none, or an empty list) matches nothing as well, but operators such as Knative and "
        "Tekton fill its rules in at run time, so what it will intercept is not in the "
        "manifests: low, with that said. The other webhook checks say nothing about such a "
        "webhook: while it is never called, its scope and backend cost nothing.",
    .fix =
        "Correct the rules to the group, version and resource the webhook server handles, or "
        "remove the webhook.",
};

}  // namespace footprint
