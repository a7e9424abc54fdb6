// The admission chain the install joins (--cluster): pod creation already passes the cluster's
// webhooks; the bundle's add their timeouts (mutating webhooks run in series) and their failure
// modes (each fail-closed backend alone can stop every pod).
#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"
#include "analysis/models/webhook_reach.h"
#include "model/units.h"

namespace footprint {

namespace {

// kube-apiserver's --request-timeout defaults to 60 s; a chain whose worst case reaches half of
// it leaves little for the rest of the request.
constexpr int kLongChainSeconds = 30;

struct ChainPart {
  std::vector<std::string> names;
  std::vector<std::string> fail_closed;
};

ChainPart part_of(const AdmissionTrace& t, bool in_cluster) {
  ChainPart p;
  for (const auto* list : {&t.mutating_webhooks, &t.validating_webhooks}) {
    for (const AdmissionWebhook* w : *list) {
      if (w->in_cluster != in_cluster) continue;
      p.names.push_back(w->name);
      if (w->failure_policy == FailurePolicy::kFail) p.fail_closed.push_back(w->name);
    }
  }
  return p;
}

void run_admission_chain(const Context& ctx, Findings& out) {
  if (!ctx.cluster) return;
  std::vector<std::string> namespaces;
  size_t others = 0;
  ChainPart cluster_part;
  ChainPart bundle_part;
  int worst_before = 0;
  int worst_after = 0;
  const AdmissionWebhook* anchor = nullptr;
  // The chain without the bundle: the cluster's webhooks alone.
  Admission alone;
  for (const AdmissionWebhook& w : ctx.chain.webhooks) {
    if (w.in_cluster) alone.webhooks.push_back(w);
  }
  // Other teams' namespaces, as the webhook checks count them: neither the operator's nor the
  // cluster's own (webhook-kube-system judges those).
  for (const ClusterNamespace& ns : ctx.namespaces) {
    if (ns.operator_owned || ns.system) continue;
    ++others;
    AdmissionRequest request = pod_create_request(ctx.namespaces, ns.name);
    AdmissionTrace before = trace_admission(ctx.chain, request);
    ChainPart theirs = part_of(before, true);
    ChainPart ours = part_of(before, false);
    if (theirs.names.empty() || ours.names.empty()) continue;
    int worst_alone = trace_admission(alone, request).worst_seconds;
    bool long_chain = worst_alone >= kLongChainSeconds / 2 || theirs.names.size() >= 2;
    if (theirs.fail_closed.empty() && !long_chain) continue;
    namespaces.push_back(ns.name);
    worst_before = std::max(worst_before, worst_alone);
    worst_after = std::max(worst_after, before.worst_seconds);
    for (const auto& [from, into] : {std::pair{&theirs, &cluster_part}, {&ours, &bundle_part}}) {
      for (const std::string& n : from->names)
        if (std::find(into->names.begin(), into->names.end(), n) == into->names.end())
          into->names.push_back(n);
      for (const std::string& n : from->fail_closed)
        if (std::find(into->fail_closed.begin(), into->fail_closed.end(), n) ==
            into->fail_closed.end())
          into->fail_closed.push_back(n);
    }
    if (!anchor) {
      for (const AdmissionWebhook* w : before.mutating_webhooks)
        if (!w->in_cluster && !anchor) anchor = w;
      for (const AdmissionWebhook* w : before.validating_webhooks)
        if (!w->in_cluster && !anchor) anchor = w;
    }
  }
  if (namespaces.empty() || !anchor) return;
  size_t fail_closed = cluster_part.fail_closed.size() + bundle_part.fail_closed.size();
  bool high = worst_after >= kLongChainSeconds ||
              (!bundle_part.fail_closed.empty() && !cluster_part.fail_closed.empty());
  Finding& f = out.add(
      *anchor->configuration, high ? Severity::kHigh : Severity::kMedium,
      fmt::format(
          "Pod creation in {} of {} of other teams ({}) already passes {} of "
          "the cluster ({}; worst case {} s{}). This install adds {} ({}), bringing the worst case "
          "to {} s, and {} that can each reject every pod creation when down ({}).",
          namespaces.size(), count_of(others, "namespace"), some_of(namespaces, 3),
          count_of(cluster_part.names.size(), "webhook"), some_of(cluster_part.names, 3),
          worst_before,
          cluster_part.fail_closed.empty()
              ? ""
              : fmt::format(", fail-closed: {}", some_of(cluster_part.fail_closed, 3)),
          bundle_part.names.size(), some_of(bundle_part.names, 3), worst_after,
          count_of(fail_closed, "backend"),
          some_of(
              [&] {
                std::vector<std::string> all = cluster_part.fail_closed;
                all.insert(all.end(), bundle_part.fail_closed.begin(),
                           bundle_part.fail_closed.end());
                return all;
              }(),
              4)),
      "Narrow the install's pod webhooks to the namespaces that use the operator "
      "(namespaceSelector or objectSelector), give them failurePolicy Ignore with a short "
      "timeoutSeconds where the mutation is optional, or fold them into the cluster's existing "
      "webhook.",
      anchor->node);
  f.summary = fmt::format("Pod creation in {} namespaces will pass {} webhooks, worst case {} s",
                          namespaces.size(), cluster_part.names.size() + bundle_part.names.size(),
                          worst_after);
  f.affects.emplace_back("namespaces", std::move(namespaces));
  f.affects.emplace_back("cluster webhooks", std::move(cluster_part.names));
  f.affects.emplace_back("bundle webhooks", std::move(bundle_part.names));
}

}  // namespace

extern const Check kAdmissionChainPods{
    .id = "admission-chain-pods",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kHigh,
    .impact = Impact::kOtherTeams,
    .area = Area::kAdmission,
    .description =
        "The install's pod webhooks join an already long or fail-closed chain (needs --cluster).",
    .run = run_admission_chain,
    .rationale =
        "With a cluster snapshot, pod creation in other teams' namespaces is traced through the "
        "cluster's webhooks and the bundle's together, in the API server's order. When the "
        "cluster's chain is already fail-closed or long, the install adds its timeouts (mutating "
        "webhooks run in series) and its failure modes. High when the combined worst case reaches "
        "30 s (half the API server's default request timeout) or when both the cluster and the "
        "install bring fail-closed backends; medium otherwise.",
    .fix =
        "Narrow the install's pod webhooks to the namespaces that use them, or make them fail "
        "open.",
};

}  // namespace footprint
