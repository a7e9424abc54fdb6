#include "analysis/models/node_footprints.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "model/kubectl_json.h"
#include "model/pod_security.h"
#include "model/tolerations.h"
#include "model/workloads.h"

namespace footprint {

namespace {

// Node labels that only pick the operating system or architecture: selecting on them still
// means every node of that kind.
bool os_or_arch(std::string_view key) {
  return key == "kubernetes.io/os" || key == "kubernetes.io/arch" ||
         key == "beta.kubernetes.io/os" || key == "beta.kubernetes.io/arch";
}

bool control_plane_label(std::string_view key) {
  return key == "node-role.kubernetes.io/control-plane" || key == "node-role.kubernetes.io/master";
}

struct Selection {
  std::string restriction;  // empty: every node
  bool excludes_control_plane = false;
};

// nodeSelector and required node affinity (terms are ORed, expressions ANDed).
Selection node_selection(const yaml::Node& spec) {
  Selection s;
  std::vector<std::string> labels;
  yaml::Node selector = spec.get("nodeSelector");
  for (size_t i = 0; selector.is_mapping() && i < selector.size(); ++i) {
    std::string_view key = selector.key(i).str();
    if (!os_or_arch(key)) labels.push_back(fmt::format("{}={}", key, selector.value(i).str()));
  }
  yaml::Node terms =
      spec.at({"affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
               "nodeSelectorTerms"});
  bool every_term_restricts = terms.is_sequence() && terms.size() > 0;
  bool every_term_excludes_cp = every_term_restricts;
  std::string first_term;
  for (size_t t = 0; terms.is_sequence() && t < terms.size(); ++t) {
    yaml::Node expressions = terms.item(t).get("matchExpressions");
    std::vector<std::string> restricting;
    bool excludes_cp = false;
    for (size_t i = 0; expressions.is_sequence() && i < expressions.size(); ++i) {
      yaml::Node e = expressions.item(i);
      std::string_view key = e.get("key").str();
      std::string_view op = e.get("operator").str();
      if (control_plane_label(key) && op == "DoesNotExist") excludes_cp = true;
      // NotIn and DoesNotExist exclude some nodes and keep every other one.
      if (os_or_arch(key) || op == "NotIn" || op == "DoesNotExist") continue;
      std::vector<std::string> values;
      yaml::Node list = e.get("values");
      for (size_t v = 0; list.is_sequence() && v < list.size(); ++v)
        values.emplace_back(list.item(v).str());
      restricting.push_back(values.empty()
                                ? fmt::format("{} {}", key, op)
                                : fmt::format("{} {} [{}]", key, op, fmt::join(values, ", ")));
    }
    if (restricting.empty()) every_term_restricts = false;
    if (t == 0) first_term = fmt::format("{}", fmt::join(restricting, ", "));
    every_term_excludes_cp = every_term_excludes_cp && excludes_cp;
  }
  if (every_term_restricts) {
    labels.push_back(terms.size() == 1 ? first_term
                                       : fmt::format("{} (or {} other node affinity terms)",
                                                     first_term, terms.size() - 1));
  }
  s.restriction = fmt::format("{}", fmt::join(labels, ", "));
  s.excludes_control_plane = every_term_excludes_cp;
  return s;
}

// Is `path` the directory `dir` or inside it?
bool within(std::string_view path, std::string_view dir) {
  if (dir == "/") return true;
  return path == dir ||
         (path.starts_with(dir) && path.size() > dir.size() && path[dir.size()] == '/');
}

std::string normalized(std::string_view path) {
  std::string out(path);
  while (out.size() > 1 && out.back() == '/')
    out.pop_back();
  return out;
}

// Sockets of the container runtimes: whoever can connect to one starts privileged containers
// on the node. A read-only mount does not stop connect(): only files, directories and links
// are read-only on a read-only mount.
constexpr std::string_view kRuntimeSockets[] = {"/var/run/docker.sock",
                                                "/run/docker.sock",
                                                "/run/containerd/containerd.sock",
                                                "/var/run/containerd/containerd.sock",
                                                "/run/crio/crio.sock",
                                                "/var/run/crio/crio.sock",
                                                "/run/k3s/containerd/containerd.sock"};

struct SensitiveDirectory {
  std::string_view path;
  std::string_view holds;
  bool inside_too;  // a mount inside it counts too, not only one that covers it
};

// Writing here gives root on the node: kubelet's static pod manifests, the cluster's and
// kubelet's keys, etcd's data, the programs root runs, the CNI plugins kubelet executes for every
// pod, and the kernel hooks that run programs as root.
constexpr SensitiveDirectory kRootDirectories[] = {
    {"/etc", "the node's configuration", false},
    {"/etc/kubernetes", "kubelet's configuration and credentials", false},
    {"/etc/kubernetes/manifests", "the static pods kubelet runs", true},
    {"/etc/kubernetes/pki", "the cluster's keys", true},
    {"/var/lib/kubelet", "kubelet's state and every pod's volumes", false},
    {"/var/lib/kubelet/pods", "every pod's volumes", true},
    {"/var/lib/etcd", "etcd's data", true},
    {"/root", "root's home", true},
    {"/usr", "programs root runs", true},
    {"/bin", "programs root runs", true},
    {"/sbin", "programs root runs", true},
    {"/lib", "libraries root runs", true},
    {"/lib64", "libraries root runs", true},
    {"/boot", "the kernel the node boots", true},
    {"/opt/cni/bin", "the CNI plugins kubelet runs as root for every pod", true},
    {"/proc/sys", "kernel settings: core_pattern runs a program as root", true},
    {"/sys/fs/cgroup", "the node's cgroups: a v1 release_agent runs a program as root", true}};

// Reading here exposes other pods' Secrets and tokens, kubelet's credentials, and on
// control-plane nodes the cluster's keys and etcd's data.
constexpr SensitiveDirectory kSecretDirectories[] = {
    {"/var/lib/kubelet/pods", "other pods' Secrets and service-account tokens", true},
    {"/var/lib/kubelet/pki", "kubelet's keys", true},
    {"/etc/kubernetes", "kubelet's kubeconfig and, on control-plane nodes, admin credentials",
     false},
    {"/etc/kubernetes/pki", "the cluster CA and service-account signing keys", true},
    {"/var/lib/etcd", "etcd's data", true}};

std::string covering(std::string_view path, const SensitiveDirectory& dir) {
  if (path == dir.path) return std::string(dir.holds);
  return fmt::format("{} {}: {}", within(dir.path, path) ? "covers" : "inside", dir.path,
                     dir.holds);
}

bool touches(std::string_view path, const SensitiveDirectory& dir) {
  return within(dir.path, path) || (dir.inside_too && within(path, dir.path));
}

}  // namespace

std::string host_path_takeover(const HostPathMount& m) {
  for (std::string_view socket : kRuntimeSockets) {
    if (within(socket, m.path)) {
      return fmt::format("hostPath {} (the container runtime socket {})", m.path, socket);
    }
  }
  if (m.writable) {
    for (const SensitiveDirectory& dir : kRootDirectories) {
      if (touches(m.path, dir)) {
        return fmt::format("writable hostPath {} ({})", m.path, covering(m.path, dir));
      }
    }
  }
  for (const SensitiveDirectory& dir : kSecretDirectories) {
    if (touches(m.path, dir)) return fmt::format("hostPath {} ({})", m.path, covering(m.path, dir));
  }
  return "";
}

namespace {

NodeFootprint footprint_of(const Object& ds) {
  NodeFootprint f;
  f.daemonset = &ds;
  yaml::Node spec = ds.node.at({"spec", "template", "spec"});
  std::vector<Toleration> tolerations = read_tolerations(spec);
  f.every_taint = tolerates_every_taint(tolerations);
  Selection selection = node_selection(spec);
  f.node_selection = selection.restriction;
  f.control_plane = !selection.excludes_control_plane &&
                    std::any_of(control_plane_taints().begin(), control_plane_taints().end(),
                                [&](const Taint& t) { return tolerates(tolerations, t); });

  bool host_pid = false, host_network = false;
  for (const char* field : {"hostNetwork", "hostPID", "hostIPC"}) {
    if (kubectl_bool(spec.get(field)) == true) f.host_namespaces.emplace_back(field);
  }
  host_pid = std::find(f.host_namespaces.begin(), f.host_namespaces.end(), "hostPID") !=
             f.host_namespaces.end();
  host_network = std::find(f.host_namespaces.begin(), f.host_namespaces.end(), "hostNetwork") !=
                 f.host_namespaces.end();

  std::map<std::string, std::string> host_path_of;  // volume name -> path
  yaml::Node volumes = spec.get("volumes");
  for (size_t i = 0; volumes.is_sequence() && i < volumes.size(); ++i) {
    yaml::Node path = volumes.item(i).at({"hostPath", "path"});
    if (path) host_path_of[std::string(volumes.item(i).get("name").str())] = normalized(path.str());
  }

  std::map<std::string, HostPathMount> mounts;
  std::vector<std::string> capabilities;
  for_each_container(spec, [&](const yaml::Node& c) {
    std::string name(c.get("name").str());
    if (kubectl_bool(c.at({"securityContext", "privileged"})) == true) f.privileged.push_back(name);
    yaml::Node add = c.at({"securityContext", "capabilities", "add"});
    for (size_t i = 0; add.is_sequence() && i < add.size(); ++i) {
      std::string cap(add.item(i).str());
      if (cap.starts_with("CAP_")) cap = cap.substr(4);
      if (!baseline_capability(cap) &&
          std::find(capabilities.begin(), capabilities.end(), cap) == capabilities.end()) {
        capabilities.push_back(cap);
      }
    }
    yaml::Node ports = c.get("ports");
    for (size_t i = 0; ports.is_sequence() && i < ports.size(); ++i) {
      int64_t port = kubectl_int(ports.item(i).get("hostPort")).value_or(0);
      if (port == 0 && host_network)
        port = kubectl_int(ports.item(i).get("containerPort")).value_or(0);
      std::string text = std::to_string(port);
      if (port != 0 &&
          std::find(f.host_ports.begin(), f.host_ports.end(), text) == f.host_ports.end()) {
        f.host_ports.push_back(text);
      }
    }
    yaml::Node list = c.get("volumeMounts");
    for (size_t i = 0; list.is_sequence() && i < list.size(); ++i) {
      std::string volume(list.item(i).get("name").str());
      auto it = host_path_of.find(volume);
      if (it == host_path_of.end()) continue;
      HostPathMount& m = mounts[volume];
      m.volume = volume;
      m.path = it->second;
      m.writable = m.writable || kubectl_bool(list.item(i).get("readOnly")) != true;
      if (std::find(m.containers.begin(), m.containers.end(), name) == m.containers.end()) {
        m.containers.push_back(name);
      }
    }
  });
  for (auto& [volume, m] : mounts)
    f.host_paths.push_back(std::move(m));
  std::sort(f.host_paths.begin(), f.host_paths.end(),
            [](const HostPathMount& a, const HostPathMount& b) { return a.path < b.path; });
  f.capabilities = capabilities;

  // Root on the node.
  if (!f.privileged.empty()) {
    f.takeover.push_back(fmt::format("privileged {} ({})",
                                     f.privileged.size() == 1 ? "container" : "containers",
                                     fmt::join(f.privileged, ", ")));
  }
  for (const std::string& cap : capabilities) {
    if (cap == "ALL" || cap == "SYS_ADMIN" || cap == "SYS_MODULE" || cap == "DAC_READ_SEARCH" ||
        (cap == "SYS_PTRACE" && host_pid)) {
      f.takeover.push_back(
          fmt::format("capability {}{}", cap, cap == "SYS_PTRACE" ? " with hostPID" : ""));
    }
  }
  for (const HostPathMount& m : f.host_paths) {
    std::string why = host_path_takeover(m);
    if (!why.empty()) f.takeover.push_back(why);
  }
  // Reaching past the container without taking the node over.
  for (const std::string& ns : f.host_namespaces) {
    f.host_access.emplace_back(ns == "hostNetwork" ? "hostNetwork (the node's network stack: its "
                                                     "ports and traffic)"
                               : ns == "hostPID"   ? "hostPID (every process on the node)"
                                                   : "hostIPC (the node's shared memory)");
  }
  for (const std::string& cap : capabilities) {
    if (std::any_of(f.takeover.begin(), f.takeover.end(),
                    [&](const std::string& t) { return t.starts_with("capability " + cap); })) {
      continue;
    }
    std::string what = cap == "NET_ADMIN" && host_network ? " (the node's routing and firewall)"
                       : cap == "NET_RAW" && host_network ? " (raw packets on the node's network)"
                                                          : "";
    f.host_access.push_back(fmt::format("capability {}{}", cap, what));
  }
  for (const HostPathMount& m : f.host_paths) {
    if (m.writable && host_path_takeover(m).empty()) {
      f.host_access.push_back(fmt::format("writable hostPath {}", m.path));
    }
  }
  return f;
}

}  // namespace

std::string NodeFootprint::reach() const {
  std::string where = every_taint     ? "every node, including control-plane nodes and nodes "
                                        "with any taint"
                      : control_plane ? "every node without other taints, including "
                                        "control-plane nodes"
                                      : "every node without taints it does not tolerate "
                                        "(not control-plane nodes)";
  if (!node_selection.empty()) where += fmt::format(" that matches {}", node_selection);
  return where;
}

std::vector<NodeFootprint> node_footprints(const Bundle& bundle) {
  std::vector<NodeFootprint> out;
  for (uint32_t index : bundle.of_kind("apps", "DaemonSet")) {
    out.push_back(footprint_of(bundle.objects[index]));
  }
  return out;
}

Severity node_footprint_severity(const NodeFootprint& f) {
  if (!f.takeover.empty()) return f.reaches_control_plane() ? Severity::kCritical : Severity::kHigh;
  if (!f.host_access.empty()) return Severity::kMedium;
  if (!f.host_paths.empty() || !f.host_ports.empty()) return Severity::kLow;
  return Severity::kInfo;
}

}  // namespace footprint
