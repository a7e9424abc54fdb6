// objects-outside-release-namespace: one finding for what lands in namespaces the install does
// not own.
#include <gtest/gtest.h>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::affects;
using testing::bundle_from;
using testing::run_check;
using testing::says;

// cert-manager's chart puts its leader-election Role and RoleBinding in kube-system (helm's
// .Release.Namespace is cert-manager): kube-system is the control plane's (kube-system,
// kube-public and kube-node-lease are created by the API server, default as well: the system
// namespaces controller, pkg/controlplane/controller/systemnamespaces). One finding names both,
// low; a namespace the bundle creates is its own and not named.
TEST(ObjectsOutsideReleaseNamespace, NamesThemInOneFinding) {
  std::string bundle = R"(apiVersion: v1
kind: Namespace
metadata: {name: cert-manager-extra}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: cm, namespace: cert-manager}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: extra, namespace: cert-manager-extra}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: cm:leaderelection, namespace: kube-system}
rules: [{apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: cm:leaderelection, namespace: kube-system}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: cm:leaderelection}
subjects: [{kind: ServiceAccount, name: cm, namespace: cert-manager}]
)";
  auto f = run_check(bundle_from(bundle, "cert-manager"), "objects-outside-release-namespace");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kLow);
  EXPECT_EQ(affects(f[0], "namespaces"), std::vector<std::string>{"kube-system"});
  EXPECT_EQ(affects(f[0], "objects").size(), 2u);
  EXPECT_TRUE(
      says(f[0], "RoleBinding kube-system/cm:leaderelection (binds Role cm:leaderelection)"));

  // A Deployment in kube-system runs beside the control plane: medium.
  std::string pods = bundle + R"(---
apiVersion: apps/v1
kind: Deployment
metadata: {name: agent, namespace: kube-system}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec: {containers: [{name: c, image: "a:1.0"}]}
)";
  auto medium = run_check(bundle_from(pods, "cert-manager"), "objects-outside-release-namespace");
  ASSERT_EQ(medium.size(), 1u);
  EXPECT_EQ(medium[0].severity, Severity::kMedium);

  // Installed into kube-system itself (-n kube-system), nothing is outside.
  std::string own = R"(apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: kube-system}
)";
  EXPECT_TRUE(
      run_check(bundle_from(own, "kube-system"), "objects-outside-release-namespace").empty());
}

}  // namespace
}  // namespace footprint
