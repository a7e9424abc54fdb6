#include "report/section.h"

#include <gtest/gtest.h>

namespace footprint {
namespace {

TEST(TextTable, AlignsColumns) {
  Table t;
  t.header = {"KIND", "N"};
  t.right_aligned = {false, true};
  t.rows = {{"ClusterRole", "12"}, {"Role", "1"}};
  EXPECT_EQ(render_text_table(t, 2, 100),
            "  KIND          N\n"
            "  ClusterRole  12\n"
            "  Role          1\n");
}

// Width 25 leaves 22 columns for the last cell after "x" and the two-space gap.
TEST(TextTable, WrapsTheLastColumnUnderItself) {
  Table t;
  t.header = {"A", "B"};
  t.rows = {{"x", "one two three four five six seven eight nine ten eleven twelve"}};
  std::string out = render_text_table(t, 0, 25);
  EXPECT_EQ(out,
            "A  B\n"
            "x  one two three four\n"
            "   five six seven eight\n"
            "   nine ten eleven twelve\n");
}

TEST(TextTable, SplitsLongNamesAfterSeparators) {
  Table t;
  t.header = {"SUBJECT", "ROLE"};
  t.rows = {{"ServiceAccount inference-system/inference-operator-controller-manager", "view"}};
  // Width 36 narrows SUBJECT to 30 columns; the 54-character name breaks after its last
  // separator that fits ("inference-system/inference-").
  EXPECT_EQ(render_text_table(t, 0, 36),
            "SUBJECT                         ROLE\n"
            "ServiceAccount                  view\n"
            "inference-system/inference-\n"
            "operator-controller-manager\n");
}

TEST(Wrap, BreaksAtSpacesAndIndents) {
  EXPECT_EQ(wrap_text("aaa bbb ccc", 2, 24), "  aaa bbb ccc\n");
  std::string long_text(30, 'x');
  // A word longer than the 20 free columns, with no separator, is cut hard.
  EXPECT_EQ(wrap_text(long_text + " y", 4, 24),
            "    " + long_text.substr(0, 20) + "\n    " + long_text.substr(20) + " y\n");
}

TEST(MarkdownTable, EscapesPipes) {
  Table t;
  t.header = {"a", "b"};
  t.right_aligned = {false, true};
  t.rows = {{"x|y", "1"}};
  EXPECT_EQ(render_markdown_table(t), "| a | b |\n|---|---:|\n| x\\|y | 1 |\n");
}

TEST(Section, DisplayWidthCountsCodePoints) {
  EXPECT_EQ(display_width("한국어"), 3u);
}

}  // namespace
}  // namespace footprint
