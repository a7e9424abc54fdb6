#include <fmt/format.h>

#include "analysis/check.h"
#include "analysis/cluster_wide/cluster_defaults.h"
#include "analysis/cluster_wide/priority_classes.h"
#include "analysis/context.h"
#include "analysis/models/aggregated_apis.h"
#include "analysis/models/node_footprints.h"
#include "model/units.h"
#include "report/cluster_wide.h"

namespace footprint {

namespace {

std::string workload_list(const std::vector<const Object*>& workloads) {
  std::vector<std::string> out;
  for (const Object* w : workloads)
    out.push_back(fmt::format("{} {}", w->kind, w->qualified_name()));
  return out.empty() ? "-" : fmt::format("{}", fmt::join(out, ", "));
}

std::string value_text(const std::optional<int64_t>& value) {
  if (!value) return "?";
  return *value < 0 ? "-" + with_commas(static_cast<uint64_t>(-(*value + 1)) + 1)
                    : with_commas(static_cast<uint64_t>(*value));
}

void add_aggregated_apis(const Context& ctx, Section& s) {
  Json list = Json::array();
  Table table;
  table.header = {"APISERVICE", "BACKEND", "BACKEND PODS", "STATE"};
  for (const AggregatedApi& api : ctx.aggregated_apis) {
    std::string state = api.broken.empty() ? "reachable" : "unreachable";
    if (api.insecure_skip_tls_verify) state += ", insecureSkipTLSVerify";
    std::string pods = workload_list(api.backend.backends);
    if (api.replicas > 0)
      pods += fmt::format(" ({} replica{})", api.replicas, api.replicas == 1 ? "" : "s");
    table.rows.push_back({api.api_service->name,
                          fmt::format("{}/{}:{}", api.client.service_namespace,
                                      api.client.service_name, api.client.port),
                          pods, state});
    Json backends = Json::array();
    for (const Object* w : api.backend.backends)
      backends.push_back({{"kind", w->kind}, {"namespace", w->namespace_}, {"name", w->name}});
    list.push_back({{"name", api.api_service->name},
                    {"groupVersion", api.group_version},
                    {"service",
                     {{"namespace", api.client.service_namespace},
                      {"name", api.client.service_name},
                      {"port", api.client.port}}},
                    {"serviceFound", api.backend.service != nullptr},
                    {"portFound", api.backend.port_found},
                    {"backends", backends},
                    {"replicas", api.replicas},
                    {"caBundle", api.client.has_ca_bundle},
                    {"insecureSkipTLSVerify", api.insecure_skip_tls_verify},
                    {"caInjectors", api.ca_injectors},
                    {"unreachable", api.broken}});
  }
  s.json["aggregatedApis"] = list;
  if (table.rows.empty()) return;
  s.blocks.push_back(
      Block{{fmt::format("Aggregated APIs: {} the API server proxies to the "
                         "bundle's pods. While a backend is unavailable, discovery of its group "
                         "fails cluster-wide and deleting any namespace hangs.",
                         count_of(table.rows.size(), "APIService"))},
            std::move(table)});
}

void add_priority_classes(const Context& ctx, Section& s) {
  Json list = Json::array();
  Table table;
  table.header = {"PRIORITYCLASS", "FROM", "VALUE", "DEFAULT", "PREEMPTS", "USED BY"};
  table.right_aligned = {false, false, true};
  for (const PriorityClassUse& use : priority_classes(ctx.bundle, ctx.pods)) {
    std::string from = use.priority_class ? "bundle" : use.system ? "system" : "missing";
    table.rows.push_back({use.name, from, value_text(use.value), use.global_default ? "yes" : "-",
                          use.preempts ? "yes" : "no", workload_list(use.users)});
    Json users = Json::array();
    for (const Object* w : use.users)
      users.push_back({{"kind", w->kind}, {"namespace", w->namespace_}, {"name", w->name}});
    Json value = nullptr;
    if (const std::optional<int64_t>& v = use.value) value = *v;
    list.push_back({{"name", use.name},
                    {"inBundle", use.priority_class != nullptr},
                    {"system", use.system},
                    {"value", value},
                    {"globalDefault", use.global_default},
                    {"preemptionPolicy", use.preempts ? "PreemptLowerPriority" : "Never"},
                    {"usedBy", users}});
  }
  s.json["priorityClasses"] = list;
  if (table.rows.empty()) return;
  s.blocks.push_back(Block{{"Priority: the PriorityClasses the bundle creates or its pods use."},
                           std::move(table)});
}

void add_cluster_objects(const Context& ctx, Section& s) {
  Json list = Json::array();
  Table table;
  table.header = {"KIND", "NAME", "ACTS ON"};
  for (const ClusterDefault& d : cluster_defaults(ctx.bundle)) {
    bool storage = d.object->kind == "StorageClass";
    table.rows.push_back(
        {d.object->kind, d.object->name,
         storage ? "default for every new PersistentVolumeClaim without storageClassName"
                 : "default for every new Ingress without ingressClassName"});
    list.push_back({{"kind", d.object->kind},
                    {"name", d.object->name},
                    {"default", true},
                    {"annotation", d.annotation},
                    {"implementation", d.implementation}});
  }
  for (const char* kind : {"RuntimeClass", "CSIDriver"}) {
    const char* group = kind[0] == 'R' ? "node.k8s.io" : "storage.k8s.io";
    for (uint32_t index : ctx.bundle.of_kind(group, kind)) {
      const Object& obj = ctx.bundle.objects[index];
      table.rows.push_back({obj.kind, obj.name,
                            obj.kind == "RuntimeClass"
                                ? "every team's pods that name it"
                                : "every volume of the driver, on every node"});
      list.push_back({{"kind", obj.kind}, {"name", obj.name}, {"default", false}});
    }
  }
  s.json["clusterObjects"] = list;
  if (table.rows.empty()) return;
  s.blocks.push_back(Block{{"Cluster defaults and shared cluster objects:"}, std::move(table)});
}

std::string reach_cell(const NodeFootprint& f) {
  std::string where = f.every_taint     ? "all nodes, any taint"
                      : f.control_plane ? "all nodes + control plane"
                                        : "untainted workers";
  if (!f.node_selection.empty()) where += ", selected";
  return where;
}

// privileged: a, b; hostNetwork; rw /opt/cni/bin, /etc/cni/net.d; ro /lib/modules; caps NET_ADMIN
std::string holds_cell(const NodeFootprint& f) {
  std::vector<std::string> parts;
  if (!f.privileged.empty())
    parts.push_back("privileged: " + fmt::format("{}", fmt::join(f.privileged, ", ")));
  for (const std::string& ns : f.host_namespaces)
    parts.push_back(ns);
  for (bool writable : {true, false}) {
    std::vector<std::string> paths;
    for (const HostPathMount& m : f.host_paths) {
      if (m.writable == writable) paths.push_back(m.path);
    }
    if (!paths.empty()) {
      parts.push_back(fmt::format("{} {}", writable ? "rw" : "ro", fmt::join(paths, ", ")));
    }
  }
  if (!f.capabilities.empty()) {
    parts.push_back(fmt::format("caps {}", fmt::join(f.capabilities, ", ")));
  }
  if (!f.host_ports.empty()) {
    parts.push_back(fmt::format("host ports {}", fmt::join(f.host_ports, ", ")));
  }
  return parts.empty() ? "-" : fmt::format("{}", fmt::join(parts, "; "));
}

void add_daemonsets(const Context& ctx, Section& s) {
  Json list = Json::array();
  Table table;
  table.header = {"DAEMONSET", "REACHES", "SEVERITY", "HOLDS"};
  std::vector<std::string> selections;
  for (const NodeFootprint& f : ctx.node_footprints) {
    Json paths_json = Json::array();
    for (const HostPathMount& m : f.host_paths) {
      paths_json.push_back(
          {{"path", m.path}, {"writable", m.writable}, {"containers", m.containers}});
    }
    Severity severity = node_footprint_severity(f);
    table.rows.push_back({f.daemonset->qualified_name(), reach_cell(f),
                          std::string(severity_name(severity)), holds_cell(f)});
    if (!f.node_selection.empty()) {
      selections.push_back(
          fmt::format("{} selects nodes: {}", f.daemonset->qualified_name(), f.node_selection));
    }
    list.push_back({{"namespace", f.daemonset->namespace_},
                    {"name", f.daemonset->name},
                    {"reach", f.reach()},
                    {"toleratesEveryTaint", f.every_taint},
                    {"toleratesControlPlane", f.control_plane},
                    {"nodeSelection", f.node_selection},
                    {"privileged", f.privileged},
                    {"hostNamespaces", f.host_namespaces},
                    {"hostPaths", paths_json},
                    {"capabilities", f.capabilities},
                    {"hostPorts", f.host_ports},
                    {"takeover", f.takeover},
                    {"severity", severity_name(severity)}});
  }
  s.json["daemonSets"] = list;
  if (table.rows.empty()) return;
  s.blocks.push_back(Block{{"Node footprint: where each DaemonSet runs and what it holds there."},
                           std::move(table)});
  if (!selections.empty()) s.blocks.push_back(Block{std::move(selections), std::nullopt});
}

}  // namespace

Section cluster_wide_section(const Context& ctx) {
  Section s;
  s.id = "clusterWide";
  s.title = "Cluster-wide reach";
  s.json = Json::object();
  add_aggregated_apis(ctx, s);
  add_priority_classes(ctx, s);
  add_cluster_objects(ctx, s);
  add_daemonsets(ctx, s);
  if (s.blocks.empty()) {
    s.blocks.push_back(Block{{"No aggregated APIs, PriorityClasses, cluster defaults, "
                              "RuntimeClasses, CSIDrivers or DaemonSets."},
                             std::nullopt});
  }
  return s;
}

}  // namespace footprint
