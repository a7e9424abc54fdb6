// The model of aggregated_apis.h, which the Context builds once.
#include "analysis/models/aggregated_apis.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/kubectl_json.h"

namespace footprint {

std::string AggregatedApi::backend_name() const {
  return fmt::format("service {}/{}:{}", client.service_namespace, client.service_name,
                     client.port);
}

namespace {

// Replicas of one workload: spec.replicas, 1 when absent (the API default); 0 when the bundle
// writes something that is not a number (a template left unrendered).
int replicas_of(const Object& workload) {
  yaml::Node replicas = workload.node.at({"spec", "replicas"});
  if (!replicas || replicas.is_null()) return 1;
  return static_cast<int>(std::clamp<int64_t>(kubectl_int(replicas).value_or(0), 0, 1 << 20));
}

}  // namespace

std::vector<AggregatedApi> aggregated_apis(const Bundle& bundle, std::span<const PodTemplate> pods,
                                           const RbacPolicy& policy) {
  std::vector<AggregatedApi> out;
  bool has_workloads = !pods.empty();
  for (uint32_t index : bundle.of_kind("apiregistration.k8s.io", "APIService")) {
    const Object& obj = bundle.objects[index];
    yaml::Node spec = obj.node.get("spec");
    if (!spec.get("service").is_mapping()) continue;
    AggregatedApi api;
    api.api_service = &obj;
    api.group_version = fmt::format("{}/{}", spec.get("group").str(), spec.get("version").str());
    api.client = read_webhook_client(spec);
    api.insecure_skip_tls_verify = kubectl_bool(spec.get("insecureSkipTLSVerify")) == true;
    api.backend = resolve_service(bundle, pods, api.client);
    api.ca_injectors = ca_injectors(obj, policy);
    for (const Object* w : api.backend.backends) {
      api.replicas += w->kind == "DaemonSet" ? 2 : replicas_of(*w);
    }
    const ServiceBackend& b = api.backend;
    if (!b.service) {
      std::vector<const Object*> similar = similar_services(bundle, api.client.service_name);
      api.broken.push_back(fmt::format(
          "the bundle creates no Service {}/{}{}", api.client.service_namespace,
          api.client.service_name,
          similar.empty()
              ? ""
              : fmt::format(" (it has Service {})", similar.front()->qualified_name())));
    } else if (!b.port_found) {
      api.broken.push_back(fmt::format("Service {} exposes {}, not port {}{}",
                                       b.service->qualified_name(), fmt::join(b.ports, ", "),
                                       api.client.port,
                                       api.client.port_written ? "" : " (the default)"));
    } else if (has_workloads && b.has_selector && b.backends.empty()) {
      api.broken.push_back(
          fmt::format("Service {} selects no pod template of the bundle, so it "
                      "has no endpoints",
                      b.service->qualified_name()));
    }
    if (!api.client.has_ca_bundle && !api.insecure_skip_tls_verify && api.ca_injectors.empty()) {
      api.broken.emplace_back(
          "it has no caBundle and nothing in the bundle injects one, so the API server verifies "
          "the backend's serving certificate against its system roots, which an operator's own "
          "certificate fails");
    }
    out.push_back(std::move(api));
  }
  return out;
}

}  // namespace footprint
