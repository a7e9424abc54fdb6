#include "load/helm_tests.h"

#include <gtest/gtest.h>

namespace footprint {
namespace {

// Helm sorts a rendered object into hooks by splitting helm.sh/hook on commas and matching each
// trimmed, lower-cased event; test-success is Helm 2's name for test
// (helm's pkg/releaseutil/manifest_sorter.go). Only objects whose every event is a test are run by
// `helm test` alone; post-install,test also runs on install. Counted by hand in the fixture: 7
// objects, 3 test-only.
TEST(HelmTests, TestHooksAreSetAside) {
  std::string path = FOOTPRINT_SOURCE_DIR;
  path += "/tests/data/helm-tests/rendered.yaml";
  auto loaded = load_inputs({path}, LoadOptions{});
  ASSERT_TRUE(loaded.has_value());
  std::vector<std::string> kept;
  for (const RawObject& o : loaded->objects)
    kept.emplace_back(o.node.get("metadata").get("name").str());
  EXPECT_EQ(kept, (std::vector<std::string>{"op", "op", "op-migrate", "op-smoke"}));
  ASSERT_EQ(loaded->notes.size(), 3u);
  EXPECT_EQ(loaded->notes[0],
            "left out Pod op-test-connection (op/templates/tests/test-connection.yaml): a Helm "
            "test hook, which `helm test` runs and installing does not create");
  EXPECT_NE(loaded->notes[1].find("ClusterRoleBinding op-test-admin"), std::string::npos);
  EXPECT_NE(loaded->notes[2].find("ConfigMap op-test-config"), std::string::npos);
}

}  // namespace
}  // namespace footprint
