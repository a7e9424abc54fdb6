// rbac-expectation-unmet: an expected right the bundle does not grant.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analysis/check_testing.h"
#include "analysis/models/rbac_models.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::kRestrictedMode;
using testing::run_check;

TEST(Expectations, UnmetExpectationIsAFindingAtItsLine) {
  Bundle b = bundle_from(kRestrictedMode, "dynamo-system");
  std::string path = (std::filesystem::temp_directory_path() / "footprint-expect.yaml").string();
  std::ofstream(path) << "- as: system:serviceaccount:dynamo-system:controller-manager\n"
                         "  verb: list\n  resource: secrets\n  namespace: dynamo-system\n"
                         "- as: system:serviceaccount:dynamo-system:controller-manager\n"
                         "  verb: get\n  resource: secrets\n  name: webhook-server-cert\n"
                         "  namespace: dynamo-system\n";
  auto expectations = load_expectations(path, b.resources);
  ASSERT_TRUE(expectations.has_value()) << expectations.error().to_string();
  ASSERT_EQ(expectations->size(), 2u);
  auto findings = run_check(b, "rbac-expectation-unmet", *expectations);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].file, path);
  EXPECT_EQ(findings[0].position.line, 1u);
  EXPECT_EQ(findings[0].object.kind, "ServiceAccount");
  EXPECT_NE(findings[0].message.find("only with resourceNames [webhook-server-cert]"),
            std::string::npos);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace footprint
