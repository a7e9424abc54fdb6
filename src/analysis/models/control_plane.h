// The control plane the install runs under (--provider): which pod ports its API server can
// reach, and where its calls to webhooks come from. Managed API servers dial the endpoint pod
// on the Service's targetPort, not the Service port, so a backend is resolved to its pod port.
// Facts and sources: ../shared/research/delivery-paths.md, section 2, and docs/providers.md.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/object.h"
#include "model/workloads.h"

namespace footprint {

enum class Provider : uint8_t {
  kGeneric,      // self-managed: assume the API server reaches every pod port
  kGke,          // public GKE: calls arrive through konnectivity-agent pods
  kGkePrivate,   // the auto-created firewall rule opens tcp:443 and tcp:10250 only
  kEks,          // the cluster security group allows all traffic from itself
  kEksCustomSg,  // a custom node security group (terraform-aws-eks): a fixed list of ports
  kEksOverlay,   // an overlay CNI (Calico or Cilium overlay, Weave): no pod IP is reachable
  kAks,          // konnectivity tunnel to any port; the admissions enforcer rewrites selectors
  kOpenshift,    // host-network API server, admitted by the host-network policy group
};

inline constexpr Provider kAllProviders[] = {
    Provider::kGeneric,     Provider::kGke,        Provider::kGkePrivate, Provider::kEks,
    Provider::kEksCustomSg, Provider::kEksOverlay, Provider::kAks,        Provider::kOpenshift};

std::string_view provider_name(Provider provider);  // as --provider takes it: "gke-private"
std::optional<Provider> parse_provider(std::string_view name);

// The TCP ports the provider's control plane reaches on pods by default; nullopt: every port.
std::optional<std::vector<int32_t>> reachable_ports(Provider provider);

// False where the control plane cannot route to pod IPs at all (EKS with an overlay CNI): only
// backends in the node's network namespace (hostNetwork) are reachable there.
bool reaches_pod_ips(Provider provider);

// The firewall or security-group rule that lets the control plane reach `port`, in the
// provider's own terms.
std::string opening_rule(Provider provider, int32_t port);

// The port a Service port sends to on its backend pods: targetPort (the port itself when unset),
// with a named targetPort resolved through the pods' containerPorts, and the containerPort's name
// for a number. `number` is 0 when a name matches no container port of `pods`.
struct PodPort {
  int32_t number = 0;
  std::string name;
  bool host_network = false;  // some backend pod runs in the node's network namespace
  bool found = false;         // the Service has that port
};

// `pods`: the pod templates the Service selects.
PodPort pod_port(const Object& service, int32_t service_port, std::span<const PodTemplate> pods);

// The pod templates of `pods` owned by one of `owners` (ServiceBackend::backends).
std::vector<PodTemplate> templates_of(std::span<const PodTemplate> pods,
                                      std::span<const Object* const> owners);

// Whether the control plane reaches a backend pod on that pod port.
bool reaches(Provider provider, const PodPort& port);

// A decimal port number, or 0 when `text` is not one (a name).
int32_t port_number(std::string_view text);

}  // namespace footprint
