// Each case is a hand-written mistake; positions are counted by hand in the text (lines and
// columns from 1), and libyaml's own words must stay in the message as the detail.
#include "load/yaml_errors.h"

#include <gtest/gtest.h>

#include <string>

namespace footprint::yaml {
namespace {

struct Expected {
  uint32_t line;
  uint32_t column;
  std::string words;   // the plain explanation
  std::string detail;  // libyaml's problem, kept
};

void expect_error(std::string_view text, const Expected& want) {
  auto docs = parse(text);
  ASSERT_FALSE(docs.has_value()) << text;
  const ParseError& e = docs.error();
  EXPECT_EQ(e.position.line, want.line) << e.message;
  EXPECT_EQ(e.position.column, want.column) << e.message;
  EXPECT_NE(e.message.find(want.words), std::string::npos) << e.message;
  EXPECT_NE(e.message.find(want.detail), std::string::npos) << e.message;
}

TEST(YamlErrors, TabInIndentation) {
  expect_error("metadata:\n\tname: x\n", {2, 1, "a tab character in the indentation",
                                          "found character that cannot start any token"});
  // After a key's value, libyaml reads the tab as part of the value and says so differently.
  expect_error("a: 1\n\tb: 2\n", {2, 1, "a tab character in the indentation",
                                  "found a tab character that violates indentation"});
}

TEST(YamlErrors, UnclosedQuoteIsReportedWhereItOpens) {
  // The quote is column 9 of `  name: "web`; libyaml only notices at the end of the input.
  expect_error("metadata:\n  name: \"web\ndata: {}\n",
               {2, 9, "a double-quoted string opens here and is never closed: add the closing \"",
                "found unexpected end of stream while scanning a quoted scalar"});
  expect_error("a: 'x\n---\nb: c\n", {1, 4,
                                      "single-quoted string opens here and is never closed "
                                      "before the next document",
                                      "found unexpected document indicator"});
}

TEST(YamlErrors, SecondColonOnALine) {
  // `  name: key: value`: the second ':' is column 12.
  expect_error("metadata:\n  name: key: value\n",
               {2, 12, "a second ': ' on the line: a plain value cannot hold ': '",
                "mapping values are not allowed in this context"});
}

TEST(YamlErrors, KeyIndentedUnderAValue) {
  // `    labels: {}` continues the plain value `x`; its ':' is column 11.
  expect_error("metadata:\n  name: x\n    labels: {}\n",
               {3, 11, "a key on a line indented deeper than the line above",
                "mapping values are not allowed in this context"});
}

TEST(YamlErrors, KeyWithoutColonIsReportedOnItsLine) {
  expect_error("apiVersion: v1\nkind ConfigMap\nmetadata: {}\n",
               {2, 1, "a line with no ':' where 'key: value' was expected",
                "could not find expected ':' while scanning a simple key"});
}

TEST(YamlErrors, ListItemAmongKeys) {
  expect_error("metadata:\n  name: x\n- item\n",
               {3, 1, "a '- ' list item among the keys of the mapping that starts at line 1",
                "did not find expected key while parsing a block mapping"});
  expect_error("args: - a\n", {1, 7, "a '- ' list item on the line of its key",
                               "block sequence entries are not allowed in this context"});
  expect_error("- a\n- b\nc: d\n", {3, 1, "a line inside the list that starts at line 1",
                                    "did not find expected '-' indicator"});
}

TEST(YamlErrors, IndentationMatchingNoKey) {
  expect_error("metadata:\n  name: x\n labels: {}\n",
               {3, 2,
                "the indentation of this line (column 2) matches no key above it: the keys of "
                "the mapping that starts at line 1 are at column 1",
                "did not find expected key"});
}

TEST(YamlErrors, UnrenderedHelmTemplate) {
  // Valid YAML (a mapping as a key), so the tree builder catches it, at the first '{'.
  expect_error("metadata:\n  name: {{ .Release.Name }}\n",
               {2, 9, "an unrendered Helm template", "helm template"});
  // Broken YAML: the template line, not the line libyaml stopped at, is the place to look.
  expect_error("kind: ConfigMap\n{{- if .Values.x }}\nmetadata: {}\n{{- end }}\n",
               {2, 1, "an unrendered Helm template", "could not find expected ':'"});
  // A template inside quotes is text (an alerting rule's annotation); the mistake is elsewhere.
  expect_error("summary: \"{{ $labels.x }}\" down\n",
               {1, 28, "text after the closing quote of a value", "did not find expected key"});
}

TEST(YamlErrors, ByteOrderMarkOfALaterDocument) {
  // Two files, the second saved with a byte-order mark, joined with '---': the mark opens line 4.
  expect_error(
      "kind: ConfigMap\nmetadata: {name: a}\n---\n\xEF\xBB\xBFkind: ConfigMap\nmetadata: {name: "
      "b}\n",
      {4, 1, "a byte-order mark (U+FEFF) starts this line", "<document start>"});
}

TEST(YamlErrors, IndicatorsThatNeedQuotes) {
  expect_error("host: *.example.com\n",
               {1, 7, "a value starting with '*' is read as a reference to an anchor",
                "while scanning an alias"});
  expect_error("name: @x\n", {1, 7, "a value cannot start with '@' (reserved in YAML)",
                              "found character that cannot start any token"});
  expect_error("a: \"x\\qy\"\n",
               {1, 6, "a backslash escape YAML does not accept", "found unknown escape character"});
}

TEST(YamlErrors, UnclosedFlowCollectionNamesItsOpening) {
  // A missing comma: libyaml stops at the second item, `"b"` at column 12.
  expect_error("args: [\"a\" \"b\"]\n",
               {1, 12, "the '[' at line 1, column 7 is never closed with ']', or two items in it",
                "did not find expected ',' or ']'"});
}

TEST(YamlErrors, UnknownProblemsKeepLibyamlsWords) {
  expect_error("a: |x\n  y\n", {1, 5,
                                "malformed YAML (did not find expected comment or line "
                                "break while scanning a block scalar)",
                                "block scalar"});
}

}  // namespace
}  // namespace footprint::yaml
