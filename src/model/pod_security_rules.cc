// Each function below is one revision of one check of
// staging/src/k8s.io/pod-security-admission/policy/check_<id>.go, over the pod as the API server
// has decoded and defaulted it. Reasons are the package's own short reasons, which kubectl prints
// in its warnings; details say what to change.
#include "model/pod_security_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "model/kubectl_json.h"
#include "model/workloads.h"

namespace footprint::pod_security {

namespace {

using Names = std::vector<std::string>;

// A pointer field of the API: set unless absent or null.
bool present(const yaml::Node& node) {
  return node && !node.is_null();
}

bool is_true(const yaml::Node& node) {
  return kubectl_bool(node) == true;
}

// visitor.go: init containers, containers, then ephemeral containers.
std::string name_of(const yaml::Node& container) {
  return std::string(container.get("name").str());
}

std::string quoted(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items)
    out += fmt::format("{}\"{}\"", out.empty() ? "" : ", ", item);
  return out;
}

std::string quoted(const std::set<std::string>& items) {
  return quoted(Names(items.begin(), items.end()));
}

std::string containers(const Names& names) {
  return fmt::format("{} {}", names.size() == 1 ? "container" : "containers", quoted(names));
}

// "pod and containers "a", "b"": the pod-level setter first, as the package lists them.
std::string setters(bool pod, const Names& names) {
  std::vector<std::string> parts;
  if (pod) parts.emplace_back("the pod");
  if (!names.empty()) parts.push_back(containers(names));
  return fmt::format("{}", fmt::join(parts, " and "));
}

std::string joined(const std::set<std::string>& items) {
  return fmt::format("{}", fmt::join(items, ", "));
}

bool windows_pod(const PodView& pod) {
  return pod.spec.at({"os", "name"}).str() == "windows";
}

// helpers.go relaxPolicyForUserNamespacePod: spec.hostUsers is explicitly false.
bool user_namespace_pod(const PodView& pod) {
  return kubectl_bool(pod.spec.get("hostUsers")) == false;
}

// --- baseline ---------------------------------------------------------------------------------

// check_hostNamespaces.go
std::optional<Failure> host_namespaces_1_0(const PodView& pod) {
  std::vector<std::string> set;
  for (const char* field : {"hostNetwork", "hostPID", "hostIPC"}) {
    if (is_true(pod.spec.get(field))) set.push_back(fmt::format("spec.{}", field));
  }
  if (set.empty()) return std::nullopt;
  return Failure{"host namespaces", fmt::format("set {} to false", fmt::join(set, ", "))};
}

// check_privileged.go
std::optional<Failure> privileged_1_0(const PodView& pod) {
  Names bad;
  for_each_container(pod.spec, [&](const yaml::Node& c) {
    if (is_true(c.at({"securityContext", "privileged"}))) bad.push_back(name_of(c));
  });
  if (bad.empty()) return std::nullopt;
  return Failure{"privileged",
                 fmt::format("remove securityContext.privileged: true from {}", containers(bad))};
}

// check_capabilities_baseline.go: the default set of container runtimes.
constexpr std::string_view kBaselineCapabilities[] = {
    "AUDIT_WRITE",      "CHOWN",   "DAC_OVERRIDE", "FOWNER",  "FSETID", "KILL",      "MKNOD",
    "NET_BIND_SERVICE", "SETFCAP", "SETGID",       "SETPCAP", "SETUID", "SYS_CHROOT"};

std::optional<Failure> capabilities_baseline_1_0(const PodView& pod) {
  Names bad;
  std::set<std::string> added;
  for_each_container(pod.spec, [&](const yaml::Node& c) {
    yaml::Node add = c.at({"securityContext", "capabilities", "add"});
    bool valid = true;
    for (size_t i = 0; add.is_sequence() && i < add.size(); ++i) {
      std::string_view cap = add.item(i).str();
      if (!baseline_capability(cap)) {
        valid = false;
        added.emplace(cap);
      }
    }
    if (!valid) bad.push_back(name_of(c));
  });
  if (bad.empty()) return std::nullopt;
  return Failure{"non-default capabilities",
                 fmt::format("remove {} from securityContext.capabilities.add of {}", joined(added),
                             containers(bad))};
}

// check_hostPathVolumes.go
std::optional<Failure> host_path_volumes_1_0(const PodView& pod) {
  Names bad;
  yaml::Node volumes = pod.spec.get("volumes");
  for (size_t i = 0; volumes.is_sequence() && i < volumes.size(); ++i) {
    if (present(volumes.item(i).get("hostPath"))) bad.push_back(name_of(volumes.item(i)));
  }
  if (bad.empty()) return std::nullopt;
  return Failure{"hostPath volumes",
                 fmt::format("replace the hostPath {} {}", bad.size() == 1 ? "volume" : "volumes",
                             quoted(bad))};
}

// check_hostPorts.go. With hostNetwork the API server defaults every port's hostPort to its
// containerPort (pkg/apis/core/v1/defaults.go defaultHostNetworkPorts; ephemeral containers may
// not have ports), and the check sees the defaulted pod.
std::optional<Failure> host_ports_1_0(const PodView& pod) {
  bool host_network = is_true(pod.spec.get("hostNetwork"));
  Names bad;
  std::set<int64_t> ports;
  for_each_container(pod.spec, [&](const yaml::Node& c) {
    yaml::Node list = c.get("ports");
    bool valid = true;
    for (size_t i = 0; list.is_sequence() && i < list.size(); ++i) {
      int64_t port = kubectl_int(list.item(i).get("hostPort")).value_or(0);
      if (port == 0 && host_network) {
        port = kubectl_int(list.item(i).get("containerPort")).value_or(0);
      }
      if (port != 0) {
        valid = false;
        ports.insert(port);
      }
    }
    if (!valid) bad.push_back(name_of(c));
  });
  if (bad.empty()) return std::nullopt;
  return Failure{"hostPort", fmt::format("remove hostPort {} from {}{}", fmt::join(ports, ", "),
                                         containers(bad),
                                         host_network ? " (with hostNetwork every containerPort "
                                                        "is also a hostPort)"
                                                      : "")};
}

// check_appArmorProfile.go: the securityContext fields and the deprecated annotations.
constexpr std::string_view kAppArmorAnnotationPrefix =
    "container.apparmor.security.beta.kubernetes.io/";

bool allowed_apparmor_field(const yaml::Node& profile) {
  if (!present(profile)) return true;
  std::string_view type = profile.get("type").str();
  return type == "RuntimeDefault" || type == "Localhost";
}

std::optional<Failure> apparmor_profile_1_0(const PodView& pod) {
  std::set<std::string> bad;
  yaml::Node annotations = pod.metadata.get("annotations");
  for (size_t i = 0; annotations.is_mapping() && i < annotations.size(); ++i) {
    std::string_view key = annotations.key(i).str();
    std::string_view value = annotations.value(i).str();
    if (key.starts_with(kAppArmorAnnotationPrefix) && !value.empty() &&
        value != "runtime/default" && !value.starts_with("localhost/")) {
      bad.insert(fmt::format("annotation {}={}", key, value));
    }
  }
  if (!allowed_apparmor_field(pod.spec.at({"securityContext", "appArmorProfile"}))) {
    bad.insert(fmt::format("spec.securityContext.appArmorProfile.type {}",
                           pod.spec.at({"securityContext", "appArmorProfile", "type"}).str()));
  }
  for_each_container(pod.spec, [&](const yaml::Node& c) {
    if (!allowed_apparmor_field(c.at({"securityContext", "appArmorProfile"}))) {
      bad.insert(fmt::format("container \"{}\" appArmorProfile.type {}", name_of(c),
                             c.at({"securityContext", "appArmorProfile", "type"}).str()));
    }
  });
  if (bad.empty()) return std::nullopt;
  return Failure{"forbidden AppArmor profile",
                 fmt::format("use RuntimeDefault or Localhost instead of: {}", joined(bad))};
}

// check_seLinuxOptions.go: types allowed at 1.0, and container_engine_t from 1.31.
std::optional<Failure> selinux_options(const PodView& pod, bool engine_type) {
  std::set<std::string> types;
  bool user = false, role = false;
  auto valid = [&](const yaml::Node& options) {
    if (!present(options)) return true;
    std::string_view type = options.get("type").str();
    bool ok = true;
    if (!(type.empty() || type == "container_t" || type == "container_init_t" ||
          type == "container_kvm_t" || (engine_type && type == "container_engine_t"))) {
      types.emplace(type);
      ok = false;
    }
    if (!options.get("user").str().empty()) user = ok = false;
    if (!options.get("role").str().empty()) role = ok = false;
    return ok;
  };
  bool pod_bad = !valid(pod.spec.at({"securityContext", "seLinuxOptions"}));
  Names bad;
  for_each_container(pod.spec, [&](const yaml::Node& c) {
    if (!valid(c.at({"securityContext", "seLinuxOptions"}))) bad.push_back(name_of(c));
  });
  if (!pod_bad && bad.empty()) return std::nullopt;
  std::vector<std::string> fixes;
  if (!types.empty()) {
    fixes.push_back(
        fmt::format("set seLinuxOptions.type to container_t, container_init_t, "
                    "container_kvm_t{} or leave it empty instead of {}",
                    engine_type ? ", container_engine_t" : "", joined(types)));
  }
  if (user) fixes.emplace_back("remove seLinuxOptions.user");
  if (role) fixes.emplace_back("remove seLinuxOptions.role");
  return Failure{"seLinuxOptions", fmt::format("{} in the securityContext of {}",
                                               fmt::join(fixes, "; "), setters(pod_bad, bad))};
}

std::optional<Failure> selinux_options_1_0(const PodView& pod) {
  return selinux_options(pod, false);
}

std::optional<Failure> selinux_options_1_31(const PodView& pod) {
  return selinux_options(pod, true);
}

// check_procMount.go: only the Default /proc masks.
std::optional<Failure> proc_mount_1_0(const PodView& pod) {
  Names bad;
  std::set<std::string> types;
  for_each_container(pod.spec, [&](const yaml::Node& c) {
    yaml::Node mount = c.at({"securityContext", "procMount"});
    if (present(mount) && mount.str() != "Default") {
      bad.push_back(name_of(c));
      types.emplace(mount.str());
    }
  });
  if (bad.empty()) return std::nullopt;
  return Failure{"procMount", fmt::format("remove securityContext.procMount: {} from {}",
                                          joined(types), containers(bad))};
}

// From 1.35 baseline allows any procMount in a user namespace (hostUsers: false).
std::optional<Failure> proc_mount_1_35(const PodView& pod) {
  if (user_namespace_pod(pod)) return std::nullopt;
  return proc_mount_1_0(pod);
}

// check_seccompProfile_baseline.go, before 1.19: the alpha annotations.
constexpr std::string_view kSeccompPodAnnotation = "seccomp.security.alpha.kubernetes.io/pod";
constexpr std::string_view kSeccompContainerAnnotationPrefix =
    "container.seccomp.security.alpha.kubernetes.io/";

bool valid_seccomp_annotation(std::string_view value) {
  return value == "runtime/default" || value == "docker/default" || value.starts_with("localhost/");
}

std::optional<Failure> seccomp_baseline_1_0(const PodView& pod) {
  std::set<std::string> bad;
  yaml::Node annotations = pod.metadata.get("annotations");
  auto check = [&](std::string_view key) {
    yaml::Node value = annotations.get(key);
    if (value && !valid_seccomp_annotation(value.str())) {
      bad.insert(fmt::format("{}={}", key, value.str()));
    }
  };
  check(kSeccompPodAnnotation);
  for_each_container(pod.spec, [&](const yaml::Node& c) {
    check(fmt::format("{}{}", kSeccompContainerAnnotationPrefix, name_of(c)));
  });
  if (bad.empty()) return std::nullopt;
  return Failure{
      "seccompProfile",
      fmt::format("set the annotations {} to runtime/default or localhost/<profile>", joined(bad))};
}

bool valid_seccomp_type(std::string_view type) {
  return type == "RuntimeDefault" || type == "Localhost";
}

// From 1.19: the securityContext fields; a profile that is set must not be Unconfined.
std::optional<Failure> seccomp_baseline_1_19(const PodView& pod) {
  std::set<std::string> values;
  yaml::Node pod_profile = pod.spec.at({"securityContext", "seccompProfile"});
  bool pod_bad = present(pod_profile) && !valid_seccomp_type(pod_profile.get("type").str());
  if (pod_bad) values.emplace(pod_profile.get("type").str());
  Names bad;
  for_each_container(pod.spec, [&](const yaml::Node& c) {
    yaml::Node profile = c.at({"securityContext", "seccompProfile"});
    if (present(profile) && !valid_seccomp_type(profile.get("type").str())) {
      bad.push_back(name_of(c));
      values.emplace(profile.get("type").str());
    }
  });
  if (!pod_bad && bad.empty()) return std::nullopt;
  return Failure{"seccompProfile",
                 fmt::format("set securityContext.seccompProfile.type to RuntimeDefault or "
                             "Localhost instead of {} in {}",
                             joined(values), setters(pod_bad, bad))};
}

// check_sysctls.go: the safe sysctls, a set that grew at 1.27, 1.29, 1.32 and 1.37.
std::optional<Failure> sysctls(const PodView& pod, int minor) {
  struct Safe {
    std::string_view name;
    int since;
  };
  static constexpr Safe kSafe[] = {
      {"kernel.shm_rmid_forced", 0},
      {"net.ipv4.ip_local_port_range", 0},
      {"net.ipv4.tcp_syncookies", 0},
      {"net.ipv4.ping_group_range", 0},
      {"net.ipv4.ip_unprivileged_port_start", 0},
      {"net.ipv4.ip_local_reserved_ports", 27},
      {"net.ipv4.tcp_keepalive_time", 29},
      {"net.ipv4.tcp_fin_timeout", 29},
      {"net.ipv4.tcp_keepalive_intvl", 29},
      {"net.ipv4.tcp_keepalive_probes", 29},
      {"net.ipv4.tcp_rmem", 32},
      {"net.ipv4.tcp_wmem", 32},
      {"net.ipv4.tcp_slow_start_after_idle", 37},
      {"net.ipv4.tcp_notsent_lowat", 37},
  };
  std::vector<std::string> bad;
  yaml::Node list = pod.spec.at({"securityContext", "sysctls"});
  for (size_t i = 0; list.is_sequence() && i < list.size(); ++i) {
    std::string_view name = list.item(i).get("name").str();
    bool safe = std::any_of(std::begin(kSafe), std::end(kSafe),
                            [&](const Safe& s) { return s.name == name && s.since <= minor; });
    if (!safe) bad.emplace_back(name);
  }
  if (bad.empty()) return std::nullopt;
  return Failure{"forbidden sysctls",
                 fmt::format("remove {} from spec.securityContext.sysctls", fmt::join(bad, ", "))};
}

std::optional<Failure> sysctls_1_0(const PodView& pod) {
  return sysctls(pod, 0);
}
std::optional<Failure> sysctls_1_27(const PodView& pod) {
  return sysctls(pod, 27);
}
std::optional<Failure> sysctls_1_29(const PodView& pod) {
  return sysctls(pod, 29);
}
std::optional<Failure> sysctls_1_32(const PodView& pod) {
  return sysctls(pod, 32);
}
std::optional<Failure> sysctls_1_37(const PodView& pod) {
  return sysctls(pod, 37);
}

// check_windowsHostProcess.go
std::optional<Failure> windows_host_process_1_0(const PodView& pod) {
  bool pod_bad = is_true(pod.spec.at({"securityContext", "windowsOptions", "hostProcess"}));
  Names bad;
  for_each_container(pod.spec, [&](const yaml::Node& c) {
    if (is_true(c.at({"securityContext", "windowsOptions", "hostProcess"}))) {
      bad.push_back(name_of(c));
    }
  });
  if (!pod_bad && bad.empty()) return std::nullopt;
  return Failure{"hostProcess",
                 fmt::format("remove securityContext.windowsOptions.hostProcess: true from {}",
                             setters(pod_bad, bad))};
}

// check_hostProbesAndhostLifecycle.go: no host on probes or lifecycle handlers.
std::optional<Failure> host_probes_and_lifecycle_1_34(const PodView& pod) {
  Names bad;
  std::set<std::string> hosts;
  for_each_container(pod.spec, [&](const yaml::Node& c) {
    bool valid = true;
    auto check = [&](const yaml::Node& handler) {
      for (const char* action : {"httpGet", "tcpSocket"}) {
        std::string_view host = handler.at({action, "host"}).str();
        if (!host.empty()) {
          valid = false;
          hosts.emplace(host);
        }
      }
    };
    for (const char* probe : {"livenessProbe", "readinessProbe", "startupProbe"})
      check(c.get(probe));
    for (const char* hook : {"postStart", "preStop"})
      check(c.at({"lifecycle", hook}));
    if (!valid) bad.push_back(name_of(c));
  });
  if (bad.empty()) return std::nullopt;
  return Failure{"probe or lifecycle host",
                 fmt::format("remove host {} from the probes and lifecycle handlers of {}",
                             quoted(hosts), containers(bad))};
}

// --- restricted -------------------------------------------------------------------------------

// check_restrictedVolumes.go: the allowed sources; image was added to the 1.0 revision in 1.33.
constexpr std::string_view kAllowedVolumeSources[] = {
    "configMap", "csi",   "downwardAPI", "emptyDir", "ephemeral", "image", "persistentVolumeClaim",
    "projected", "secret"};
// Every other core/v1 VolumeSource member.
constexpr std::string_view kOtherVolumeSources[] = {"hostPath",
                                                    "gcePersistentDisk",
                                                    "awsElasticBlockStore",
                                                    "gitRepo",
                                                    "nfs",
                                                    "iscsi",
                                                    "glusterfs",
                                                    "rbd",
                                                    "flexVolume",
                                                    "cinder",
                                                    "cephfs",
                                                    "flocker",
                                                    "fc",
                                                    "azureFile",
                                                    "vsphereVolume",
                                                    "quobyte",
                                                    "azureDisk",
                                                    "photonPersistentDisk",
                                                    "portworxVolume",
                                                    "scaleIO",
                                                    "storageos"};

std::optional<Failure> restricted_volumes_1_0(const PodView& pod) {
  std::vector<std::string> bad;
  std::set<std::string> types;
  yaml::Node volumes = pod.spec.get("volumes");
  for (size_t i = 0; volumes.is_sequence() && i < volumes.size(); ++i) {
    yaml::Node v = volumes.item(i);
    auto has = [&](std::string_view source) { return present(v.get(source)); };
    // A volume with no source is defaulted to emptyDir (SetDefaults_Volume).
    if (std::any_of(std::begin(kAllowedVolumeSources), std::end(kAllowedVolumeSources), has)) {
      continue;
    }
    auto other = std::find_if(std::begin(kOtherVolumeSources), std::end(kOtherVolumeSources), has);
    if (other == std::end(kOtherVolumeSources)) continue;
    bad.push_back(name_of(v));
    types.emplace(*other);
  }
  if (bad.empty()) return std::nullopt;
  return Failure{"restricted volume types",
                 fmt::format("replace the {} volumes {} with configMap, csi, downwardAPI, "
                             "emptyDir, ephemeral, image, persistentVolumeClaim, projected or "
                             "secret volumes",
                             joined(types), quoted(bad))};
}

// check_allowPrivilegeEscalation.go: false must be written on every container.
std::optional<Failure> allow_privilege_escalation_1_8(const PodView& pod) {
  Names bad;
  for_each_container(pod.spec, [&](const yaml::Node& c) {
    if (kubectl_bool(c.at({"securityContext", "allowPrivilegeEscalation"})) != false) {
      bad.push_back(name_of(c));
    }
  });
  if (bad.empty()) return std::nullopt;
  return Failure{
      "allowPrivilegeEscalation != false",
      fmt::format("set securityContext.allowPrivilegeEscalation: false in {}", containers(bad))};
}

// From 1.25 a pod with spec.os.name windows is exempt: the field does not exist there.
std::optional<Failure> allow_privilege_escalation_1_25(const PodView& pod) {
  if (windows_pod(pod)) return std::nullopt;
  return allow_privilege_escalation_1_8(pod);
}

// check_runAsNonRoot.go: true at pod level (containers may inherit it) or on every container,
// and false nowhere.
std::optional<Failure> run_as_non_root_1_0(const PodView& pod) {
  std::optional<bool> pod_value = kubectl_bool(pod.spec.at({"securityContext", "runAsNonRoot"}));
  Names explicit_false, unset;
  for_each_container(pod.spec, [&](const yaml::Node& c) {
    std::optional<bool> value = kubectl_bool(c.at({"securityContext", "runAsNonRoot"}));
    if (value == false) explicit_false.push_back(name_of(c));
    if (!value && pod_value != true) unset.push_back(name_of(c));
  });
  if (pod_value == false || !explicit_false.empty()) {
    return Failure{"runAsNonRoot != true",
                   fmt::format("remove securityContext.runAsNonRoot: false from {}",
                               setters(pod_value == false, explicit_false))};
  }
  if (unset.empty()) return std::nullopt;
  return Failure{
      "runAsNonRoot != true",
      fmt::format("set securityContext.runAsNonRoot: true in the pod or in {}", containers(unset))};
}

// From 1.35 a pod in a user namespace (hostUsers: false) is exempt: root in it is not root on
// the node.
std::optional<Failure> run_as_non_root_1_35(const PodView& pod) {
  if (user_namespace_pod(pod)) return std::nullopt;
  return run_as_non_root_1_0(pod);
}

// check_runAsUser.go
std::optional<Failure> run_as_user_1_23(const PodView& pod) {
  bool pod_bad = kubectl_int(pod.spec.at({"securityContext", "runAsUser"})) == 0;
  Names bad;
  for_each_container(pod.spec, [&](const yaml::Node& c) {
    if (kubectl_int(c.at({"securityContext", "runAsUser"})) == 0) bad.push_back(name_of(c));
  });
  if (!pod_bad && bad.empty()) return std::nullopt;
  return Failure{"runAsUser=0",
                 fmt::format("remove securityContext.runAsUser: 0 from {}", setters(pod_bad, bad))};
}

std::optional<Failure> run_as_user_1_35(const PodView& pod) {
  if (user_namespace_pod(pod)) return std::nullopt;
  return run_as_user_1_23(pod);
}

// check_seccompProfile_restricted.go: RuntimeDefault or Localhost, at pod level (containers may
// inherit it) or on every container.
std::optional<Failure> seccomp_restricted_1_19(const PodView& pod) {
  std::set<std::string> values;
  yaml::Node pod_profile = pod.spec.at({"securityContext", "seccompProfile"});
  bool pod_set = present(pod_profile);
  bool pod_bad = pod_set && !valid_seccomp_type(pod_profile.get("type").str());
  if (pod_bad) values.emplace(pod_profile.get("type").str());
  Names explicit_bad, unset;
  for_each_container(pod.spec, [&](const yaml::Node& c) {
    yaml::Node profile = c.at({"securityContext", "seccompProfile"});
    if (present(profile)) {
      if (!valid_seccomp_type(profile.get("type").str())) {
        explicit_bad.push_back(name_of(c));
        values.emplace(profile.get("type").str());
      }
    } else if (!pod_set || pod_bad) {
      unset.push_back(name_of(c));
    }
  });
  if (pod_bad || !explicit_bad.empty()) {
    return Failure{"seccompProfile",
                   fmt::format("set securityContext.seccompProfile.type to RuntimeDefault or "
                               "Localhost instead of {} in {}",
                               joined(values), setters(pod_bad, explicit_bad))};
  }
  if (unset.empty()) return std::nullopt;
  return Failure{"seccompProfile",
                 fmt::format("set securityContext.seccompProfile.type: RuntimeDefault (or "
                             "Localhost) in the pod or in {}",
                             containers(unset))};
}

std::optional<Failure> seccomp_restricted_1_25(const PodView& pod) {
  if (windows_pod(pod)) return std::nullopt;
  return seccomp_restricted_1_19(pod);
}

// check_capabilities_restricted.go: drop ALL, add nothing but NET_BIND_SERVICE.
std::optional<Failure> capabilities_restricted_1_22(const PodView& pod) {
  Names missing_drop, adding;
  std::set<std::string> added;
  for_each_container(pod.spec, [&](const yaml::Node& c) {
    yaml::Node caps = c.at({"securityContext", "capabilities"});
    yaml::Node drop = caps.get("drop");
    bool dropped_all = false;
    for (size_t i = 0; drop.is_sequence() && i < drop.size(); ++i)
      dropped_all = dropped_all || drop.item(i).str() == "ALL";
    if (!dropped_all) missing_drop.push_back(name_of(c));
    yaml::Node add = caps.get("add");
    bool forbidden = false;
    for (size_t i = 0; add.is_sequence() && i < add.size(); ++i) {
      if (add.item(i).str() != "NET_BIND_SERVICE") {
        forbidden = true;
        added.emplace(add.item(i).str());
      }
    }
    if (forbidden) adding.push_back(name_of(c));
  });
  std::vector<std::string> fixes;
  if (!missing_drop.empty()) {
    fixes.push_back(fmt::format("set securityContext.capabilities.drop: [ALL] in {}",
                                containers(missing_drop)));
  }
  if (!adding.empty()) {
    fixes.push_back(
        fmt::format("remove {} from securityContext.capabilities.add of {} (only "
                    "NET_BIND_SERVICE may be added)",
                    joined(added), containers(adding)));
  }
  if (fixes.empty()) return std::nullopt;
  return Failure{"unrestricted capabilities", fmt::format("{}", fmt::join(fixes, "; "))};
}

std::optional<Failure> capabilities_restricted_1_25(const PodView& pod) {
  if (windows_pod(pod)) return std::nullopt;
  return capabilities_restricted_1_22(pod);
}

}  // namespace

const std::vector<Check>& checks() {
  using L = PodSecurityLevel;
  static const std::vector<Check> kChecks = {
      {"appArmorProfile",
       "AppArmor profile unset, runtime/default or localhost",
       L::kBaseline,
       {{0, apparmor_profile_1_0, {}}}},
      {"capabilities_baseline",
       "no capabilities added beyond the default set",
       L::kBaseline,
       {{0, capabilities_baseline_1_0, {}}}},
      {"hostNamespaces",
       "no host network, PID or IPC namespace",
       L::kBaseline,
       {{0, host_namespaces_1_0, {}}}},
      {"hostPathVolumes", "no hostPath volumes", L::kBaseline, {{0, host_path_volumes_1_0, {}}}},
      {"hostPorts", "no host ports", L::kBaseline, {{0, host_ports_1_0, {}}}},
      {"hostProbesAndHostLifecycle",
       "no host field in probes or lifecycle hooks",
       L::kBaseline,
       {{34, host_probes_and_lifecycle_1_34, {}}}},
      {"privileged", "no privileged containers", L::kBaseline, {{0, privileged_1_0, {}}}},
      {"procMount",
       "the default /proc mount",
       L::kBaseline,
       {{0, proc_mount_1_0, {}}, {35, proc_mount_1_35, {}}}},
      {"seLinuxOptions",
       "no custom SELinux user, role or type",
       L::kBaseline,
       {{0, selinux_options_1_0, {}}, {31, selinux_options_1_31, {}}}},
      {"seccompProfile_baseline",
       "no Unconfined seccomp profile",
       L::kBaseline,
       {{0, seccomp_baseline_1_0, {}}, {19, seccomp_baseline_1_19, {}}}},
      {"sysctls",
       "only the safe sysctls",
       L::kBaseline,
       {{0, sysctls_1_0, {}},
        {27, sysctls_1_27, {}},
        {29, sysctls_1_29, {}},
        {32, sysctls_1_32, {}},
        {37, sysctls_1_37, {}}}},
      {"windowsHostProcess",
       "no Windows HostProcess containers",
       L::kBaseline,
       {{0, windows_host_process_1_0, {}}}},
      {"allowPrivilegeEscalation",
       "allowPrivilegeEscalation: false",
       L::kRestricted,
       {{8, allow_privilege_escalation_1_8, {}}, {25, allow_privilege_escalation_1_25, {}}}},
      {"capabilities_restricted",
       "capabilities: drop ALL",
       L::kRestricted,
       {{22, capabilities_restricted_1_22, {"capabilities_baseline"}},
        {25, capabilities_restricted_1_25, {"capabilities_baseline"}}}},
      {"procMount_restricted",
       "the default /proc mount",
       L::kRestricted,
       {{35, proc_mount_1_0, {"procMount"}}}},
      {"restrictedVolumes",
       "only the restricted volume types",
       L::kRestricted,
       {{0, restricted_volumes_1_0, {"hostPathVolumes"}}}},
      {"runAsNonRoot",
       "runAsNonRoot: true",
       L::kRestricted,
       {{0, run_as_non_root_1_0, {}}, {35, run_as_non_root_1_35, {}}}},
      {"runAsUser",
       "a runAsUser other than 0",
       L::kRestricted,
       {{23, run_as_user_1_23, {}}, {35, run_as_user_1_35, {}}}},
      {"seccompProfile_restricted",
       "seccomp profile RuntimeDefault or Localhost",
       L::kRestricted,
       {{19, seccomp_restricted_1_19, {"seccompProfile_baseline"}},
        {25, seccomp_restricted_1_25, {"seccompProfile_baseline"}}}},
  };
  return kChecks;
}

}  // namespace footprint::pod_security

namespace footprint {

bool baseline_capability(std::string_view capability) {
  using pod_security::kBaselineCapabilities;
  return std::find(std::begin(kBaselineCapabilities), std::end(kBaselineCapabilities),
                   capability) != std::end(kBaselineCapabilities);
}

}  // namespace footprint
