#include <fmt/format.h>

#include "analysis/context.h"
#include "analysis/models/webhook_reach.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "report/section.h"

namespace footprint {

namespace {

// "k=v,k2=v2"
tl::expected<Labels, std::string> parse_labels(const std::string& text) {
  Labels labels;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t comma = text.find(',', pos);
    std::string pair = text.substr(pos, comma == std::string::npos ? comma : comma - pos);
    size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) {
      return tl::unexpected(fmt::format("\"{}\" is not key=value", pair));
    }
    labels[pair.substr(0, eq)] = pair.substr(eq + 1);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return labels;
}

std::string_view failure_name(FailurePolicy p) {
  return p == FailurePolicy::kFail ? "Fail" : "Ignore";
}

std::string conditions_of(const std::vector<MatchCondition>& conditions) {
  if (conditions.empty()) return "";
  std::vector<std::string> out;
  out.reserve(conditions.size());
  for (const MatchCondition& c : conditions)
    out.push_back(c.expression);
  return fmt::format("narrowed by: {}", fmt::join(out, " && "));
}

}  // namespace

int run_admission(int argc, char** argv) {
  CLI::App app{
      "What-if admission: which of the bundle's webhooks and policies a request passes, "
      "in the API server's order, and what their failure would cost it.",
      "footprint admission"};
  BundleArgs bundle_args;
  add_bundle_options(app, bundle_args, "--release-namespace");
  AdmissionRequest request;
  request.operation = "CREATE";
  std::string resource = "pods";
  app.add_option("--resource", resource, "Resource, as RESOURCE[.GROUP] (e.g. deployments.apps)")
      ->capture_default_str();
  app.add_option("--subresource", request.subresource, "Subresource, e.g. exec");
  app.add_option("--operation", request.operation, "CREATE, UPDATE, DELETE or CONNECT")
      ->check(CLI::IsMember({"CREATE", "UPDATE", "DELETE", "CONNECT"}))
      ->capture_default_str();
  std::string target_namespace = kOtherTeamNamespace;
  add_namespace_option(app, "-n,--namespace", target_namespace,
                       "Namespace of the request; the default stands for another team's");
  std::string ns_labels;
  app.add_option("--ns-labels", ns_labels, "Extra labels of that namespace: k=v,...");
  std::string object_labels;
  app.add_option("--labels", object_labels, "Labels of the object: k=v,...");
  ContextArgs context_args;
  add_context_options(app, context_args, {.namespaces_for = "for their labels", .cluster = true});
  ColorOption color;
  add_color_option(app, color);
  if (auto code = parse_args(app, argc, argv)) return *code;
  ReportOptions options = text_options(color, "");

  std::optional<Bundle> bundle = load_bundle(bundle_args);
  if (!bundle) return kExitUsage;
  std::optional<LoadedContext> loaded = load_context(context_args, *bundle, bundle_args.jobs);
  if (!loaded) return kExitUsage;
  const Context& ctx = *loaded->context;
  const Cluster* cluster = loaded->cluster.get();
  auto resolved = make_request("get", resource, "", target_namespace, bundle->resources);
  if (!resolved) {
    print_error(resolved.error());
    return kExitUsage;
  }
  request.api_group = resolved->api_group;
  request.resource = resolved->resource;
  const ResourceInfo* info = bundle->resources.find_resource(request.api_group, request.resource);
  request.api_version = info && !info->versions.empty() ? info->versions.front() : "v1";
  if (info) request.served_versions = info->versions;
  request.namespace_ = resolved->namespace_;
  AdmissionRequest base = pod_create_request(ctx.namespaces, target_namespace);
  request.namespace_labels = base.namespace_labels;
  for (const auto& [labels, into] : {std::pair{&ns_labels, &request.namespace_labels},
                                     std::pair{&object_labels, &request.object_labels}}) {
    auto parsed = parse_labels(*labels);
    if (!parsed) {
      print_error(parsed.error());
      return kExitUsage;
    }
    into->insert(parsed->begin(), parsed->end());
  }

  // With a cluster, the request passes its webhooks and policies as well as the bundle's.
  AdmissionTrace t = trace_admission(cluster ? ctx.chain : ctx.admission, request);
  std::string what = request.resource;
  if (!request.api_group.empty()) what += "." + request.api_group;
  if (!request.subresource.empty()) what += "/" + request.subresource;
  std::string out =
      paint(options.color, kHeading,
            fmt::format("{} {} {}", request.operation, what,
                        request.namespace_.empty() ? "(cluster-scoped)"
                                                   : "in namespace " + request.namespace_)) +
      "\n";
  Table table;
  table.header = {"#", "STAGE", "NAME", "FAILURE", "TIMEOUT", "MATCH CONDITIONS"};
  if (cluster) table.header.insert(table.header.begin() + 3, "FROM");
  size_t step = 0;
  auto add_row = [&](std::vector<std::string> row, bool in_cluster) {
    if (cluster) row.insert(row.begin() + 3, in_cluster ? "cluster" : "bundle");
    table.rows.push_back(std::move(row));
  };
  auto policy_row = [&](const AdmissionPolicy* p, const char* stage) {
    add_row({std::to_string(++step), stage, p->name, std::string(failure_name(p->failure_policy)),
             "in-process", conditions_of(p->match_conditions)},
            p->in_cluster);
  };
  auto webhook_row = [&](const AdmissionWebhook* w, const char* stage) {
    std::string timeout = fmt::format("{}s", w->timeout_seconds);
    if (w->reinvoked_if_needed) timeout += " (x2: IfNeeded)";
    add_row({std::to_string(++step), stage, w->name, std::string(failure_name(w->failure_policy)),
             timeout, conditions_of(w->match_conditions)},
            w->in_cluster);
  };
  for (const AdmissionPolicy* p : t.mutating_policies)
    policy_row(p, "mutating policy");
  for (const AdmissionWebhook* w : t.mutating_webhooks)
    webhook_row(w, "mutating webhook");
  for (const AdmissionPolicy* p : t.validating_policies)
    policy_row(p, "validating policy");
  for (const AdmissionWebhook* w : t.validating_webhooks)
    webhook_row(w, "validating webhook");
  if (table.rows.empty()) {
    out += cluster ? "No webhook or policy of the cluster or the bundle is consulted.\n"
                   : "No webhook or policy of the bundle is consulted.\n";
  } else {
    out += render_text_table(table, 2, options.table_width);
    std::vector<std::string> rejecting;
    for (const AdmissionWebhook* w : t.fail_closed)
      rejecting.push_back(w->name);
    out += "\n" + wrap_text(fmt::format("Worst-case added latency, when every backend accepts "
                                        "connections and never answers: {} s (mutating webhooks in "
                                        "series, validating ones in parallel).",
                                        t.worst_seconds),
                            0, options.width);
    std::string down =
        wrap_text(rejecting.empty() ? "If every backend is down: admitted (all webhooks fail open)."
                                    : fmt::format("If every backend is down: rejected, by {} "
                                                  "(failurePolicy Fail).",
                                                  fmt::join(rejecting, ", ")),
                  0, options.width);
    out += rejecting.empty() ? down : paint(options.color, kBad, down);
    out += wrap_text(
        "Modelled from the API server's documented behaviour, not measured. CEL "
        "match conditions are not evaluated; a webhook listed with them may be "
        "skipped.",
        0, options.width);
  }
  return write_output(out, "", Content::kText) ? kExitOk : kExitUsage;
}

}  // namespace footprint
