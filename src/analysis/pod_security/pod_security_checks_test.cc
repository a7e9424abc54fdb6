// Pod Security Admission over workloads. The PodSecurity admission plugin enforces the
// namespace's pod-security.kubernetes.io/enforce level on Pods only; for workload objects it
// only warns and audits (pod-security-admission/admission/admission.go), so a Deployment is
// created and its ReplicaSet's pods are rejected. Labels are read as api/helpers.go
// PolicyToEvaluate reads them.
#include "analysis/pod_security/pod_security_checks.h"

#include <gtest/gtest.h>

#include "analysis/check_testing.h"
#include "analysis/context.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

std::string namespace_with(const std::string& labels) {
  return "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: apps\n  labels: {" + labels +
         "}\n---\n";
}

// Runs as root with no securityContext: baseline, not restricted.
constexpr const char* kPlainDeployment = R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: apps}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: x}]
)";

TEST(PodSecurityEnforce, RestrictedNamespaceRejectsBaselinePods) {
  Bundle b = bundle_from(namespace_with("pod-security.kubernetes.io/enforce: restricted") +
                         kPlainDeployment);
  auto findings = run_check(b, "pod-security-enforce-violation");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  const std::string& m = findings[0].message;
  EXPECT_NE(m.find("Namespace apps enforces Pod Security restricted:latest (bundle labels)"),
            std::string::npos);
  // The four restricted checks the plain pod fails, in the package's order, each in the words
  // of the Pod Security Standards page's Restricted table (Privilege Escalation, Capabilities,
  // Running as Non-root, Seccomp), never the package's check IDs such as
  // seccompProfile_restricted.
  EXPECT_NE(m.find("fail 4 of its checks"), std::string::npos);
  EXPECT_NE(m.find("allowPrivilegeEscalation: false (allowPrivilegeEscalation != false)"),
            std::string::npos);
  EXPECT_NE(m.find("capabilities: drop ALL (unrestricted capabilities)"), std::string::npos);
  EXPECT_NE(m.find("runAsNonRoot: true"), std::string::npos);
  EXPECT_NE(m.find("seccomp profile RuntimeDefault or Localhost"), std::string::npos);
  EXPECT_EQ(m.find("_restricted"), std::string::npos);
  EXPECT_NE(m.find("none of its pods ever runs"), std::string::npos);
  EXPECT_NE(findings[0].remediation.find("pod-security.kubernetes.io/enforce=baseline"),
            std::string::npos);
}

TEST(PodSecurityEnforce, PrivilegedAndBaselineNamespacesAdmit) {
  for (const char* level : {"privileged", "baseline"}) {
    Bundle b =
        bundle_from(namespace_with(std::string("pod-security.kubernetes.io/enforce: ") + level) +
                    kPlainDeployment);
    EXPECT_TRUE(run_check(b, "pod-security-enforce-violation").empty()) << level;
  }
}

TEST(PodSecurityEnforce, InvalidLevelEnforcesRestricted) {
  Bundle b = bundle_from(namespace_with("pod-security.kubernetes.io/enforce: Privileged") +
                         kPlainDeployment);
  auto findings = run_check(b, "pod-security-enforce-violation");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("restricted:latest (pod-security.kubernetes.io/enforce="
                                     "Privileged is not privileged, baseline or restricted"),
            std::string::npos);
}

TEST(PodSecurityEnforce, EnforceVersionPicksTheChecks) {
  // A probe host is forbidden from policy v1.34 (check_hostProbesAndhostLifecycle.go).
  std::string pod = R"(
apiVersion: v1
kind: Pod
metadata: {name: probe, namespace: apps}
spec:
  containers:
  - name: a
    image: x
    readinessProbe: {httpGet: {host: 169.254.169.254, port: 80}}
)";
  Bundle pinned = bundle_from(namespace_with("pod-security.kubernetes.io/enforce: baseline, "
                                             "pod-security.kubernetes.io/enforce-version: v1.33") +
                              pod);
  EXPECT_TRUE(run_check(pinned, "pod-security-enforce-violation").empty());
  Bundle latest = bundle_from(namespace_with("pod-security.kubernetes.io/enforce: baseline") + pod);
  auto findings = run_check(latest, "pod-security-enforce-violation");
  ASSERT_EQ(findings.size(), 1u);
  // A Pod itself is rejected when the install creates it.
  EXPECT_NE(findings[0].message.find("rejects the Pod and the install fails"), std::string::npos);
  EXPECT_NE(findings[0].message.find("no host field in probes or lifecycle hooks"),
            std::string::npos);
}

TEST(PodSecurityEnforce, ClusterNamespacesComeFromNamespacesOption) {
  Bundle b = bundle_from(kPlainDeployment);
  ClusterNamespace apps{"apps",
                        {{"kubernetes.io/metadata.name", "apps"},
                         {"pod-security.kubernetes.io/enforce", "restricted"}}};
  Findings out(b);
  const Check* check = find_check("pod-security-enforce-violation");
  ASSERT_NE(check, nullptr);
  out.set_check(check->id, check->impact);
  check->run(Context(b, {apps}), out);
  ASSERT_EQ(out.list().size(), 1u);
  EXPECT_NE(out.list()[0].message.find("(cluster labels)"), std::string::npos);

  // Without --namespaces, a namespace the bundle does not create has unknown labels.
  auto workloads = workload_pod_security(Context(b));
  ASSERT_EQ(workloads.size(), 1u);
  EXPECT_EQ(workloads[0].labels_from, "unknown");
  EXPECT_EQ(workloads[0].level, PodSecurityLevel::kBaseline);
}

TEST(PodSecurityUnlabelled, PrivilegedPodsWithoutLabel) {
  std::string privileged = R"(
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: apps}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec:
      hostNetwork: true
      containers: [{name: a, image: x, securityContext: {privileged: true}}]
)";
  Bundle b = bundle_from(namespace_with("team: infra") + privileged + "---\n" + kPlainDeployment);
  auto findings = run_check(b, "pod-security-unlabelled-namespace");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  // Only the DaemonSet needs privileged; the plain Deployment passes baseline.
  EXPECT_NE(findings[0].message.find("DaemonSet agent (baseline needs no host network, PID "
                                     "or IPC namespace; no privileged containers)"),
            std::string::npos)
      << findings[0].message;
  EXPECT_EQ(findings[0].message.find("Deployment web"), std::string::npos);
  Bundle labelled =
      bundle_from(namespace_with("pod-security.kubernetes.io/enforce: privileged") + privileged);
  EXPECT_TRUE(run_check(labelled, "pod-security-unlabelled-namespace").empty());
  // In kube-system the fix never suggests shipping the Namespace: the release would own the
  // cluster's own namespace, and uninstalling it would delete kube-system.
  std::string system = privileged;
  system.replace(system.find("namespace: apps"), 15, "namespace: kube-system");
  auto kube = run_check(bundle_from(system), "pod-security-unlabelled-namespace");
  ASSERT_EQ(kube.size(), 1u);
  EXPECT_EQ(kube[0].remediation.find("can create it"), std::string::npos);
  EXPECT_NE(kube[0].remediation.find("exempts namespace kube-system"), std::string::npos);
}

}  // namespace
}  // namespace footprint
