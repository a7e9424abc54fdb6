// workload-replaced-at-once: a Deployment or DaemonSet whose update stops every pod before, or
// while, the new ones start, so what it serves stops for the whole upgrade.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "analysis/context.h"

namespace footprint {

namespace {

// maxUnavailable written as a percentage of at least 100%: every pod may be down at once. The
// Deployment and DaemonSet controllers scale it to the pod count
// (intstr.GetScaledValueFromIntOrPercent).
bool all_unavailable(const yaml::Node& max_unavailable) {
  std::string_view text = max_unavailable.text();
  if (!max_unavailable.is_scalar() || !text.ends_with('%')) return false;
  int percent = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size() - 1, percent);
  return error == std::errc() && end == text.data() + text.size() - 1 && percent >= 100;
}

// How the workload's update replaces its pods all at once, or empty when it does not.
std::string replaced_at_once(const Object& obj, yaml::Node& at) {
  yaml::Node spec = obj.node.get("spec");
  if (obj.kind == "Deployment") {
    yaml::Node strategy = spec.get("strategy");
    if (strategy.get("type").text() == "Recreate") {
      at = strategy.get("type");
      return "its strategy is Recreate: an update stops every old pod before it creates a new one";
    }
    yaml::Node max = strategy.at({"rollingUpdate", "maxUnavailable"});
    if (all_unavailable(max)) {
      at = max;
      return fmt::format(
          "its rolling update allows maxUnavailable {}: every old pod may stop "
          "before a new one is ready",
          max.text());
    }
    return "";
  }
  yaml::Node max = spec.at({"updateStrategy", "rollingUpdate", "maxUnavailable"});
  if (spec.at({"updateStrategy", "type"}).text() != "OnDelete" && all_unavailable(max)) {
    at = max;
    return fmt::format(
        "its rolling update allows maxUnavailable {}: the pod on every node is "
        "replaced at the same time",
        max.text());
  }
  return "";
}

void run_replaced_at_once(const Context& ctx, Findings& out) {
  for (const PodTemplate& t : ctx.pods) {
    const Object& obj = *t.owner;
    if (obj.replaced() || obj.group != "apps" ||
        (obj.kind != "Deployment" && obj.kind != "DaemonSet"))
      continue;
    yaml::Node at;
    std::string how = replaced_at_once(obj, at);
    if (how.empty()) continue;
    // What stops with it: the fail-closed webhooks it serves, which then reject their requests.
    std::vector<std::string> webhooks;
    bool others_blocked = false;
    for (const WebhookSummary& w : ctx.webhooks) {
      const auto& backends = w.backend.backends;
      if (w.webhook->failure_policy != FailurePolicy::kFail ||
          std::find(backends.begin(), backends.end(), &obj) == backends.end())
        continue;
      add_unique(webhooks, w.webhook->name);
      others_blocked = others_blocked || w.reaches_other_teams();
    }
    bool daemon = obj.kind == "DaemonSet";
    std::string stops =
        daemon ? "what it provides on each node stops on every node together"
               : "it does no work until a new pod is ready (an operator reconciles nothing)";
    if (!webhooks.empty()) {
      stops += fmt::format(", and its fail-closed webhooks ({}) reject every request they match{}",
                           some_of(webhooks), others_blocked ? ", other teams' included" : "");
    }
    Severity severity = daemon || others_blocked ? Severity::kMedium : Severity::kLow;
    Finding& f = out.add(
        obj, severity, fmt::format("{}: {}. During every upgrade, {}.", obj.display(), how, stops),
        daemon ? "Set updateStrategy.rollingUpdate.maxUnavailable to 1 (or a small percentage) so "
                 "nodes are updated a few at a time."
               : "Use the RollingUpdate strategy with maxUnavailable 0 and maxSurge 1, so the new "
                 "pod is ready before the old one stops (with leader election, the new pod takes "
                 "over when the old one leaves).",
        at);
    f.summary = fmt::format("{} stops all its pods at once on every upgrade", obj.display());
    if (!webhooks.empty()) f.affects.emplace_back("webhooks", webhooks);
  }
}

}  // namespace

extern const Check kWorkloadReplacedAtOnce{
    .id = "workload-replaced-at-once",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kMedium,
    .impact = Impact::kInstall,
    .area = Area::kObjects,
    .description =
        "A Deployment (Recreate, or maxUnavailable 100%) or DaemonSet (maxUnavailable 100%) "
        "replaces every pod at once on update.",
    .run = run_replaced_at_once,
    .rationale =
        "The Recreate strategy stops every old pod before creating new ones, and a rolling update "
        "with maxUnavailable of 100% may stop them all at once: what the workload serves stops for "
        "the whole upgrade. Low for a Deployment (its work waits); medium when it backs a "
        "fail-closed webhook that other teams' requests reach (they are rejected meanwhile), and "
        "for a DaemonSet, whose per-node service stops on every node together.",
    .fix = "Roll pods a few at a time: RollingUpdate with a small maxUnavailable (and maxSurge).",
};

}  // namespace footprint
