// crd-installed-at-runtime: ServiceAccounts whose workloads create CRDs themselves.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analysis/check_testing.h"
#include "analysis/models/crd_models.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

// --- CRDs installed at run time ---------------------------------------------------------------

constexpr const char* kInstaller = R"(
apiVersion: v1
kind: ServiceAccount
metadata: {name: operator, namespace: ops}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: crd-manager}
rules:
- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  verbs: [create, get, list]
- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  resourceNames: [widgets.example.com, gadgets.example.com]
  verbs: [update, patch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: crd-manager}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: crd-manager}
subjects: [{kind: ServiceAccount, name: operator, namespace: ops}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: operator, namespace: ops}
spec:
  template:
    spec:
      serviceAccountName: operator
      containers: [{name: manager, image: op, args: [--install-crds=true]}]
)";

TEST(CrdInstalledAtRuntime, PerServiceAccountWithWorkloadsAndNames) {
  Bundle b = bundle_from(kInstaller);
  auto findings = run_check(b, "crd-installed-at-runtime");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  EXPECT_EQ(findings[0].object.kind, "ServiceAccount");
  const std::string& m = findings[0].message;
  EXPECT_NE(m.find("ServiceAccount ops/operator may create any CustomResourceDefinition "
                   "(through ClusterRoleBinding crd-manager)"),
            std::string::npos);
  EXPECT_NE(m.find("Deployment ops/operator runs as it"), std::string::npos);
  EXPECT_NE(m.find("container manager runs `--install-crds=true`"), std::string::npos);
  EXPECT_NE(m.find("does not ship (2): widgets.example.com, gadgets.example.com."),
            std::string::npos);

  Context context(b);
  const HiddenFootprint& hidden = context.hidden;
  ASSERT_EQ(hidden.writers.size(), 1u);
  EXPECT_EQ(hidden.writers[0].verbs, std::vector<std::string>{"create"});
  std::vector<std::string> summary = hidden_footprint_summary(hidden);
  ASSERT_EQ(summary.size(), 2u);
  EXPECT_EQ(summary[0],
            "ServiceAccount ops/operator (Deployment ops/operator runs as it) may create any "
            "CustomResourceDefinition: CRDs beyond this bundle can appear at run time.");
}

// Rewriting CRDs without creating any is not an install at run time: rbac-crd-write reports
// the right, and crd-installed-at-runtime only what installs CRDs.
TEST(CrdInstalledAtRuntime, UpdateOnAnyCrdIsTheRbacChecks) {
  std::string yaml = kInstaller;
  yaml.replace(yaml.find("verbs: [create, get, list]"), 26, "verbs: [update, get, list]");
  auto findings = run_check(bundle_from(yaml), "crd-installed-at-runtime");
  ASSERT_EQ(findings.size(), 1u);
  // The container's flag still says it installs CRDs.
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  std::string no_flag = yaml;
  no_flag.replace(no_flag.find("args: [--install-crds=true]"), 27, "args: []");
  EXPECT_TRUE(run_check(bundle_from(no_flag), "crd-installed-at-runtime").empty());
  auto rewrite = run_check(bundle_from(no_flag), "rbac-crd-write");
  ASSERT_EQ(rewrite.size(), 1u);
  EXPECT_EQ(rewrite[0].severity, Severity::kMedium);
  EXPECT_NE(rewrite[0].message.find("rewrite any CustomResourceDefinition in the cluster"),
            std::string::npos);
}

TEST(CrdInstalledAtRuntime, ContainerCommands) {
  auto job = [](std::string_view command) {
    return fmt::format(
        "apiVersion: batch/v1\nkind: Job\nmetadata: {{name: upgrade-crd, namespace: ops}}\n"
        "spec:\n  template:\n    spec:\n      containers: [{{name: c, image: i, command: {}}}]\n",
        command);
  };
  auto found = run_check(bundle_from(job("[/usr/bin/manage-crds, apply, "
                                         "--filepath=/opt/op/example.com_widgets.yaml]")),
                         "crd-installed-at-runtime");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].object.kind, "Job");
  EXPECT_NE(found[0].message.find("no role of the bundle lets its ServiceAccount create them"),
            std::string::npos);
  EXPECT_NE(found[0].message.find("(1): widgets.example.com."), std::string::npos);

  auto shell = run_check(bundle_from(job("[sh, -c, 'kubectl apply -f /crds/ && sleep 1']")),
                         "crd-installed-at-runtime");
  EXPECT_EQ(shell.size(), 1u);
  // Watching CRDs, or a CRD management switch turned off, installs nothing.
  for (const char* quiet : {"[op, --crdWatcher=false]", "[op, --crd-requeue-interval=5m]",
                            "[op, -manage-crds=false]"}) {
    EXPECT_TRUE(run_check(bundle_from(job(quiet)), "crd-installed-at-runtime").empty()) << quiet;
  }
}

}  // namespace
}  // namespace footprint
