#include <fmt/format.h>

#include "report/report.h"

namespace footprint {

namespace {

std::string count_or_dash(uint32_t n) {
  return n ? std::to_string(n) : "-";
}

std::string kinds_summary(const NamespaceUsage& ns) {
  std::string out;
  for (const auto& [kind, n] : ns.kinds) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}", kind, n);
  }
  return out;
}

}  // namespace

Section inventory_section(const Inventory& inv) {
  Section s;
  s.id = "inventory";
  s.title = "Install footprint";
  std::string summary =
      fmt::format("{}: {} cluster-scoped, {} namespaced", count_of(inv.objects, "object"),
                  inv.cluster_scoped, inv.namespaced);
  if (inv.unknown_scope)
    summary += fmt::format(", {} of unknown scope (CRD not in bundle)", inv.unknown_scope);
  summary += fmt::format(", in {}.", count_of(inv.namespaces.size(), "namespace"));
  s.blocks.push_back(Block{{summary}, std::nullopt});

  Table kinds;
  kinds.header = {"KIND", "CLUSTER", "NAMESPACED"};
  kinds.right_aligned = {false, true, true};
  bool any_unknown = inv.unknown_scope > 0;
  if (any_unknown) {
    kinds.header.emplace_back("UNKNOWN SCOPE");
    kinds.right_aligned.push_back(true);
  }
  for (const KindCount& k : inv.kinds) {
    std::vector<std::string> row = {k.key, count_or_dash(k.cluster), count_or_dash(k.namespaced)};
    if (any_unknown) row.push_back(count_or_dash(k.unknown));
    kinds.rows.push_back(std::move(row));
  }
  s.blocks.push_back(Block{{}, std::move(kinds)});

  Table namespaces;
  namespaces.header = {"NAMESPACE", "OBJECTS", "NOTE", "KINDS"};
  namespaces.right_aligned = {false, true, false, false};
  for (const NamespaceUsage& ns : inv.namespaces) {
    std::string note = ns.created ? "created" : "must exist";
    if (ns.release) note += ", release";
    namespaces.rows.push_back({ns.name, std::to_string(ns.objects), note, kinds_summary(ns)});
  }
  if (!inv.namespaces.empty()) s.blocks.push_back(Block{{}, std::move(namespaces)});

  s.blocks.push_back(Block{
      {fmt::format(
          "Admission webhooks: {} ({} mutating, {} validating) in {}.", inv.webhooks(),
          inv.mutating_webhooks, inv.validating_webhooks,
          count_of(inv.mutating_configurations + inv.validating_configurations, "configuration"))},
      std::nullopt});

  if (!inv.later_hooks.empty()) {
    Block hooks;
    hooks.lines.push_back(fmt::format(
        "Not created at install: {} Helm {} that run{} only at a later phase (findings about them "
        "name it):",
        inv.later_hooks.size(), inv.later_hooks.size() == 1 ? "hook" : "hooks",
        inv.later_hooks.size() == 1 ? "s" : ""));
    for (const Inventory::LaterHook& h : inv.later_hooks)
      hooks.lines.push_back(fmt::format("- {}: {}", h.phases, h.object));
    s.blocks.push_back(std::move(hooks));
  }

  if (!inv.hidden_footprint.empty()) {
    Block hidden;
    hidden.lines.emplace_back(
        "Hidden footprint: the cluster-scoped footprint is larger than these objects.");
    for (const std::string& line : inv.hidden_footprint)
      hidden.lines.push_back("- " + line);
    s.blocks.push_back(std::move(hidden));
  }

  Json kinds_json = Json::object(), cluster = Json::object(), namespaced = Json::object(),
       unknown = Json::object();
  for (const KindCount& k : inv.kinds) {
    kinds_json[k.key] = k.total();
    if (k.cluster) cluster[k.key] = k.cluster;
    if (k.namespaced) namespaced[k.key] = k.namespaced;
    if (k.unknown) unknown[k.key] = k.unknown;
  }
  Json ns_json = Json::object();
  for (const NamespaceUsage& ns : inv.namespaces) {
    Json kinds_in = Json::object();
    for (const auto& [kind, n] : ns.kinds)
      kinds_in[kind] = n;
    ns_json[ns.name] = {{"objects", ns.objects},
                        {"created", ns.created},
                        {"release", ns.release},
                        {"kinds", kinds_in}};
  }
  Json later_hooks = Json::array();
  for (const Inventory::LaterHook& h : inv.later_hooks)
    later_hooks.push_back({{"object", h.object}, {"phases", h.phases}});
  s.json = {
      {"objects", inv.objects},
      {"kinds", kinds_json},
      {"clusterScoped", cluster},
      {"namespaced", namespaced},
      {"unknownScope", unknown},
      {"totals",
       {{"clusterScoped", inv.cluster_scoped},
        {"namespaced", inv.namespaced},
        {"unknownScope", inv.unknown_scope}}},
      {"namespaces", ns_json},
      {"webhooks", inv.webhooks()},
      {"mutatingWebhooks", inv.mutating_webhooks},
      {"validatingWebhooks", inv.validating_webhooks},
      {"webhookConfigurations",
       {{"mutating", inv.mutating_configurations}, {"validating", inv.validating_configurations}}},
      {"hiddenFootprint", inv.hidden_footprint},
      {"laterHooks", later_hooks}};
  return s;
}

}  // namespace footprint
