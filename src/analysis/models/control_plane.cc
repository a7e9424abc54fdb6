// The provider facts of control_plane.h.
#include "analysis/models/control_plane.h"

#include <fmt/format.h>

#include <algorithm>

namespace footprint {

namespace {

struct ProviderName {
  Provider provider;
  std::string_view name;
};

constexpr ProviderName kProviderNames[] = {
    {Provider::kGeneric, "generic"},
    {Provider::kGke, "gke"},
    {Provider::kGkePrivate, "gke-private"},
    {Provider::kEks, "eks"},
    {Provider::kEksCustomSg, "eks-custom-sg"},
    {Provider::kEksOverlay, "eks-overlay"},
    {Provider::kAks, "aks"},
    {Provider::kOpenshift, "openshift"},
};

}  // namespace

std::string_view provider_name(Provider provider) {
  for (const ProviderName& p : kProviderNames)
    if (p.provider == provider) return p.name;
  return "";
}

std::optional<Provider> parse_provider(std::string_view name) {
  for (const ProviderName& p : kProviderNames)
    if (p.name == name) return p.provider;
  return std::nullopt;
}

std::optional<std::vector<int32_t>> reachable_ports(Provider provider) {
  switch (provider) {
    case Provider::kGkePrivate:
      // The master firewall rule gke-<cluster>-<hash>-master.
      return std::vector<int32_t>{443, 10250};
    case Provider::kEksCustomSg:
      // terraform-aws-eks: ingress_cluster_443, ingress_cluster_kubelet and the recommended
      // webhook rules 4443, 6443, 8443, 9443, 10251.
      return std::vector<int32_t>{443, 4443, 6443, 8443, 9443, 10250, 10251};
    default:
      return std::nullopt;
  }
}

bool reaches_pod_ips(Provider provider) {
  // The EKS control plane sits in the VPC; an overlay's pod CIDR is not routed there (cert-manager
  // docs installation/compatibility.md, AWS EKS: webhook.hostNetwork=true).
  return provider != Provider::kEksOverlay;
}

bool reaches(Provider provider, const PodPort& port) {
  if (!port.host_network && !reaches_pod_ips(provider)) return false;
  std::optional<std::vector<int32_t>> ports = reachable_ports(provider);
  return !ports || std::find(ports->begin(), ports->end(), port.number) != ports->end();
}

std::string opening_rule(Provider provider, int32_t port) {
  switch (provider) {
    case Provider::kGkePrivate:
      return fmt::format(
          "gcloud compute firewall-rules create allow-master-{0} --network NETWORK "
          "--source-ranges MASTER_CIDR --target-tags NODE_TAG --allow tcp:{0} (the control "
          "plane's CIDR and the nodes' tag are those of the rule gke-CLUSTER-...-master)",
          port);
    case Provider::kEksCustomSg:
      return fmt::format(
          "an inbound rule on the node security group: TCP {} from the cluster security group "
          "(terraform-aws-eks: node_security_group_additional_rules)",
          port);
    case Provider::kEksOverlay:
      return "run the backend pods with hostNetwork: true (and dnsPolicy: "
             "ClusterFirstWithHostNet) on a host port other than the kubelet's 10250 "
             "(cert-manager: "
             "webhook.hostNetwork=true, webhook.securePort=10260), and point the Service's "
             "targetPort at it; EKS's cluster security group lets the control plane reach the "
             "nodes";
    default:
      return fmt::format("allow TCP {} from the control plane to the nodes", port);
  }
}

int32_t port_number(std::string_view text) {
  if (text.empty()) return 0;
  int32_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return 0;
    value = value * 10 + (c - '0');
    if (value > 65535) return 0;
  }
  return value;
}

PodPort pod_port(const Object& service, int32_t service_port, std::span<const PodTemplate> pods) {
  PodPort out{service_port, "", false, false};
  yaml::Node ports = service.node.at({"spec", "ports"});
  for (size_t i = 0; i < ports.size(); ++i) {
    yaml::Node p = ports.item(i);
    if (port_number(p.get("port").str()) != service_port) continue;
    out.found = true;
    std::string_view target = p.get("targetPort").str();
    if (!target.empty()) {
      out.number = port_number(target);
      if (out.number == 0) out.name = std::string(target);
    }
  }
  // Resolve a name to a number, or a number to its name, through the backends' container ports.
  for (const PodTemplate& t : pods) {
    if (t.spec.get("hostNetwork").str() == "true") out.host_network = true;
    yaml::Node containers = t.spec.get("containers");
    for (size_t c = 0; c < containers.size(); ++c) {
      yaml::Node cports = containers.item(c).get("ports");
      for (size_t i = 0; i < cports.size(); ++i) {
        yaml::Node cp = cports.item(i);
        std::string_view name = cp.get("name").str();
        int32_t number = port_number(cp.get("containerPort").str());
        if (!out.name.empty() && name == out.name && out.number == 0) out.number = number;
        if (out.number != 0 && number == out.number && out.name.empty()) out.name = name;
      }
    }
  }
  return out;
}

std::vector<PodTemplate> templates_of(std::span<const PodTemplate> pods,
                                      std::span<const Object* const> owners) {
  std::vector<PodTemplate> out;
  for (const PodTemplate& t : pods)
    if (std::find(owners.begin(), owners.end(), t.owner) != owners.end()) out.push_back(t);
  return out;
}

}  // namespace footprint
