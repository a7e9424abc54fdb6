// Binding references (rbac_binding_refs.cc) on the hand-written bundles of
// tests/data/rbac-traps/: each verdict argued from the Kubernetes source named beside it.
#include <gtest/gtest.h>

#include "analysis/check_testing.h"
#include "load/loader.h"

namespace footprint {
namespace {

using testing::run_check;

Bundle fixture(const char* name) {
  std::string path = FOOTPRINT_SOURCE_DIR;
  path += "/tests/data/rbac-traps/";
  path += name;
  auto loaded = load_inputs({path}, LoadOptions{});
  EXPECT_TRUE(loaded.has_value()) << path;
  if (!loaded) return Bundle{};
  return build_bundle(std::move(*loaded), BundleOptions{"op-system"});
}

// Accounts Kubernetes creates are never missing. The bootstrap policy
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go) binds
// system:controller:NAME to kube-system/NAME, and the controller manager creates each account
// before running its controller (staging/src/k8s.io/controller-manager/pkg/clientbuilder/
// client_builder_dynamic.go, getOrCreateServiceAccount); the ServiceAccount controller creates
// default everywhere. Left: kube-dns (an add-on's account) and a controller's name outside
// kube-system, both low (a namespace the bundle neither creates nor releases into).
TEST(BindingMissingSubject, AccountsKubernetesCreatesAreNeverMissing) {
  auto findings = run_check(fixture("kubernetes-accounts.yaml"), "rbac-binding-missing-subject");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_NE(findings[0].message.find("ServiceAccount kube-system/kube-dns"), std::string::npos);
  EXPECT_NE(findings[1].message.find("ServiceAccount team-a/namespace-controller"),
            std::string::npos);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_EQ(findings[1].severity, Severity::kLow);
}

}  // namespace
}  // namespace footprint
