#include "model/units.h"

#include <gtest/gtest.h>

namespace footprint {
namespace {

TEST(Units, Commas) {
  EXPECT_EQ(with_commas(0), "0");
  EXPECT_EQ(with_commas(999), "999");
  EXPECT_EQ(with_commas(1000), "1,000");
  EXPECT_EQ(with_commas(3038832), "3,038,832");
  EXPECT_EQ(with_commas(18446744073709551615u), "18,446,744,073,709,551,615");
}

TEST(Units, CountOfAgreesInNumber) {
  EXPECT_EQ(count_of(0, "object"), "0 objects");
  EXPECT_EQ(count_of(1, "object"), "1 object");
  EXPECT_EQ(count_of(2, "object"), "2 objects");
  EXPECT_EQ(count_of(1, "policy", "policies"), "1 policy");
  EXPECT_EQ(count_of(1500, "policy", "policies"), "1,500 policies");
}

}  // namespace
}  // namespace footprint
