#include <gtest/gtest.h>

#include "analysis/check_testing.h"
#include "report/report.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::kRestrictedMode;
using testing::run_check;

// Re-auditing the bundle plus the generated fix no longer reports the trap at high severity.
TEST(RbacFix, LoopClearsTheHighFinding) {
  Bundle b = bundle_from(kRestrictedMode, "dynamo-system");
  RbacPolicy policy = RbacPolicy::build(b);
  std::string fix = render_rbac_fix(find_list_watch_traps(pod_templates(b), policy));
  ASSERT_FALSE(fix.empty());
  EXPECT_NE(fix.find("kind: Role\n"), std::string::npos);
  EXPECT_NE(fix.find("  namespace: dynamo-system\n"), std::string::npos);
  EXPECT_NE(fix.find("verbs: [get, list, watch]"), std::string::npos);
  EXPECT_NE(fix.find("# Trade-off"), std::string::npos);
  Bundle fixed = bundle_from(std::string(kRestrictedMode) + fix, "dynamo-system");
  auto findings = run_check(fixed, "rbac-resourcenames-list-watch");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kInfo);  // now a dead rule, covered by the fix
  RbacPolicy fixed_policy = RbacPolicy::build(fixed);
  EXPECT_TRUE(render_rbac_fix(find_list_watch_traps(pod_templates(fixed), fixed_policy)).empty());
}

}  // namespace
}  // namespace footprint
