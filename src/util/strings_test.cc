#include "util/strings.h"

#include <gtest/gtest.h>

namespace footprint {
namespace {

TEST(Strings, AddUniqueKeepsFirstSeenOrder) {
  std::vector<std::string> list;
  for (const char* s : {"b", "a", "b", "c", "a"})
    add_unique(list, s);
  EXPECT_EQ(list, (std::vector<std::string>{"b", "a", "c"}));
  EXPECT_TRUE(contains(list, "c"));
  EXPECT_FALSE(contains(list, "d"));
}

TEST(Strings, TrimRemovesEveryKindOfWhiteSpaceAtBothEnds) {
  EXPECT_EQ(trim(" \t\r\n check-a -- why \n"), "check-a -- why");
  EXPECT_EQ(trim("   "), "");
  EXPECT_EQ(trim(""), "");
}

TEST(Strings, LowerIsAsciiOnly) {
  EXPECT_EQ(lower("Secret"), "secret");
  EXPECT_EQ(lower("\xC3\x89"), "\xC3\x89");  // UTF-8 É is left alone
}

TEST(Strings, JoinedUsesTheSeparatorBetweenItemsOnly) {
  EXPECT_EQ(joined({"a", "b", "c"}), "a, b, c");
  EXPECT_EQ(joined({"a"}, " "), "a");
  EXPECT_EQ(joined({}), "");
}

}  // namespace
}  // namespace footprint
