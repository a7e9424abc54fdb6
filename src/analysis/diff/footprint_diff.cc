// Footprint deltas: cluster-scoped kinds and their counts, namespaces created, DaemonSets (a pod
// on every node they tolerate), PriorityClasses and aggregated APIs, read from each side's
// inventory and Context.
#include <fmt/format.h>

#include <map>
#include <set>

#include "analysis/context.h"
#include "analysis/diff/diff.h"
#include "util/strings.h"

namespace footprint {

namespace {

std::map<std::string, const Object*> named(const Bundle& bundle, std::string_view group,
                                           std::string_view kind) {
  std::map<std::string, const Object*> out;
  for (uint32_t i : bundle.of_kind(group, kind))
    out[bundle.objects[i].qualified_name()] = &bundle.objects[i];
  return out;
}

// One change per object of `kind` that NEW adds.
void added_objects(const DiffSide& old_side, const DiffSide& new_side, std::string_view group,
                   std::string_view kind, Severity severity, std::string_view consequence,
                   std::vector<Change>& out) {
  auto before = named(old_side.context.bundle, group, kind);
  for (const auto& [name, obj] : named(new_side.context.bundle, group, kind)) {
    if (before.contains(name)) continue;
    Change c;
    c.area = "footprint";
    c.severity = severity;
    c.subject = obj->display();
    c.change = "added";
    c.consequence = consequence;
    c.location = location_of(new_side.context, *obj);
    out.push_back(std::move(c));
  }
}

void diff_kinds(const DiffSide& old_side, const DiffSide& new_side, std::vector<Change>& out) {
  std::map<std::string, std::pair<uint32_t, uint32_t>> cluster;  // kind -> old, new
  std::map<std::string, std::pair<uint32_t, uint32_t>> namespaced;
  for (const KindCount& k : old_side.inventory.kinds) {
    cluster[k.key].first = k.cluster;
    namespaced[k.key].first = k.namespaced + k.unknown;
  }
  for (const KindCount& k : new_side.inventory.kinds) {
    cluster[k.key].second = k.cluster;
    namespaced[k.key].second = k.namespaced + k.unknown;
  }
  auto report = [&](const std::map<std::string, std::pair<uint32_t, uint32_t>>& counts,
                    std::string_view scope, Severity grows) {
    std::vector<std::string> details;
    bool more = false;
    for (const auto& [kind, n] : counts) {
      if (n.first == n.second) continue;
      details.push_back(fmt::format("{} {} -> {}", kind, n.first, n.second));
      more = more || n.second > n.first;
    }
    if (details.empty()) return;
    Change c;
    c.area = "footprint";
    c.severity = more ? grows : Severity::kInfo;
    c.subject = fmt::format("{} objects", scope);
    c.change = details.size() == 1 ? std::string("1 kind's object count changed")
                                   : fmt::format("{} kinds' object counts changed", details.size());
    c.consequence = scope == "Cluster-scoped"
                        ? "Cluster-scoped objects are shared by every team of the cluster."
                        : "Objects in the install's namespaces.";
    c.details = std::move(details);
    out.push_back(std::move(c));
  };
  report(cluster, "Cluster-scoped", Severity::kLow);
  report(namespaced, "Namespaced", Severity::kInfo);
}

void diff_namespaces(const DiffSide& old_side, const DiffSide& new_side, std::vector<Change>& out) {
  std::set<std::string> before;
  for (const NamespaceUsage& ns : old_side.inventory.namespaces)
    before.insert(ns.name);
  for (const NamespaceUsage& ns : new_side.inventory.namespaces) {
    if (before.contains(ns.name)) continue;
    Change c;
    c.area = "footprint";
    c.severity = ns.created ? Severity::kLow : Severity::kInfo;
    c.subject = "Namespace " + ns.name;
    c.change = ns.created ? "created" : fmt::format("now used ({} objects)", ns.objects);
    c.consequence = ns.created ? "The release creates and owns a new namespace."
                               : "The release puts objects in a namespace it did not use.";
    out.push_back(std::move(c));
  }
}

void diff_aggregated_apis(const DiffSide& old_side, const DiffSide& new_side,
                          std::vector<Change>& out) {
  std::set<std::string> before;
  for (const AggregatedApi& api : old_side.context.aggregated_apis)
    before.insert(api.group_version);
  for (const AggregatedApi& api : new_side.context.aggregated_apis) {
    if (before.contains(api.group_version)) continue;
    Change c;
    c.area = "footprint";
    c.severity = Severity::kMedium;
    c.subject = "APIService " + api.group_version;
    c.change = "added";
    c.consequence =
        "The API server sends every request for this API to the install's Service; while it is "
        "down, discovery of the group fails for every client, and namespace deletion stalls.";
    if (!api.broken.empty()) {
      c.severity = Severity::kHigh;
      c.consequence += " The new bundle does not wire it: " + joined(api.broken, "; ") + ".";
    }
    if (api.api_service) c.location = location_of(new_side.context, *api.api_service);
    out.push_back(std::move(c));
  }
}

}  // namespace

void diff_footprint(const DiffSide& old_side, const DiffSide& new_side, std::vector<Change>& out) {
  diff_kinds(old_side, new_side, out);
  diff_namespaces(old_side, new_side, out);
  added_objects(old_side, new_side, "apps", "DaemonSet", Severity::kMedium,
                "Runs a pod on every node its tolerations and node selector allow.", out);
  added_objects(old_side, new_side, "scheduling.k8s.io", "PriorityClass", Severity::kLow,
                "Pods that use it are scheduled, and may preempt, by its value against every "
                "other team's pods.",
                out);
  diff_aggregated_apis(old_side, new_side, out);
}

}  // namespace footprint
