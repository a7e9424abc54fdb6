// aggregated-api-unreachable and aggregated-api-availability, over the Context's aggregated APIs
// (models/aggregated_apis.h).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/context.h"

namespace footprint {

namespace {

constexpr const char* kDiscoveryConsequence =
    "discovery of {} fails for every client of the cluster: kubectl prints \"unable to retrieve "
    "the complete list of server APIs\" on every command, deleting any namespace hangs in "
    "Terminating because the namespace controller cannot list every resource type, and the "
    "garbage collector and resource quota controllers cannot cover the group";

// APIServices that share a backend and a state are one root cause: one finding, on the first.
std::vector<std::vector<const AggregatedApi*>> by_backend(const std::vector<AggregatedApi>& apis,
                                                          bool broken) {
  std::map<std::string, std::vector<const AggregatedApi*>> groups;
  std::vector<std::string> order;
  for (const AggregatedApi& api : apis) {
    if (api.broken.empty() == broken) continue;
    std::string key = fmt::format("{}|{}", api.backend_name(), fmt::join(api.broken, "|"));
    if (!groups.contains(key)) order.push_back(key);
    groups[key].push_back(&api);
  }
  std::vector<std::vector<const AggregatedApi*>> out;
  for (const std::string& key : order)
    out.push_back(groups[key]);
  return out;
}

std::string names(const std::vector<const AggregatedApi*>& apis) {
  std::vector<std::string> out;
  for (const AggregatedApi* api : apis)
    out.push_back(api->api_service->name);
  return fmt::format("{}", fmt::join(out, ", "));
}

std::string groups(const std::vector<const AggregatedApi*>& apis) {
  std::vector<std::string> out;
  for (const AggregatedApi* api : apis) {
    std::string group(api->group_version.substr(0, api->group_version.find('/')));
    if (std::find(out.begin(), out.end(), group) == out.end()) out.push_back(group);
  }
  return fmt::format("{}", fmt::join(out, ", "));
}

void run_unreachable(const Context& ctx, Findings& out) {
  const std::vector<AggregatedApi>& apis = ctx.aggregated_apis;
  for (const auto& group : by_backend(apis, true)) {
    const AggregatedApi& api = *group.front();
    std::vector<std::string> fixes;
    for (const std::string& why : api.broken) {
      if (why.starts_with("the bundle creates no Service")) {
        fixes.emplace_back("point spec.service at the Service of the API server's pods, or add it");
      } else if (why.starts_with("Service") && why.find("not port") != std::string::npos) {
        fixes.push_back(fmt::format("set spec.service.port to one of the Service's ports ({})",
                                    fmt::join(api.backend.ports, ", ")));
      } else if (why.starts_with("Service")) {
        fixes.emplace_back("make the Service's selector match the API server's pod labels");
      } else {
        fixes.emplace_back(
            "add the annotation cert-manager.io/inject-ca-from: <namespace>/<Certificate> (with "
            "cert-manager) or set spec.caBundle to the CA of the serving certificate");
      }
    }
    std::string fix = fmt::format("{}", fmt::join(fixes, "; "));
    fix[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(fix[0])));
    Finding& f = out.add(
        *api.api_service, Severity::kHigh,
        fmt::format("APIService {} {} {} to {}, which the API server cannot reach: {}. Unless "
                    "that is fixed, {}.",
                    names(group), group.size() == 1 ? "proxies" : "proxy", groups(group),
                    api.backend_name(), fmt::join(api.broken, "; "),
                    fmt::format(fmt::runtime(kDiscoveryConsequence), groups(group))),
        fix + ".", api.api_service->node.at({"spec", "service"}));
    about_shared(f, api.backend_name());  // one finding per backend, whatever APIService is first
    f.summary =
        fmt::format("APIService {} cannot reach its backend: discovery of {} fails cluster-wide",
                    names(group), groups(group));
  }
}

}  // namespace

extern const Check kAggregatedApiUnreachable{
    .id = "aggregated-api-unreachable",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kOtherTeams,
    .area = Area::kClusterWide,
    .description =
        "An APIService proxies to a Service, port or certificate the API server cannot use: "
        "discovery of its group fails for the whole cluster.",
    .run = run_unreachable,
    .rationale =
        "An APIService serves a group of the Kubernetes API through the bundle's Service; when the "
        "API server cannot reach or verify that backend, discovery of the group fails for every "
        "client, the namespace controller cannot enumerate resources (namespace deletion hangs in "
        "Terminating), and garbage collection and quota degrade cluster-wide. High.",
    .fix = "Point the APIService at the Service, port and CA that serve it, or leave the API out.",
    .breaks_on_install = true,
};

namespace {

std::string backend_workloads(const AggregatedApi& api) {
  if (api.backend.backends.empty()) return "";
  std::vector<std::string> out;
  for (const Object* w : api.backend.backends)
    out.push_back(fmt::format("{} {}", w->kind, w->qualified_name()));
  std::string replicas = api.replicas == 0   ? ""
                         : api.replicas == 1 ? ", 1 replica"
                                             : fmt::format(", {} replicas", api.replicas);
  return fmt::format(" ({}{})", fmt::join(out, ", "), replicas);
}

void run_availability(const Context& ctx, Findings& out) {
  const std::vector<AggregatedApi>& apis = ctx.aggregated_apis;
  for (const auto& group : by_backend(apis, false)) {
    const AggregatedApi& api = *group.front();
    bool redundant = api.replicas >= 2;
    std::string insecure =
        api.insecure_skip_tls_verify
            ? " It sets insecureSkipTLSVerify, so the API server does not verify the backend's "
              "certificate: whatever answers on the Service's address receives the requests it "
              "proxies."
            : "";
    Finding& f = out.add(
        *api.api_service, redundant ? Severity::kLow : Severity::kMedium,
        fmt::format("APIService {} {} {} to {}{}. Whenever that backend is unavailable "
                    "(upgrade, crash, node drain{}), {}.{}",
                    names(group), group.size() == 1 ? "proxies" : "proxy", groups(group),
                    api.backend_name(), backend_workloads(api),
                    redundant ? "" : "; with one replica every restart is such a moment",
                    fmt::format(fmt::runtime(kDiscoveryConsequence), groups(group)), insecure),
        fmt::format("Run the backend with two or more replicas and a PodDisruptionBudget, "
                    "and if the API is optional, leave it out of the install.{}",
                    api.insecure_skip_tls_verify
                        ? " Replace insecureSkipTLSVerify with a caBundle (cert-manager: "
                          "the cert-manager.io/inject-ca-from annotation)."
                        : ""),
        api.api_service->node.at({"spec", "service"}));
    about_shared(f, api.backend_name());  // one finding per backend, whatever APIService is first
    f.summary = fmt::format("Discovery of {} and namespace deletion depend on {}", groups(group),
                            api.backend_name());
  }
}

}  // namespace

extern const Check kAggregatedApiAvailability{
    .id = "aggregated-api-availability",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kMedium,
    .impact = Impact::kOtherTeams,
    .area = Area::kClusterWide,
    .description =
        "An APIService makes discovery, namespace deletion and garbage collection of the whole "
        "cluster depend on the operator's pods.",
    .run = run_availability,
    .rationale =
        "Even when wired correctly, an aggregated API makes cluster-wide discovery, namespace "
        "deletion and garbage collection depend on the operator's pods. Medium with one backend "
        "replica (every restart is an outage); low with two or more.",
    .fix =
        "Run the backend with two or more replicas and a PodDisruptionBudget; leave optional APIs "
        "out.",
};

}  // namespace footprint
