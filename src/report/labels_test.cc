// The labels every report format shares, checked against values written out by hand.
#include "report/labels.h"

#include <gtest/gtest.h>

namespace footprint {
namespace {

TEST(Labels, ObjectLabelNamesTheNamespaceWhenThereIsOne) {
  EXPECT_EQ(object_label(ObjectId{"v1", "Service", "ops", "web"}), "Service ops/web");
  EXPECT_EQ(object_label(ObjectId{"v1", "Namespace", "", "ops"}), "Namespace ops");
}

TEST(Labels, SignedCommasTakeTheMinusTheFormatWants) {
  EXPECT_EQ(signed_commas(1234567), "1,234,567");
  EXPECT_EQ(signed_commas(-1234), "-1,234");
  EXPECT_EQ(signed_commas(-1234, "\u2212"), "\u22121,234");
  // 262,144 bytes of annotations allowed, 262,145 used: one over.
  EXPECT_EQ(headroom(262144, 262145), -1);
  EXPECT_EQ(headroom(262144, 0), 262144);
}

TEST(Labels, BaselineMarkSaysWhatTheBaselineKnew) {
  Finding f;
  EXPECT_EQ(baseline_mark(f, " "), "");
  f.known = true;
  EXPECT_EQ(baseline_mark(f, "  "), "  (known)");
  f.severity_before = Severity::kHigh;
  EXPECT_EQ(baseline_mark(f, " "), " (better: high before)");
  f.known = false;
  f.severity_before = Severity::kMedium;
  EXPECT_EQ(baseline_mark(f, " "), " (worse: medium before)");
}

}  // namespace
}  // namespace footprint
