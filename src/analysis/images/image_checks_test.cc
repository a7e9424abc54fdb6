// image-mutable-tag on values that are not image references as written (issue 31).
#include <gtest/gtest.h>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

// linkerd-config keeps `controllerImage: cr.l5d.io/linkerd/controller` beside
// `controllerImageVersion`, and the operator joins the two: the value alone is a repository name
// nobody pulls as written, so it is no moving tag. The same name in a container is pulled as
// :latest (a reference without a tag means latest to the container runtime, and
// SetDefaults_Container in pkg/apis/core/v1/defaults.go makes its pull policy Always): still
// reported. A tagged :latest in the ConfigMap is a reference as written: still reported.
TEST(ImageMutableTag, RepositoryNamesInConfigMapsAreNotMovingTags) {
  std::string config = R"(
apiVersion: v1
kind: ConfigMap
metadata: {name: linkerd-config, namespace: linkerd}
data:
  values: |
    controllerImage: cr.l5d.io/linkerd/controller
    controllerImageVersion: ""
)";
  EXPECT_TRUE(run_check(bundle_from(config), "image-mutable-tag").empty());
  std::string pod = config + R"(---
apiVersion: v1
kind: Pod
metadata: {name: controller, namespace: linkerd}
spec:
  containers: [{name: c, image: cr.l5d.io/linkerd/controller}]
)";
  EXPECT_EQ(run_check(bundle_from(pod), "image-mutable-tag").size(), 1u);
  std::string tagged = config;
  tagged.replace(tagged.find("linkerd/controller\n"), 19, "linkerd/controller:latest\n");
  EXPECT_EQ(run_check(bundle_from(tagged), "image-mutable-tag").size(), 1u);
}

}  // namespace
}  // namespace footprint
