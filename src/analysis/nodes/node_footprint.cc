// daemonset-node-access: what each DaemonSet holds on the nodes it runs on, from the Context's
// node footprints (models/node_footprints.h).
#include <fmt/format.h>

#include <string>
#include <vector>

#include "analysis/context.h"
#include "analysis/models/node_footprints.h"

namespace footprint {

namespace {

// Everything it holds, the privileged containers left out when the headline names them.
std::string holds(const NodeFootprint& f, bool without_privileged) {
  std::vector<std::string> parts;
  for (const std::string& t : f.takeover) {
    if (!(without_privileged && t.starts_with("privileged "))) parts.push_back(t);
  }
  for (const std::string& a : f.host_access) {
    if (!a.starts_with("writable hostPath ")) parts.push_back(a);
  }
  for (bool writable : {true, false}) {
    std::vector<std::string> paths;
    for (const HostPathMount& m : f.host_paths) {
      if (m.writable == writable && host_path_takeover(m).empty()) paths.push_back(m.path);
    }
    if (paths.empty()) continue;
    parts.push_back(fmt::format("{} {} {}", writable ? "writable" : "read-only",
                                paths.size() == 1 ? "hostPath" : "hostPaths",
                                fmt::join(paths, ", ")));
  }
  if (!f.host_ports.empty()) {
    parts.push_back(fmt::format("host {} {}", f.host_ports.size() == 1 ? "port" : "ports",
                                fmt::join(f.host_ports, ", ")));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

// The line an approver reads first: privileged (or root) where, control plane included.
std::string headline(const NodeFootprint& f) {
  const std::string name = f.daemonset->qualified_name();
  if (!f.privileged.empty()) {
    return fmt::format("DaemonSet {} runs privileged containers ({}) on {}", name,
                       fmt::join(f.privileged, ", "), f.reach());
  }
  if (!f.takeover.empty()) return fmt::format("DaemonSet {} is root on {}", name, f.reach());
  return fmt::format("DaemonSet {} runs on {}", name, f.reach());
}

void run_node_footprint(const Context& ctx, Findings& out) {
  for (const NodeFootprint& f : ctx.node_footprints) {
    Severity severity = node_footprint_severity(f);
    if (severity == Severity::kInfo) continue;
    std::string consequence;
    if (severity == Severity::kCritical) {
      consequence =
          " That is root on the control-plane nodes: the cluster CA and service-account signing "
          "keys and etcd's data are on them, so whoever controls this DaemonSet's pods (its "
          "image, its pod template, or an exploit of its process) controls every namespace.";
    } else if (severity == Severity::kHigh) {
      consequence =
          " That is root on each of those nodes: every other team's pods there, their mounted "
          "Secrets and tokens, and the node's kubelet credentials are within its reach.";
    } else if (severity == Severity::kMedium) {
      consequence =
          " None of it is root on the node, but it reaches past the container into what every "
          "pod on the node shares.";
    }
    std::string fix =
        severity >= Severity::kHigh
            ? "Confirm the node agent needs this access (CNI, CSI and device plugins do); "
              "otherwise drop privileged and the host mounts. Keep it off control-plane nodes "
              "unless it must run there: remove the control-plane and wildcard tolerations, or "
              "add a node affinity with node-role.kubernetes.io/control-plane DoesNotExist."
            : "Mount host paths read-only where possible, drop capabilities and host namespaces "
              "the agent does not use, and limit the nodes with a nodeSelector.";
    std::string rest = holds(f, !f.privileged.empty());
    Finding& finding =
        out.add(*f.daemonset, severity,
                fmt::format("{}.{}{}", headline(f), rest.empty() ? "" : " It holds: " + rest + ".",
                            consequence),
                std::move(fix), f.daemonset->node.at({"spec", "template", "spec"}));
    finding.summary = headline(f);
  }
}

}  // namespace

extern const Check kDaemonSetNodeAccess{
    .id = "daemonset-node-access",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kCritical,
    .impact = Impact::kOtherTeams,
    .area = Area::kNodes,
    .description =
        "A DaemonSet holds privileged or host access on every node it tolerates, control-plane "
        "nodes included.",
    .run = run_node_footprint,
    .rationale =
        "A DaemonSet runs on every node it tolerates. Critical when it can take over control-plane "
        "nodes (privileged, dangerous capabilities, a container runtime socket, or writable or "
        "secret-exposing host paths): root there holds the cluster CA key, the service-account "
        "signing key and etcd. High for the same access on worker nodes only; medium for other "
        "host access (host namespaces, capabilities); low for read-only paths or host ports alone.",
    .fix =
        "Confirm the node agent needs the access, drop what it does not use, and keep it off "
        "control-plane nodes unless it must run there.",
};

}  // namespace footprint
