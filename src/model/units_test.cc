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

TEST(Units, SizeAndBandwidthParsing) {
  EXPECT_EQ(*parse_byte_size("2GiB"), 2147483648u);
  EXPECT_EQ(*parse_byte_size("500MB"), 500000000u);
  EXPECT_EQ(*parse_byte_size("1073741824"), 1073741824u);
  EXPECT_EQ(*parse_byte_size("1.5 GB"), 1500000000u);
  EXPECT_FALSE(parse_byte_size("lots").has_value());
  EXPECT_FALSE(parse_byte_size("-1GB").has_value());
  EXPECT_DOUBLE_EQ(*parse_bandwidth("15MB/s"), 15e6);
  EXPECT_DOUBLE_EQ(*parse_bandwidth("1Gbit/s"), 125e6);
  EXPECT_DOUBLE_EQ(*parse_bandwidth("100Mbit/s"), 12.5e6);
  EXPECT_DOUBLE_EQ(*parse_bandwidth("1MiB/s"), 1048576.0);
  EXPECT_FALSE(parse_bandwidth("fast").has_value());
  EXPECT_EQ(format_duration(45), "45 s");
  EXPECT_EQ(format_duration(7500), "2 h 5 min");
  EXPECT_EQ(format_bytes(516'410), "516.4 kB (516,410 bytes)");
  EXPECT_EQ(format_bytes(999), "999 bytes");
}

}  // namespace
}  // namespace footprint
