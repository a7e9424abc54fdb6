// Node footprint. A DaemonSet's pods go to every node whose NoSchedule and NoExecute taints they
// tolerate (the DaemonSet controller adds only the node-condition tolerations:
// pkg/controller/daemon/util/daemonset_util.go), and that match its nodeSelector and required
// node affinity. kubeadm taints control-plane nodes node-role.kubernetes.io/control-plane:
// NoSchedule. Severities (docs/cluster-wide.md): root on control-plane nodes is root on the
// cluster (the CA key, the service-account signing key and etcd's data are files there), hence
// critical; root on the nodes it reaches is high; other host access medium; read-only paths and
// host ports alone low.
#include <gtest/gtest.h>

#include "analysis/check_testing.h"
#include "analysis/context.h"
#include "analysis/models/node_footprints.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

std::string daemonset(const std::string& pod_spec) {
  return R"(
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: sys}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec:
)" + pod_spec;
}

// calico-node, reduced (calico-manifest.yaml): privileged, host network, wildcard tolerations.
constexpr const char* kCalicoNode = R"(      hostNetwork: true
      nodeSelector: {kubernetes.io/os: linux}
      tolerations:
      - {effect: NoSchedule, operator: Exists}
      - {key: CriticalAddonsOnly, operator: Exists}
      - {effect: NoExecute, operator: Exists}
      initContainers:
      - name: install-cni
        securityContext: {privileged: true}
        volumeMounts: [{mountPath: /host/opt/cni/bin, name: cni-bin-dir}]
      containers:
      - name: calico-node
        securityContext: {privileged: true}
        volumeMounts:
        - {mountPath: /lib/modules, name: lib-modules, readOnly: true}
        - {mountPath: /var/run/calico, name: var-run-calico, readOnly: false}
      volumes:
      - {name: lib-modules, hostPath: {path: /lib/modules}}
      - {name: var-run-calico, hostPath: {path: /var/run/calico, type: DirectoryOrCreate}}
      - {name: cni-bin-dir, hostPath: {path: /opt/cni/bin/, type: DirectoryOrCreate}}
)";

TEST(NodeFootprint, PrivilegedOnEveryNodeIsCritical) {
  Bundle b = bundle_from(daemonset(kCalicoNode));
  auto footprints = node_footprints(b);
  ASSERT_EQ(footprints.size(), 1u);
  const NodeFootprint& f = footprints[0];
  EXPECT_TRUE(f.every_taint);
  EXPECT_TRUE(f.control_plane);
  EXPECT_EQ(f.node_selection, "");  // kubernetes.io/os selects every Linux node
  EXPECT_EQ(f.privileged, (std::vector<std::string>{"install-cni", "calico-node"}));
  EXPECT_EQ(f.host_namespaces, (std::vector<std::string>{"hostNetwork"}));
  ASSERT_EQ(f.host_paths.size(), 3u);
  EXPECT_EQ(f.host_paths[0].path, "/lib/modules");
  EXPECT_FALSE(f.host_paths[0].writable);
  EXPECT_EQ(f.host_paths[1].path, "/opt/cni/bin");  // trailing slash dropped
  EXPECT_TRUE(f.host_paths[1].writable);            // readOnly unset
  EXPECT_EQ(node_footprint_severity(f), Severity::kCritical);

  auto findings = run_check(b, "daemonset-node-access");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  EXPECT_EQ(findings[0].message.find("DaemonSet sys/agent runs privileged containers (install-cni, "
                                     "calico-node) on every node, including control-plane nodes "
                                     "and nodes with any taint."),
            0u);
  // Writing the CNI plugin directory is root: kubelet executes those binaries for every pod.
  EXPECT_NE(findings[0].message.find(
                "writable hostPath /opt/cni/bin (the CNI plugins kubelet runs as root for every "
                "pod)"),
            std::string::npos);
}

TEST(NodeFootprint, PrivilegedOnWorkersOnlyIsHigh) {
  Bundle b = bundle_from(daemonset(R"(      containers:
      - {name: a, securityContext: {privileged: true}}
)"));
  auto findings = run_check(b, "daemonset-node-access");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("(not control-plane nodes)"), std::string::npos);
}

TEST(NodeFootprint, NodeSelectionNarrowsTheReach) {
  // GPU nodes only: wildcard tolerations do not bring it to control-plane nodes.
  Bundle b = bundle_from(daemonset(R"(      nodeSelector: {nvidia.com/gpu.present: "true"}
      tolerations: [{operator: Exists}]
      containers: [{name: a, securityContext: {privileged: true}}]
)"));
  auto f = node_footprints(b);
  EXPECT_EQ(f[0].node_selection, "nvidia.com/gpu.present=true");
  EXPECT_FALSE(f[0].reaches_control_plane());
  EXPECT_EQ(node_footprint_severity(f[0]), Severity::kHigh);

  // A required affinity that excludes control-plane nodes.
  Bundle b2 = bundle_from(daemonset(R"(      tolerations: [{operator: Exists}]
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchExpressions:
              - {key: node-role.kubernetes.io/control-plane, operator: DoesNotExist}
      containers: [{name: a, securityContext: {privileged: true}}]
)"));
  auto f2 = node_footprints(b2);
  EXPECT_FALSE(f2[0].control_plane);
  EXPECT_EQ(f2[0].node_selection, "");
  EXPECT_EQ(node_footprint_severity(f2[0]), Severity::kHigh);
}

TEST(NodeFootprint, ControlPlaneTolerationWithRuntimeSocketIsCritical) {
  // A read-only mount does not stop connect() on a socket: the runtime still obeys it.
  Bundle b = bundle_from(daemonset(R"(      tolerations:
      - {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}
      containers:
      - name: a
        volumeMounts: [{name: sock, mountPath: /run/containerd, readOnly: true}]
      volumes: [{name: sock, hostPath: {path: /run/containerd}}]
)"));
  auto f = node_footprints(b);
  EXPECT_FALSE(f[0].every_taint);
  EXPECT_TRUE(f[0].control_plane);
  ASSERT_EQ(f[0].takeover.size(), 1u);
  EXPECT_EQ(f[0].takeover[0],
            "hostPath /run/containerd (the container runtime socket "
            "/run/containerd/containerd.sock)");
  EXPECT_EQ(node_footprint_severity(f[0]), Severity::kCritical);
}

TEST(NodeFootprint, ReadingOtherPodsSecretsIsATakeover) {
  Bundle b = bundle_from(daemonset(R"(      containers:
      - name: a
        volumeMounts: [{name: kubelet, mountPath: /k, readOnly: true}]
      volumes: [{name: kubelet, hostPath: {path: /var/lib/kubelet}}]
)"));
  auto f = node_footprints(b);
  ASSERT_EQ(f[0].takeover.size(), 1u);
  EXPECT_EQ(f[0].takeover[0],
            "hostPath /var/lib/kubelet (covers /var/lib/kubelet/pods: other pods' Secrets and "
            "service-account tokens)");
  EXPECT_EQ(node_footprint_severity(f[0]), Severity::kHigh);
}

TEST(NodeFootprint, WritableKernelHooksAreATakeover) {
  // core_pattern under /proc/sys and a cgroup v1 release_agent under /sys/fs/cgroup make the
  // kernel run a program of the writer's choosing as root on the node.
  Bundle b = bundle_from(daemonset(R"(      containers:
      - name: a
        volumeMounts: [{name: sys, mountPath: /host/sys}, {name: proc, mountPath: /host/proc}]
      volumes:
      - {name: sys, hostPath: {path: /sys/fs}}
      - {name: proc, hostPath: {path: /proc/sys/kernel}}
)"));
  auto f = node_footprints(b);
  ASSERT_EQ(f[0].takeover.size(), 2u);
  EXPECT_NE(f[0].takeover[0].find("inside /proc/sys"), std::string::npos);
  EXPECT_NE(f[0].takeover[1].find("covers /sys/fs/cgroup"), std::string::npos);
}

TEST(NodeFootprint, LesserAccess) {
  // Host network with NET_ADMIN: no takeover, but host access: medium.
  Bundle medium = bundle_from(daemonset(R"(      hostNetwork: true
      containers:
      - {name: a, securityContext: {capabilities: {add: [NET_ADMIN, NET_BIND_SERVICE]}}}
)"));
  auto f = node_footprints(medium);
  EXPECT_EQ(f[0].capabilities, (std::vector<std::string>{"NET_ADMIN"}));
  EXPECT_TRUE(f[0].takeover.empty());
  EXPECT_EQ(node_footprint_severity(f[0]), Severity::kMedium);

  // A log collector reading /var/log: low.
  Bundle low = bundle_from(daemonset(R"(      containers:
      - name: a
        volumeMounts: [{name: logs, mountPath: /var/log, readOnly: true}]
      volumes: [{name: logs, hostPath: {path: /var/log}}]
)"));
  auto findings = run_check(low, "daemonset-node-access");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_NE(findings[0].message.find("read-only hostPath /var/log"), std::string::npos);

  // node-feature-discovery's features.d (gpu-operator.yaml) lies under /etc/kubernetes but holds
  // no credentials: low, not a takeover.
  Bundle nfd = bundle_from(daemonset(R"(      containers:
      - name: a
        volumeMounts: [{name: f, mountPath: /etc/kubernetes/node-feature-discovery/features.d/}]
      volumes: [{name: f, hostPath: {path: /etc/kubernetes/node-feature-discovery/features.d/}}]
)"));
  auto nfd_footprint = node_footprints(nfd);
  EXPECT_TRUE(nfd_footprint[0].takeover.empty());
  EXPECT_EQ(node_footprint_severity(nfd_footprint[0]), Severity::kMedium);  // writable

  // Nothing on the host: no finding, still in the report's table.
  Bundle none = bundle_from(daemonset("      containers: [{name: a, image: x}]\n"));
  EXPECT_TRUE(run_check(none, "daemonset-node-access").empty());
  EXPECT_EQ(node_footprints(none).size(), 1u);
}

}  // namespace
}  // namespace footprint
