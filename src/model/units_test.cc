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

}  // namespace
}  // namespace footprint
