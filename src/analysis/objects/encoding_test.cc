#include <gtest/gtest.h>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

// Go's encoding/json refuses NaN and ±Inf ("json: unsupported value", encode.go
// floatEncoder), so kubectl cannot send an object holding .nan or .inf (YAML 1.1 floats).
TEST(ObjectNotEncodable, NanAndInfinityAreReportedNotDropped) {
  Bundle b = bundle_from(R"(apiVersion: v1
kind: ConfigMap
metadata: {name: fine}
data: {k: ".nan"}
---
apiVersion: example.com/v1
kind: Tuning
metadata: {name: nan}
spec:
  ratio: .nan
---
apiVersion: example.com/v1
kind: Tuning
metadata: {name: inf}
spec:
  limit: -.inf
)");
  auto findings = run_check(b, "object-not-encodable");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_EQ(findings[0].object.name, "nan");
  EXPECT_NE(findings[0].message.find("line 10: `.nan` is not a number JSON can hold"),
            std::string::npos)
      << findings[0].message;
  EXPECT_EQ(findings[1].object.name, "inf");
  EXPECT_NE(findings[1].message.find("line 16: `-.inf`"), std::string::npos);
  // Each points at the line of its value (10, 16: counted in the text above), where the fix is.
  EXPECT_EQ(findings[0].position.line, 10u);
  EXPECT_EQ(findings[1].position.line, 16u);
}

}  // namespace
}  // namespace footprint
