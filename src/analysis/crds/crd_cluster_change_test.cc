// crd-cluster-change against the cluster snapshot of tests/data/cluster/: CRDs the bundle
// changes in ways the API server rejects or that break the cluster's clients.
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/analyze.h"
#include "analysis/check_testing.h"
#include "analysis/context.h"
#include "model/cluster.h"

namespace footprint {
namespace {

using testing::affects;
using testing::ClusterChecks;
using testing::run_check;

// widgets.example.com has status.storedVersions [v1alpha1, v1]; the bundle's copy lists only
// v1. "Versions may not be removed from spec.versions while they exist in this list"
// (CustomResourceDefinitionStatus.storedVersions; enforced by
// apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go), so the update is
// rejected: high, and the current owner is named.
TEST_F(ClusterChecks, DroppedStoredVersionIsRejected) {
  std::vector<Finding> f = run_check(bundle, "crd-cluster-change", {}, &cluster);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kHigh);
  EXPECT_EQ(f[0].object.name, "widgets.example.com");
  EXPECT_NE(f[0].message.find("drops version v1alpha1"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("Helm release widget-operator in namespace widgets"),
            std::string::npos);
  EXPECT_TRUE(run_check(bundle, "crd-cluster-change", {}, nullptr).empty());
}

// Only served versions dropped (nothing stored in them): the update succeeds, clients of the
// dropped version break: medium. A scope change of an established CRD is rejected (immutable).
TEST_F(ClusterChecks, ServedVersionDroppedAndScopeChanged) {
  auto snapshot = load_cluster_text("c.yaml", R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  scope: Namespaced
  versions:
  - {name: v1beta1, served: true, storage: false}
  - {name: v1, served: true, storage: true}
status: {storedVersions: [v1]}
)");
  ASSERT_TRUE(snapshot.has_value());
  auto crd = [](std::string_view scope) {
    return testing::bundle_from(std::string(R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  scope: )") + std::string(scope) +
                                R"(
  versions:
  - {name: v1, served: true, storage: true}
)");
  };
  Bundle same_scope = crd("Namespaced");
  std::vector<Finding> f = run_check(same_scope, "crd-cluster-change", {}, &*snapshot);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kMedium);
  EXPECT_EQ(affects(f[0], "changes"), std::vector<std::string>{"no longer serves v1beta1"});
  Bundle cluster_scope = crd("Cluster");
  f = run_check(cluster_scope, "crd-cluster-change", {}, &*snapshot);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kHigh);
  EXPECT_NE(f[0].message.find("spec.scope from Namespaced to Cluster"), std::string::npos);
}

}  // namespace
}  // namespace footprint
