// crd-missing: objects whose kind no CRD of the bundle or of the cluster snapshot
// (tests/data/cluster/) serves, grouped by API group.
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/analyze.h"
#include "analysis/check_testing.h"
#include "analysis/context.h"
#include "model/cluster.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::ClusterChecks;
using testing::run_check;

// The PodMonitor needs prometheus-operator's CRD; the snapshot has it (installed by
// kube-prometheus-stack), so only the bundle alone reports it missing.
TEST_F(ClusterChecks, ExistingCrdsSatisfyCrdMissing) {
  EXPECT_EQ(run_check(bundle, "crd-missing", {}, nullptr).size(), 1u);
  EXPECT_TRUE(run_check(bundle, "crd-missing", {}, &cluster).empty());
}

TEST(MissingCrds, GroupedByGroup) {
  Bundle b = bundle_from(
      "apiVersion: monitoring.coreos.com/v1\nkind: PodMonitor\nmetadata: {name: a}\n---\n"
      "apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: b}\n---\n"
      "apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: c}\n");
  std::vector<MissingCrd> missing = missing_crds(b);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].group, "monitoring.coreos.com");
  std::vector<std::pair<std::string, uint32_t>> kinds = {{"PodMonitor", 1}, {"ServiceMonitor", 2}};
  EXPECT_EQ(missing[0].kinds, kinds);
}

}  // namespace
}  // namespace footprint
