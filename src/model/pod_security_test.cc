// One passing and one failing pod per check of Kubernetes' pod-security-admission package,
// with the expected result argued from the check's source file
// (staging/src/k8s.io/pod-security-admission/policy/check_<id>.go) and the Pod Security
// Standards page (kubernetes.io/docs/concepts/security/pod-security-standards).
#include "model/pod_security.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

namespace footprint {
namespace {

// Parsed pods stay alive for the test's duration.
struct ParsedPod {
  std::vector<yaml::Document> docs;
  PodView view() const {
    const yaml::Node& root = docs.front().root;
    return {root.get("metadata"), root.get("spec")};
  }
};

ParsedPod parsed_pod(std::string_view text) {
  auto docs = yaml::parse(text);
  EXPECT_TRUE(docs.has_value()) << (docs ? "" : docs.error().message);
  return ParsedPod{docs ? std::move(*docs) : std::vector<yaml::Document>{}};
}

// The checks of `level` at `version` that `pod` fails, by ID.
std::vector<std::string> failed(std::string_view pod, PodSecurityLevel level,
                                PolicyVersion version = {}) {
  ParsedPod p = parsed_pod(pod);
  std::vector<std::string> ids;
  for (const PodSecurityViolation& v : pod_security_violations(p.view(), level, version))
    ids.emplace_back(v.check);
  return ids;
}

std::string detail_of(std::string_view pod, PodSecurityLevel level, std::string_view check,
                      PolicyVersion version = {}) {
  ParsedPod p = parsed_pod(pod);
  for (const PodSecurityViolation& v : pod_security_violations(p.view(), level, version)) {
    if (v.check == check) return v.detail;
  }
  return "";
}

bool fails(std::string_view pod, PodSecurityLevel level, std::string_view check,
           PolicyVersion version = {}) {
  std::vector<std::string> ids = failed(pod, level, version);
  return std::find(ids.begin(), ids.end(), check) != ids.end();
}

constexpr auto kBaseline = PodSecurityLevel::kBaseline;
constexpr auto kRestricted = PodSecurityLevel::kRestricted;

// The smallest pod that passes restricted (the package's test/fixtures.go builds its fixtures
// from the same settings): runAsNonRoot, RuntimeDefault seccomp, no privilege escalation, all
// capabilities dropped.
constexpr const char* kRestrictedPod = R"(
metadata: {name: p}
spec:
  securityContext: {runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}
  initContainers:
  - name: init
    securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}
  containers:
  - name: app
    securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}
)";

// A pod with nothing set passes baseline: "Allows the default (minimally specified) Pod
// configuration" (Pod Security Standards, Baseline).
constexpr const char* kDefaultPod = R"(
metadata: {name: p}
spec:
  containers: [{name: app, image: x}]
)";

TEST(PodSecurity, MinimalPodsPass) {
  EXPECT_TRUE(failed(kRestrictedPod, kRestricted).empty());
  EXPECT_TRUE(failed(kDefaultPod, kBaseline).empty());
  ParsedPod p = parsed_pod(kDefaultPod);
  EXPECT_EQ(pod_security_level(p.view()), PodSecurityLevel::kBaseline);
  ParsedPod r = parsed_pod(kRestrictedPod);
  EXPECT_EQ(pod_security_level(r.view()), PodSecurityLevel::kRestricted);
}

TEST(PodSecurity, PrivilegedLevelHasNoChecks) {
  // registry.go EvaluatePod: "if lv.Level == api.LevelPrivileged { return nil }".
  EXPECT_TRUE(failed(R"(
spec: {hostNetwork: true, containers: [{name: a, securityContext: {privileged: true}}]}
)",
                     PodSecurityLevel::kPrivileged)
                  .empty());
}

// check_hostNamespaces.go: hostNetwork, hostPID, hostIPC must be unset or false.
TEST(PodSecurity, HostNamespaces) {
  const char* fail = "spec: {hostPID: true, hostIPC: yes, containers: [{name: a}]}";
  EXPECT_TRUE(fails(fail, kBaseline, "hostNamespaces"));
  // `yes` is true to kubectl's YAML 1.1 decoder (go-yaml v2).
  EXPECT_EQ(detail_of(fail, kBaseline, "hostNamespaces"),
            "set spec.hostPID, spec.hostIPC to false");
  EXPECT_FALSE(fails("spec: {hostNetwork: false, hostPID: 'true', containers: [{name: a}]}",
                     kBaseline, "hostNamespaces"));
}

// check_privileged.go: securityContext.privileged on any container, init container included.
TEST(PodSecurity, Privileged) {
  EXPECT_TRUE(fails("spec: {initContainers: [{name: i, securityContext: {privileged: true}}]}",
                    kBaseline, "privileged"));
  EXPECT_FALSE(fails("spec: {containers: [{name: a, securityContext: {privileged: false}}]}",
                     kBaseline, "privileged"));
}

// check_capabilities_baseline.go: only the 13 default capabilities may be added; NET_RAW and
// names with a CAP_ prefix are not among them.
TEST(PodSecurity, CapabilitiesBaseline) {
  const char* fail = R"(
spec:
  containers:
  - {name: a, securityContext: {capabilities: {add: [NET_ADMIN, CHOWN]}}}
  - {name: b, securityContext: {capabilities: {add: [CAP_CHOWN]}}}
)";
  EXPECT_EQ(detail_of(fail, kBaseline, "capabilities_baseline"),
            "remove CAP_CHOWN, NET_ADMIN from securityContext.capabilities.add of containers "
            "\"a\", \"b\"");
  EXPECT_FALSE(
      fails("spec: {containers: [{name: a, securityContext: {capabilities: {add: [AUDIT_WRITE, "
            "NET_BIND_SERVICE, SYS_CHROOT, SETFCAP]}}}]}",
            kBaseline, "capabilities_baseline"));
}

// check_hostPathVolumes.go
TEST(PodSecurity, HostPathVolumes) {
  EXPECT_TRUE(fails("spec: {volumes: [{name: h, hostPath: {path: /var/log}}]}", kBaseline,
                    "hostPathVolumes"));
  EXPECT_FALSE(fails("spec: {volumes: [{name: e, emptyDir: {}}, {name: n, hostPath: null}]}",
                     kBaseline, "hostPathVolumes"));
}

// check_hostPorts.go: hostPort must be 0 or unset. With hostNetwork the API server defaults
// hostPort to containerPort (pkg/apis/core/v1/defaults.go defaultHostNetworkPorts).
TEST(PodSecurity, HostPorts) {
  EXPECT_TRUE(fails("spec: {containers: [{name: a, ports: [{containerPort: 80, hostPort: 8080}]}]}",
                    kBaseline, "hostPorts"));
  EXPECT_FALSE(fails("spec: {containers: [{name: a, ports: [{containerPort: 80, hostPort: 0}]}]}",
                     kBaseline, "hostPorts"));
  const char* host_network =
      "spec: {hostNetwork: true, containers: [{name: a, ports: [{containerPort: 9099}]}]}";
  EXPECT_NE(detail_of(host_network, kBaseline, "hostPorts").find("hostPort 9099"),
            std::string::npos);
}

// check_appArmorProfile.go: the field must be RuntimeDefault or Localhost; the deprecated
// annotation may be empty, runtime/default or localhost/<profile>.
TEST(PodSecurity, AppArmorProfile) {
  EXPECT_TRUE(
      fails("spec: {containers: [{name: a, securityContext: {appArmorProfile: {type: "
            "Unconfined}}}]}",
            kBaseline, "appArmorProfile"));
  EXPECT_TRUE(fails(R"(
metadata: {annotations: {container.apparmor.security.beta.kubernetes.io/a: unconfined}}
spec: {containers: [{name: a}]}
)",
                    kBaseline, "appArmorProfile"));
  EXPECT_FALSE(fails(R"(
metadata:
  annotations:
    container.apparmor.security.beta.kubernetes.io/a: localhost/custom
    container.apparmor.security.beta.kubernetes.io/b: runtime/default
spec:
  securityContext: {appArmorProfile: {type: RuntimeDefault}}
  containers: [{name: a, securityContext: {appArmorProfile: {type: Localhost}}}]
)",
                     kBaseline, "appArmorProfile"));
}

// check_seLinuxOptions.go: type "", container_t, container_init_t, container_kvm_t, and from
// policy v1.31 container_engine_t; user and role must be empty.
TEST(PodSecurity, SELinuxOptions) {
  const char* engine =
      "spec: {securityContext: {seLinuxOptions: {type: container_engine_t}}, containers: "
      "[{name: a}]}";
  EXPECT_TRUE(fails(engine, kBaseline, "seLinuxOptions", PolicyVersion::v1(30)));
  EXPECT_FALSE(fails(engine, kBaseline, "seLinuxOptions", PolicyVersion::v1(31)));
  EXPECT_TRUE(
      fails("spec: {containers: [{name: a, securityContext: {seLinuxOptions: {user: "
            "system_u}}}]}",
            kBaseline, "seLinuxOptions"));
  EXPECT_FALSE(
      fails("spec: {containers: [{name: a, securityContext: {seLinuxOptions: {type: "
            "container_t, level: 's0:c1,c2'}}}]}",
            kBaseline, "seLinuxOptions"));
}

// check_procMount.go: only Default; from v1.35 baseline skips pods with hostUsers: false, and
// the restricted check procMount_restricted (which overrides it) still forbids them.
TEST(PodSecurity, ProcMount) {
  const char* unmasked = "spec: {containers: [{name: a, securityContext: {procMount: Unmasked}}]}";
  EXPECT_TRUE(fails(unmasked, kBaseline, "procMount"));
  EXPECT_FALSE(fails("spec: {containers: [{name: a, securityContext: {procMount: Default}}]}",
                     kBaseline, "procMount"));
  const char* user_ns =
      "spec: {hostUsers: false, containers: [{name: a, securityContext: {procMount: Unmasked}}]}";
  EXPECT_TRUE(fails(user_ns, kBaseline, "procMount", PolicyVersion::v1(34)));
  EXPECT_FALSE(fails(user_ns, kBaseline, "procMount", PolicyVersion::v1(35)));
  EXPECT_TRUE(fails(user_ns, kRestricted, "procMount_restricted", PolicyVersion::v1(35)));
  EXPECT_FALSE(fails(user_ns, kRestricted, "procMount", PolicyVersion::v1(35)));
}

// check_seccompProfile_baseline.go: the alpha annotations before v1.19, the field after; a set
// profile must not be Unconfined.
TEST(PodSecurity, SeccompProfileBaseline) {
  const char* field =
      "spec: {containers: [{name: a, securityContext: {seccompProfile: {type: Unconfined}}}]}";
  EXPECT_TRUE(fails(field, kBaseline, "seccompProfile_baseline"));
  EXPECT_FALSE(fails(field, kBaseline, "seccompProfile_baseline", PolicyVersion::v1(18)));
  const char* annotation = R"(
metadata: {annotations: {container.seccomp.security.alpha.kubernetes.io/a: unconfined}}
spec: {containers: [{name: a}]}
)";
  EXPECT_TRUE(fails(annotation, kBaseline, "seccompProfile_baseline", PolicyVersion::v1(18)));
  EXPECT_FALSE(fails(annotation, kBaseline, "seccompProfile_baseline", PolicyVersion::v1(19)));
  EXPECT_FALSE(fails("spec: {securityContext: {seccompProfile: {type: Localhost}}}", kBaseline,
                     "seccompProfile_baseline"));
}

// check_sysctls.go: the safe set grew at v1.27, v1.29, v1.32 and v1.37.
TEST(PodSecurity, Sysctls) {
  auto pod = [](const char* name) {
    return fmt::format("spec: {{securityContext: {{sysctls: [{{name: {}, value: '1'}}]}}}}", name);
  };
  EXPECT_TRUE(fails(pod("kernel.msgmax"), kBaseline, "sysctls"));
  EXPECT_FALSE(fails(pod("net.ipv4.ip_unprivileged_port_start"), kBaseline, "sysctls",
                     PolicyVersion::v1(0)));
  EXPECT_TRUE(
      fails(pod("net.ipv4.ip_local_reserved_ports"), kBaseline, "sysctls", PolicyVersion::v1(26)));
  EXPECT_FALSE(
      fails(pod("net.ipv4.ip_local_reserved_ports"), kBaseline, "sysctls", PolicyVersion::v1(27)));
  EXPECT_TRUE(
      fails(pod("net.ipv4.tcp_keepalive_time"), kBaseline, "sysctls", PolicyVersion::v1(28)));
  EXPECT_FALSE(
      fails(pod("net.ipv4.tcp_keepalive_probes"), kBaseline, "sysctls", PolicyVersion::v1(29)));
  EXPECT_TRUE(fails(pod("net.ipv4.tcp_rmem"), kBaseline, "sysctls", PolicyVersion::v1(31)));
  EXPECT_FALSE(fails(pod("net.ipv4.tcp_wmem"), kBaseline, "sysctls", PolicyVersion::v1(32)));
  // test/testdata/baseline/v1.37/pass/sysctls1.yaml
  EXPECT_TRUE(
      fails(pod("net.ipv4.tcp_notsent_lowat"), kBaseline, "sysctls", PolicyVersion::v1(36)));
  EXPECT_FALSE(fails(pod("net.ipv4.tcp_slow_start_after_idle"), kBaseline, "sysctls"));
}

// check_windowsHostProcess.go
TEST(PodSecurity, WindowsHostProcess) {
  EXPECT_TRUE(fails("spec: {securityContext: {windowsOptions: {hostProcess: true}}}", kBaseline,
                    "windowsHostProcess"));
  EXPECT_FALSE(
      fails("spec: {containers: [{name: a, securityContext: {windowsOptions: "
            "{hostProcess: false}}}]}",
            kBaseline, "windowsHostProcess"));
}

// check_hostProbesAndhostLifecycle.go: from v1.34, no host on probes or lifecycle handlers.
TEST(PodSecurity, HostProbesAndHostLifecycle) {
  const char* probe = R"(
spec:
  containers:
  - name: a
    livenessProbe: {httpGet: {host: 10.0.0.1, port: 80}}
    lifecycle: {preStop: {tcpSocket: {host: metadata.internal, port: 80}}}
)";
  EXPECT_TRUE(fails(probe, kBaseline, "hostProbesAndHostLifecycle"));
  EXPECT_EQ(detail_of(probe, kBaseline, "hostProbesAndHostLifecycle"),
            "remove host \"10.0.0.1\", \"metadata.internal\" from the probes and lifecycle "
            "handlers of container \"a\"");
  EXPECT_FALSE(fails(probe, kBaseline, "hostProbesAndHostLifecycle", PolicyVersion::v1(33)));
  EXPECT_FALSE(fails("spec: {containers: [{name: a, readinessProbe: {httpGet: {port: 80}}}]}",
                     kBaseline, "hostProbesAndHostLifecycle"));
}

// check_restrictedVolumes.go: configMap, csi, downwardAPI, emptyDir, ephemeral, image,
// persistentVolumeClaim, projected and secret only. It overrides hostPathVolumes in restricted.
TEST(PodSecurity, RestrictedVolumes) {
  std::string host_path =
      std::string(kRestrictedPod) + "  volumes: [{name: h, hostPath: {path: /}}]\n";
  EXPECT_TRUE(fails(host_path, kRestricted, "restrictedVolumes"));
  EXPECT_FALSE(fails(host_path, kRestricted, "hostPathVolumes"));
  EXPECT_TRUE(fails(host_path, kBaseline, "hostPathVolumes"));
  EXPECT_TRUE(fails(std::string(kRestrictedPod) + "  volumes: [{name: n, nfs: {server: s}}]\n",
                    kRestricted, "restrictedVolumes"));
  // A volume without a source is defaulted to emptyDir (pkg/apis/core/v1/defaults.go
  // SetDefaults_Volume).
  EXPECT_FALSE(fails(std::string(kRestrictedPod) +
                         "  volumes: [{name: i, image: {reference: x}}, {name: bare}, "
                         "{name: c, configMap: {name: c}}]\n",
                     kRestricted, "restrictedVolumes"));
}

// check_allowPrivilegeEscalation.go: false on every container; from v1.25 pods with
// spec.os.name windows are exempt.
TEST(PodSecurity, AllowPrivilegeEscalation) {
  const char* unset = R"(
spec:
  os: {name: windows}
  containers: [{name: a}, {name: b, securityContext: {allowPrivilegeEscalation: true}}]
)";
  EXPECT_EQ(detail_of(unset, kRestricted, "allowPrivilegeEscalation", PolicyVersion::v1(24)),
            "set securityContext.allowPrivilegeEscalation: false in containers \"a\", \"b\"");
  EXPECT_FALSE(fails(unset, kRestricted, "allowPrivilegeEscalation", PolicyVersion::v1(25)));
  // Before v1.8 the field did not exist.
  EXPECT_FALSE(fails(unset, kRestricted, "allowPrivilegeEscalation", PolicyVersion::v1(7)));
  EXPECT_FALSE(fails(kRestrictedPod, kRestricted, "allowPrivilegeEscalation"));
}

// check_runAsNonRoot.go: true at pod level or on every container, false nowhere; from v1.35
// pods with hostUsers: false are exempt.
TEST(PodSecurity, RunAsNonRoot) {
  const char* container_false = R"(
spec:
  securityContext: {runAsNonRoot: true}
  containers: [{name: a, securityContext: {runAsNonRoot: false}}, {name: b}]
)";
  EXPECT_EQ(detail_of(container_false, kRestricted, "runAsNonRoot"),
            "remove securityContext.runAsNonRoot: false from container \"a\"");
  const char* partly = R"(
spec:
  containers: [{name: a, securityContext: {runAsNonRoot: true}}, {name: b}]
)";
  EXPECT_EQ(detail_of(partly, kRestricted, "runAsNonRoot"),
            "set securityContext.runAsNonRoot: true in the pod or in container \"b\"");
  EXPECT_FALSE(fails(kRestrictedPod, kRestricted, "runAsNonRoot"));
  std::string user_ns = std::string(partly) + "  hostUsers: false\n";
  EXPECT_TRUE(fails(user_ns, kRestricted, "runAsNonRoot", PolicyVersion::v1(34)));
  EXPECT_FALSE(fails(user_ns, kRestricted, "runAsNonRoot", PolicyVersion::v1(35)));
}

// check_runAsUser.go: from v1.23, runAsUser must not be 0 anywhere.
TEST(PodSecurity, RunAsUser) {
  const char* root = "spec: {securityContext: {runAsUser: 0}, containers: [{name: a}]}";
  EXPECT_TRUE(fails(root, kRestricted, "runAsUser"));
  EXPECT_FALSE(fails(root, kRestricted, "runAsUser", PolicyVersion::v1(22)));
  EXPECT_FALSE(fails("spec: {containers: [{name: a, securityContext: {runAsUser: 1000}}]}",
                     kRestricted, "runAsUser"));
}

// check_seccompProfile_restricted.go: RuntimeDefault or Localhost at pod level or on every
// container; it overrides seccompProfile_baseline in restricted.
TEST(PodSecurity, SeccompProfileRestricted) {
  const char* missing = R"(
spec:
  containers: [{name: a, securityContext: {seccompProfile: {type: Localhost}}}, {name: b}]
)";
  EXPECT_EQ(detail_of(missing, kRestricted, "seccompProfile_restricted"),
            "set securityContext.seccompProfile.type: RuntimeDefault (or Localhost) in the pod "
            "or in container \"b\"");
  const char* unconfined =
      "spec: {securityContext: {seccompProfile: {type: Unconfined}}, containers: [{name: a}]}";
  EXPECT_TRUE(fails(unconfined, kRestricted, "seccompProfile_restricted"));
  EXPECT_FALSE(fails(unconfined, kRestricted, "seccompProfile_baseline"));
  EXPECT_FALSE(fails(kRestrictedPod, kRestricted, "seccompProfile_restricted"));
}

// check_capabilities_restricted.go: from v1.22 drop ALL and add nothing but NET_BIND_SERVICE;
// it overrides capabilities_baseline, which therefore still applies to restricted at v1.21.
TEST(PodSecurity, CapabilitiesRestricted) {
  const char* pod = R"(
spec:
  containers:
  - {name: a, securityContext: {capabilities: {drop: [ALL], add: [NET_BIND_SERVICE]}}}
  - {name: b, securityContext: {capabilities: {drop: [NET_RAW], add: [NET_ADMIN]}}}
)";
  EXPECT_EQ(detail_of(pod, kRestricted, "capabilities_restricted"),
            "set securityContext.capabilities.drop: [ALL] in container \"b\"; remove NET_ADMIN "
            "from securityContext.capabilities.add of container \"b\" (only NET_BIND_SERVICE "
            "may be added)");
  EXPECT_FALSE(fails(pod, kRestricted, "capabilities_baseline"));
  EXPECT_TRUE(fails(pod, kRestricted, "capabilities_baseline", PolicyVersion::v1(21)));
  EXPECT_FALSE(fails(pod, kRestricted, "capabilities_restricted", PolicyVersion::v1(21)));
  EXPECT_FALSE(fails(kRestrictedPod, kRestricted, "capabilities_restricted"));
}

TEST(PodSecurity, EveryCheckIsCovered) {
  // The 19 checks of the package at policy v1.37: 12 baseline and 7 restricted.
  std::vector<PodSecurityCheckInfo> checks = pod_security_checks();
  EXPECT_EQ(checks.size(), 19u);
  EXPECT_EQ(std::count_if(checks.begin(), checks.end(),
                          [](const PodSecurityCheckInfo& c) {
                            return c.level == PodSecurityLevel::kBaseline;
                          }),
            12);
}

TEST(PodSecurity, LatestAndFutureVersionsEvaluateAsTheNewest) {
  EXPECT_EQ(PolicyVersion{}.effective_minor(), kNewestPolicyMinor);
  EXPECT_EQ(PolicyVersion::v1(99).effective_minor(), kNewestPolicyMinor);
  EXPECT_EQ(PolicyVersion::v1(24).to_string(), "v1.24");
}

// api/helpers.go PolicyToEvaluate: an invalid level enforces restricted, an invalid version
// evaluates latest.
TEST(EnforcePolicy, ReadsLabels) {
  EnforcePolicy none = enforce_policy({});
  EXPECT_FALSE(none.labelled);
  EXPECT_EQ(none.level, PodSecurityLevel::kPrivileged);

  EnforcePolicy gatekeeper =
      enforce_policy({{"pod-security.kubernetes.io/enforce", "restricted"},
                      {"pod-security.kubernetes.io/enforce-version", "v1.24"}});
  EXPECT_EQ(gatekeeper.to_string(), "restricted:v1.24");
  EXPECT_TRUE(gatekeeper.errors.empty());

  EnforcePolicy typo = enforce_policy({{"pod-security.kubernetes.io/enforce", "Privileged"},
                                       {"pod-security.kubernetes.io/enforce-version", "1.24"}});
  EXPECT_EQ(typo.to_string(), "restricted:latest");
  EXPECT_EQ(typo.errors.size(), 2u);
  for (const char* bad : {"v1.024", "v1.-1", "v1.", "v2.0"}) {
    EXPECT_FALSE(
        enforce_policy({{"pod-security.kubernetes.io/enforce-version", bad}}).errors.empty())
        << bad;
  }
  EXPECT_EQ(
      enforce_policy({{"pod-security.kubernetes.io/enforce-version", "v1.0"}}).version.to_string(),
      "v1.0");
}

}  // namespace
}  // namespace footprint
