// Toleration matching as staging/src/k8s.io/api/core/v1/toleration.go ToleratesTaint defines
// it: an empty effect matches every effect, an empty key with Exists every key, and the
// operator defaults to Equal.
#include "model/tolerations.h"

#include <gtest/gtest.h>

namespace footprint {
namespace {

std::vector<Toleration> tolerations_in(std::string_view spec, std::vector<yaml::Document>& keep) {
  auto docs = yaml::parse(spec);
  EXPECT_TRUE(docs.has_value());
  keep = std::move(*docs);
  return read_tolerations(keep.front().root);
}

TEST(Tolerations, MatchesAsTheScheduler) {
  Taint gpu{"nvidia.com/gpu", "present", "NoSchedule"};
  EXPECT_TRUE(tolerates(Toleration{"nvidia.com/gpu", "Exists", "", ""}, gpu));
  EXPECT_TRUE(tolerates(Toleration{"nvidia.com/gpu", "", "present", "NoSchedule"}, gpu));
  EXPECT_FALSE(tolerates(Toleration{"nvidia.com/gpu", "Equal", "absent", ""}, gpu));
  EXPECT_FALSE(tolerates(Toleration{"nvidia.com/gpu", "Exists", "", "NoExecute"}, gpu));
  EXPECT_TRUE(tolerates(Toleration{"", "Exists", "", ""}, gpu));
  EXPECT_FALSE(tolerates(Toleration{"", "Lt", "", ""}, gpu));
}

TEST(Tolerations, EveryTaint) {
  std::vector<yaml::Document> keep;
  // calico-node's tolerations (calico-manifest.yaml): wildcards for NoSchedule and NoExecute.
  EXPECT_TRUE(tolerates_every_taint(tolerations_in(R"(
tolerations:
- {effect: NoSchedule, operator: Exists}
- {key: CriticalAddonsOnly, operator: Exists}
- {effect: NoExecute, operator: Exists}
)",
                                                   keep)));
  EXPECT_TRUE(tolerates_every_taint(tolerations_in("tolerations: [{operator: Exists}]", keep)));
  // NoSchedule only: a NoExecute taint still evicts and keeps the pods off.
  EXPECT_FALSE(tolerates_every_taint(
      tolerations_in("tolerations: [{operator: Exists, effect: NoSchedule}]", keep)));
  EXPECT_FALSE(tolerates_every_taint(tolerations_in("{}", keep)));
}

TEST(Tolerations, ControlPlane) {
  std::vector<yaml::Document> keep;
  auto tol = tolerations_in(
      "tolerations: [{key: node-role.kubernetes.io/control-plane, operator: Exists, effect: "
      "NoSchedule}]",
      keep);
  EXPECT_TRUE(tolerates(tol, control_plane_taints()[0]));
  EXPECT_FALSE(tolerates(tol, control_plane_taints()[1]));
}

}  // namespace
}  // namespace footprint
