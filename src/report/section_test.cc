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

// Width 25 leaves 22 columns for the last cell after "x" and the two-space gap; continuation
// lines are indented by two, so 20 columns are left on them.
TEST(TextTable, WrapsTheLastColumnUnderItself) {
  Table t;
  t.header = {"A", "B"};
  t.rows = {{"x", "one two three four five six seven eight nine ten eleven twelve"}};
  std::string out = render_text_table(t, 0, 25);
  EXPECT_EQ(out,
            "A  B\n"
            "x  one two three four\n"
            "     five six seven eight\n"
            "     nine ten eleven\n"
            "     twelve\n");
}

// An identifier never breaks: "mdynamographdeploymen" / "t.kb.io" is what a cut looked like.
// SUBJECT's 54-character name needs a 56-column SUBJECT (with a continuation line's indent),
// and 56 + 2 + 4 (ROLE) is more than 36: each row becomes a record. The labels are 8 wide
// ("SUBJECT:"), so values start at column 10 with 26 columns of room; the name, wider than that,
// goes on a line of its own, indented by four.
TEST(TextTable, StacksRowsWhenAColumnCannotHoldItsLongestWord) {
  Table t;
  t.header = {"SUBJECT", "ROLE"};
  t.rows = {{"ServiceAccount inference-system/inference-operator-controller-manager", "view"}};
  EXPECT_EQ(render_text_table(t, 0, 36),
            "SUBJECT:  ServiceAccount\n"
            "    inference-system/inference-operator-controller-manager\n"
            "ROLE:     view\n");
}

// Records are apart by a blank line; an empty cell has no line; values wrap under their first
// word. Indent 2 and labels 6 wide ("IMAGE:") put values after 2 + 6 + 2 = 10 columns, with 20
// of room at width 30: the 38-character image does not fit there and goes under its label.
TEST(TextTable, RecordsWrapTheirValuesUnderTheFirstWord) {
  Table t;
  t.header = {"IMAGE", "WHERE", "SIZE"};
  t.right_aligned = {false, false, true};
  t.rows = {{"registry.example.com/team/server:1.2.3", "Deployment web, container app", "12 MB"},
            {"busybox:1.36", "", ""}};
  EXPECT_EQ(render_text_table(t, 2, 30),
            "  IMAGE:\n"
            "      registry.example.com/team/server:1.2.3\n"
            "  WHERE:  Deployment web,\n"
            "          container app\n"
            "  SIZE:   12 MB\n"
            "\n"
            "  IMAGE:  busybox:1.36\n");
}

// A column of several words narrows down to its longest word plus a continuation line's indent
// and no further: "configmaps" needs 12, and 12 + 2 + 18 (ROLE) fits in 32 but not in 31.
TEST(TextTable, NarrowsAColumnDownToItsLongestWord) {
  Table t;
  t.header = {"RESOURCES", "ROLE"};
  t.rows = {{"pods secrets configmaps", "cluster-admin-view"}};
  EXPECT_EQ(render_text_table(t, 0, 32),
            "RESOURCES     ROLE\n"
            "pods secrets  cluster-admin-view\n"
            "  configmaps\n");
  EXPECT_EQ(render_text_table(t, 0, 31).substr(0, 11), "RESOURCES: ");
}

// Whatever the width, a line is never wider than it unless it is one word that alone is.
TEST(TextTable, NoLineIsWiderThanTheWidthButALoneLongWord) {
  Table t;
  t.header = {"KIND", "NAME", "NAMESPACE", "WHY"};
  t.rows = {{"ClusterRoleBinding", "inference-operator-controller-manager-rolebinding", "system",
             "binds cluster-admin to the operator's service account, which any pod can use"},
            {"Secret", "tls", "",
             "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}};
  for (size_t width = 20; width <= 140; ++width) {
    std::string out = render_text_table(t, 2, width);
    size_t begin = 0;
    while (begin < out.size()) {
      size_t end = out.find('\n', begin);
      std::string line = out.substr(begin, end - begin);
      begin = end + 1;
      if (display_width(line) <= width) continue;
      size_t word = line.find_first_not_of(' ');
      EXPECT_EQ(line.find(' ', word), std::string::npos) << "width " << width << ": " << line;
    }
  }
}

TEST(TextTable, IndentsContinuationLines) {
  Table t;
  t.header = {"A", "B"};
  t.rows = {{"x", "one two three four five six"}};
  EXPECT_EQ(render_text_table(t, 0, 16),
            "A  B\n"
            "x  one two three\n"
            "     four five\n"
            "     six\n");
}

TEST(TextTable, NeverWrapsWithoutAWidth) {
  Table t;
  t.header = {"A", "B"};
  std::string long_cell(500, 'x');
  t.rows = {{"x", long_cell + " " + long_cell}};
  EXPECT_EQ(render_text_table(t, 2, kNoWrap), "  A  B\n  x  " + long_cell + " " + long_cell + "\n");
}

TEST(TextTable, ColourSequencesTakeNoWidth) {
  EXPECT_EQ(display_width("\x1b[31mhigh\x1b[0m"), 4u);
}

TEST(Wrap, BreaksAtSpacesAndIndents) {
  EXPECT_EQ(wrap_text("aaa bbb ccc", 2, 24), "  aaa bbb ccc\n");
  std::string long_text(30, 'x');
  // A word longer than the 20 free columns stays whole on its own line.
  EXPECT_EQ(wrap_text("a " + long_text + " y", 4, 24), "    a\n    " + long_text + "\n    y\n");
}

TEST(MarkdownTable, EscapesPipes) {
  Table t;
  t.header = {"a", "b"};
  t.right_aligned = {false, true};
  t.rows = {{"x|y", "1"}};
  EXPECT_EQ(render_markdown_table(t), "| a | b |\n|---|---:|\n| x\\|y | 1 |\n");
}

TEST(MarkdownTable, EscapesFormattingInCells) {
  Table t;
  t.header = {"NAMES"};
  t.rows = {{"*"}, {"`a|b`"}};
  // A pipe inside a code span still ends a GFM table cell unless escaped.
  EXPECT_EQ(render_markdown_table(t), "| NAMES |\n|---|\n| \\* |\n| `a\\|b` |\n");
}

// CommonMark: a backslash before ASCII punctuation makes it literal; code spans are literal
// already, so their contents stay as written.
TEST(Markdown, EscapesEverythingOutsideCodeSpans) {
  EXPECT_EQ(escape_markdown("resourceNames [*] for <digest>"),
            "resourceNames \\[\\*\\] for \\<digest\\>");
  EXPECT_EQ(escape_markdown("run `kubectl get <x> -o *`, then a_b"),
            "run `kubectl get <x> -o *`, then a\\_b");
  EXPECT_EQ(escape_markdown("a ` b"), "a \\` b");
  EXPECT_EQ(escape_markdown("# not a heading"), "\\# not a heading");
  EXPECT_EQ(escape_markdown("- not a list\n2. nor this"), "\\- not a list\n2\\. nor this");
  EXPECT_EQ(escape_markdown("&amp; $HOME ~x~"), "\\&amp; \\$HOME \\~x\\~");
}

TEST(Markdown, CodeSpansFenceBackticks) {
  EXPECT_EQ(markdown_code("a.yaml:3"), "`a.yaml:3`");
  EXPECT_EQ(markdown_code("a`b"), "``a`b``");
  EXPECT_EQ(markdown_code("`x"), "`` `x ``");
}

TEST(Section, DisplayWidthCountsCodePoints) {
  EXPECT_EQ(display_width("한국어"), 3u);
}

}  // namespace
}  // namespace footprint
