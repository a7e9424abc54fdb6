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

TEST(Strings, QuotedIfBlankEdgesShowsLeadingAndTrailingSpaces) {
  EXPECT_EQ(quoted_if_blank_edges(" nginx:1.0"), "\" nginx:1.0\"");
  EXPECT_EQ(quoted_if_blank_edges("nginx:1.0\t"), "\"nginx:1.0\t\"");
  EXPECT_EQ(quoted_if_blank_edges(""), "\"\"");
  EXPECT_EQ(quoted_if_blank_edges("nginx:1.0"), "nginx:1.0");
  EXPECT_EQ(quoted_if_blank_edges("a b"), "a b");  // inner spaces show on their own
}

TEST(Strings, LowerIsAsciiOnly) {
  EXPECT_EQ(lower("Secret"), "secret");
  EXPECT_EQ(lower("\xC3\x89"), "\xC3\x89");  // UTF-8 É is left alone
}

TEST(Strings, AnyCaseComparisonsFoldAsciiOnly) {
  EXPECT_TRUE(equals_any_case("Secret", "sECRET"));
  EXPECT_FALSE(equals_any_case("Secret", "Secrets"));
  EXPECT_FALSE(equals_any_case("\xC3\x89", "\xC3\xA9"));  // UTF-8 É and é differ
  EXPECT_TRUE(ends_with_any_case("RELATED_IMAGE", "_image"));
  EXPECT_TRUE(ends_with_any_case("image", "IMAGE"));
  EXPECT_FALSE(ends_with_any_case("age", "image"));
}

TEST(Strings, JoinedUsesTheSeparatorBetweenItemsOnly) {
  EXPECT_EQ(joined({"a", "b", "c"}), "a, b, c");
  EXPECT_EQ(joined({"a"}, " "), "a");
  EXPECT_EQ(joined({}), "");
}

// Expected values from Go's strconv documentation and its appendEscapedRune: letter escapes for
// \a \b \f \n \r \t \v, \xNN for the other control bytes and DEL; printable UTF-8 unchanged.
TEST(Strings, GoQuoteEscapesAsStrconvQuote) {
  EXPECT_EQ(go_quote("\"Fran & Freddie's Diner\t\xE2\x98\xBA\""),
            "\"\\\"Fran & Freddie's Diner\\t\xE2\x98\xBA\\\"\"");
  EXPECT_EQ(go_quote(std::string_view("\a\b\f\v\0\x1b\x7f\\", 8)), R"("\a\b\f\v\x00\x1b\x7f\\")");
  EXPECT_EQ(go_quote(""), R"("")");
}

}  // namespace
}  // namespace footprint
