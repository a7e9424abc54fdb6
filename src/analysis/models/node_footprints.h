// What each DaemonSet holds on the nodes it runs on: which nodes it reaches (its tolerations and
// node selection), and its access to them (privileged containers, hostPath mounts, host
// namespaces, added capabilities, host ports). docs/cluster-wide.md explains the severities.
#pragma once

#include <string>
#include <vector>

#include "analysis/finding.h"
#include "model/object.h"

namespace footprint {

struct HostPathMount {
  std::string volume;
  std::string path;
  bool writable = false;  // some container mounts it without readOnly
  std::vector<std::string> containers;
};

// How a hostPath takes its pod's node over (the runtime socket, a writable directory of root's,
// the node's credentials), or an empty string.
std::string host_path_takeover(const HostPathMount& mount);

struct NodeFootprint {
  const Object* daemonset = nullptr;
  bool every_taint = false;    // tolerates every NoSchedule and NoExecute taint
  bool control_plane = false;  // tolerates the control-plane taint
  // Node selection beyond the OS and architecture (nodeSelector, required node affinity),
  // e.g. "nvidia.com/gpu.present=true"; empty: every node it tolerates.
  std::string node_selection;
  std::vector<std::string> privileged;       // containers with securityContext.privileged
  std::vector<std::string> host_namespaces;  // hostNetwork, hostPID, hostIPC
  std::vector<HostPathMount> host_paths;
  std::vector<std::string> capabilities;  // added beyond the runtime's default set
  std::vector<std::string> host_ports;
  // Why the DaemonSet can take over a node it runs on (root on the node, or other pods' and the
  // node's credentials); empty when it cannot.
  std::vector<std::string> takeover;
  // Access that reaches past the container without taking the node over.
  std::vector<std::string> host_access;

  // "every node, including control-plane nodes and nodes with any taint", ...
  std::string reach() const;
  bool reaches_control_plane() const { return control_plane && node_selection.empty(); }
};

// For Context::node_footprints: one per DaemonSet of the bundle, in input order.
std::vector<NodeFootprint> node_footprints(const Bundle& bundle);

// Critical when it can take over control-plane nodes, high when it can take over the nodes it
// reaches, medium for other host access, low for read-only paths and host ports only.
Severity node_footprint_severity(const NodeFootprint& footprint);

}  // namespace footprint
