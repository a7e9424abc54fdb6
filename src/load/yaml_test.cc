#include "load/yaml.h"

#include <gtest/gtest.h>

#include <string>

namespace footprint::yaml {
namespace {

std::vector<Document> parse_ok(std::string_view text) {
  auto docs = parse(text);
  EXPECT_TRUE(docs.has_value()) << (docs ? "" : docs.error().message);
  return docs ? std::move(*docs) : std::vector<Document>{};
}

ParseError parse_fails(std::string_view text, const Limits& limits = {}) {
  auto docs = parse(text, limits);
  EXPECT_FALSE(docs.has_value());
  return docs ? ParseError{} : docs.error();
}

TEST(Yaml, MappingsSequencesAndPositions) {
  auto docs =
      parse_ok("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  - a\n  - b\n");
  ASSERT_EQ(docs.size(), 1u);
  Node root = docs[0].root;
  ASSERT_TRUE(root.is_mapping());
  EXPECT_EQ(root.size(), 4u);
  EXPECT_EQ(root.get("kind").text(), "ConfigMap");
  Node name = root.at({"metadata", "name"});
  EXPECT_EQ(name.text(), "x");
  EXPECT_EQ(name.position().line, 4u);
  EXPECT_EQ(name.position().column, 9u);
  Node data = root.get("data");
  ASSERT_TRUE(data.is_sequence());
  EXPECT_EQ(data.size(), 2u);
  EXPECT_EQ(data.item(1).text(), "b");
  EXPECT_EQ(data.item(1).position().line, 7u);
  EXPECT_FALSE(root.get("missing"));
  EXPECT_FALSE(root.at({"metadata", "missing", "deeper"}));
}

// YAML 1.1 (what kubectl's decoder speaks) resolves `yes`/`on` to booleans and `0777` to octal,
// but only when plain. The tree keeps the original text and style so callers can decide.
TEST(Yaml, KeepsScalarTextAndStyle) {
  auto docs = parse_ok("a: yes\nb: \"yes\"\nc: 0777\nd: 'x'\ne: |\n  lit\nf: >\n  fold\n");
  Node root = docs[0].root;
  EXPECT_EQ(root.get("a").text(), "yes");
  EXPECT_EQ(root.get("a").style(), ScalarStyle::kPlain);
  EXPECT_EQ(root.get("b").style(), ScalarStyle::kDoubleQuoted);
  EXPECT_EQ(root.get("c").text(), "0777");
  EXPECT_EQ(root.get("d").style(), ScalarStyle::kSingleQuoted);
  EXPECT_EQ(root.get("e").text(), "lit\n");
  EXPECT_EQ(root.get("e").style(), ScalarStyle::kLiteral);
  EXPECT_EQ(root.get("f").style(), ScalarStyle::kFolded);
}

// prometheus-operator's AlertmanagerConfig CRD has an unquoted `=` enum value; PyYAML's
// resolver turns it into the YAML 1.1 "value" tag and fails. It is simply the string "=".
TEST(Yaml, PlainEqualsSignIsAString) {
  auto docs = parse_ok("enum:\n- '!='\n- =\n- =~\n");
  Node e = docs[0].root.get("enum");
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e.item(1).text(), "=");
  EXPECT_TRUE(e.item(1).tag().empty());
  EXPECT_FALSE(e.item(1).is_null());
}

TEST(Yaml, NullsAreOnlyPlainUntagged) {
  auto docs = parse_ok("a:\nb: ~\nc: null\nd: 'null'\ne: !!str null\n");
  Node root = docs[0].root;
  EXPECT_TRUE(root.get("a").is_null());
  EXPECT_TRUE(root.get("b").is_null());
  EXPECT_TRUE(root.get("c").is_null());
  EXPECT_FALSE(root.get("d").is_null());
  EXPECT_FALSE(root.get("e").is_null());
  EXPECT_EQ(root.get("e").tag(), "tag:yaml.org,2002:str");
  EXPECT_EQ(root.get("c").str(), "");
  EXPECT_EQ(root.get("d").str(), "null");
}

// sigs.k8s.io/yaml (kubectl) rejects duplicate keys: `key "a" already set in map`.
TEST(Yaml, DuplicateKeysAreErrors) {
  ParseError err = parse_fails("metadata:\n  name: a\n  labels: {}\n  name: b\n");
  EXPECT_EQ(err.position.line, 4u);
  EXPECT_EQ(err.position.column, 3u);
  EXPECT_NE(err.message.find("duplicate key \"name\""), std::string::npos);
}

TEST(Yaml, DuplicateKeysInLargeMappings) {
  std::string text;
  for (int i = 0; i < 100; ++i)
    text += "k" + std::to_string(i) + ": v\n";
  text += "k42: again\n";
  ParseError err = parse_fails(text);
  EXPECT_EQ(err.position.line, 101u);
}

TEST(Yaml, DuplicateKeysDifferingOnlyInQuotingAreErrors) {
  ParseError err = parse_fails("a: 1\n\"a\": 2\n");
  EXPECT_EQ(err.position.line, 2u);
}

TEST(Yaml, AliasesShareTheAnchoredNode) {
  auto docs = parse_ok("base: &b {x: 1}\nuse: *b\nname: &n linkerd-proxy\nagain: *n\n");
  Node root = docs[0].root;
  EXPECT_EQ(root.get("use").get("x").text(), "1");
  EXPECT_EQ(root.get("use"), root.get("base"));
  EXPECT_EQ(root.get("again").text(), "linkerd-proxy");
}

// YAML 1.1 merge keys, as go-yaml (kubectl) applies them: explicit keys override merged ones.
TEST(Yaml, MergeKeys) {
  auto docs = parse_ok(
      "base: &b {x: 1, y: 2}\nother: &o {y: 3, z: 4}\n"
      "m:\n  <<: [*b, *o]\n  x: 9\n");
  Node m = docs[0].root.get("m");
  EXPECT_EQ(m.size(), 3u);
  EXPECT_EQ(m.get("x").text(), "9");
  EXPECT_EQ(m.get("y").text(), "2");
  EXPECT_EQ(m.get("z").text(), "4");
  EXPECT_FALSE(m.get("<<"));
}

TEST(Yaml, MergeKeyNeedsMappings) {
  ParseError err = parse_fails("m:\n  <<: 3\n");
  EXPECT_NE(err.message.find("merge key"), std::string::npos);
}

TEST(Yaml, UnknownAliasIsAnError) {
  ParseError err = parse_fails("a: *nope\n");
  EXPECT_EQ(err.position.line, 1u);
  EXPECT_NE(err.message.find("unknown anchor 'nope'"), std::string::npos);
}

TEST(Yaml, AliasToAnIncompleteAnchorIsAnErrorNotACycle) {
  ParseError err = parse_fails("a: &x [1, *x]\n");
  EXPECT_NE(err.message.find("unknown anchor 'x'"), std::string::npos);
}

TEST(Yaml, BillionLaughsIsRefused) {
  std::string text =
      "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
  char prev = 'a';
  for (char c = 'b'; c <= 'i'; ++c, ++prev) {
    text += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 9; ++i)
      text += std::string(i ? "," : "") + "*" + prev;
    text += "]\n";
  }
  ParseError err = parse_fails(text);
  EXPECT_NE(err.message.find("alias bomb"), std::string::npos);
}

TEST(Yaml, DeepNestingIsRefused) {
  std::string text(100'000, '[');
  text += std::string(100'000, ']');
  ParseError err = parse_fails(text);
  EXPECT_EQ(err.position.line, 1u);
  EXPECT_EQ(err.position.column, 513u);
  EXPECT_NE(err.message.find("nesting deeper than 512"), std::string::npos);
}

TEST(Yaml, TabIndentationIsAnError) {
  ParseError err = parse_fails("metadata:\n\tname: x\n");
  EXPECT_EQ(err.position.line, 2u);
  EXPECT_NE(err.message.find("cannot start any token"), std::string::npos);
}

TEST(Yaml, InvalidUtf8ReportsItsLine) {
  ParseError err = parse_fails("a: b\nc: \xff\xfe\n");
  EXPECT_EQ(err.position.line, 2u);
  EXPECT_EQ(err.position.column, 4u);
  EXPECT_NE(err.message.find("UTF-8"), std::string::npos);
}

TEST(Yaml, TruncatedFlowIsAnError) {
  ParseError err = parse_fails("a: [1, 2\n");
  EXPECT_GE(err.position.line, 1u);
  EXPECT_FALSE(err.message.empty());
}

TEST(Yaml, MultipleDocumentsWithPreambles) {
  std::string text =
      "# Source: chart/templates/a.yaml\nkind: A\n---\n# Source: chart/templates/b.yaml\n"
      "kind: B\n---\n---\n# only a comment\n";
  auto docs = parse_ok(text);
  ASSERT_EQ(docs.size(), 4u);
  EXPECT_EQ(docs[0].root.get("kind").text(), "A");
  std::string_view view(text);
  std::string_view pre0 = view.substr(docs[0].preamble_begin, docs[0].root_begin);
  EXPECT_NE(pre0.find("a.yaml"), std::string_view::npos);
  std::string_view pre1 =
      view.substr(docs[1].preamble_begin, docs[1].root_begin - docs[1].preamble_begin);
  EXPECT_NE(pre1.find("b.yaml"), std::string_view::npos);
  EXPECT_EQ(pre1.find("a.yaml"), std::string_view::npos);
  EXPECT_TRUE(docs[2].root.is_null());
  EXPECT_TRUE(docs[3].root.is_null());
}

TEST(Yaml, JsonInput) {
  auto docs = parse_ok("{\"kind\": \"List\", \"items\": [{\"a\": 1}, {\"b\": [true, null]}]}");
  Node items = docs[0].root.get("items");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items.item(1).get("b").item(0).text(), "true");
  EXPECT_TRUE(items.item(1).get("b").item(1).is_null());
}

TEST(Yaml, ByteRangesCoverTheNode) {
  std::string text = "a:\n  b: [1, 2]\n";
  auto docs = parse_ok(text);
  Node b = docs[0].root.get("a").get("b");
  EXPECT_EQ(std::string_view(text).substr(b.begin_offset(), b.end_offset() - b.begin_offset()),
            "[1, 2]");
}

// libyaml reports marks in characters; ranges must be bytes even after multi-byte text, a BOM,
// or in a chunk that starts mid-stream.
TEST(Yaml, ByteRangesAreBytesAfterMultiByteCharacters) {
  std::string text =
      "\xef\xbb\xbf# caf\xc3\xa9 \xf0\x9f\x90\xb3\nname: \"\xc3\xa9t\xc3\xa9\"\nimage: "
      "nginx:1.25\n";
  auto docs = parse_ok(text);
  for (std::string_view key : {"name", "image"}) {
    Node n = docs[0].root.get(key);
    std::string_view range =
        std::string_view(text).substr(n.begin_offset(), n.end_offset() - n.begin_offset());
    EXPECT_EQ(range, key == "name" ? "\"\xc3\xa9t\xc3\xa9\"" : "nginx:1.25");
  }
  std::string chunk = "k: \xc3\xa9\nv: x\n";
  auto chunked = parse_chunk(chunk, ChunkStart{100, 7});
  ASSERT_TRUE(chunked.has_value());
  Node v = (*chunked)[0].root.get("v");
  EXPECT_EQ(v.begin_offset(), 100u + chunk.find('x'));
  EXPECT_EQ(v.position().line, 8u);
}

// The offset of a mark is found by skipping whole 8-byte words of UTF-8; characters of two,
// three and four bytes straddle the word boundaries here.
TEST(Yaml, ByteRangesAfterLongRunsOfMultiByteCharacters) {
  std::string text = "a: \"";
  for (int i = 0; i < 9; ++i)
    text += "\xc3\xa9\xe2\x82\xac\xf0\x9f\x90\xb3z";  // é € 🐳 z
  text += "\"\nname: value\nlist: [x1, \"\xc3\xa9\", x2]\n";
  auto docs = parse_ok(text);
  Node name = docs[0].root.get("name");
  EXPECT_EQ(name.begin_offset(), text.find("value"));
  EXPECT_EQ(name.end_offset(), text.find("value") + 5);
  Node list = docs[0].root.get("list");
  EXPECT_EQ(list.item(2).begin_offset(), text.find("x2"));
  EXPECT_EQ(list.item(1).begin_offset(), text.find("\"\xc3\xa9\", x2"));
}

// Scalars of 64 KiB and more keep the buffer libyaml built them in instead of being copied; the
// text must be the same either way, next to short scalars and after them.
TEST(Yaml, LongScalarsKeepTheirText) {
  std::string plain(size_t{200} * 1024, 'p');
  std::string quoted(size_t{100} * 1024, 'q');
  std::string text = "short: a\nlong: " + plain + "\nquoted: \"" + quoted + "\\tend\"\nlist: [" +
                     plain + ", b]\nafter: c\n";
  auto docs = parse_ok(text);
  Node root = docs[0].root;
  EXPECT_EQ(root.get("short").text(), "a");
  EXPECT_EQ(root.get("long").text(), plain);
  EXPECT_EQ(root.get("quoted").text(), quoted + "\tend");
  EXPECT_EQ(root.get("list").item(0).text(), plain);
  EXPECT_EQ(root.get("list").item(1).text(), "b");
  EXPECT_EQ(root.get("after").text(), "c");
  EXPECT_EQ(root.get("after").begin_offset(), text.size() - 2);
}

// Documents parsed together share a tree; each keeps its own root and preamble.
TEST(Yaml, DocumentsOfOneParseShareATree) {
  auto docs = parse_ok("---\na: 1\n---\nb: 2\n");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0].tree, docs[1].tree);
  EXPECT_EQ(docs[1].root.get("b").text(), "2");
  EXPECT_FALSE(docs[1].root.get("a"));
}

// Scalars of one parse with the same text share one copy of it, whatever their style or
// document; different texts keep their own.
TEST(Yaml, EqualScalarsShareTheirText) {
  auto docs = parse_ok("---\na: x\nb: 'x'\nc: xy\nd: ''\n---\nname: x\ne: \"\"\n");
  ASSERT_EQ(docs.size(), 2u);
  Node first = docs[0].root;
  std::string_view x = first.get("a").text();
  EXPECT_EQ(x, "x");
  EXPECT_EQ(first.get("b").text().data(), x.data());
  EXPECT_EQ(docs[1].root.get("name").text().data(), x.data());
  EXPECT_EQ(first.get("c").text(), "xy");
  EXPECT_NE(first.get("c").text().data(), x.data());
  EXPECT_EQ(first.get("d").text(), "");
  EXPECT_EQ(docs[1].root.get("e").text(), "");
}

// 2,000 distinct texts grow the table of texts and the arena many times; each repeat after
// that still finds its first copy.
TEST(Yaml, EqualScalarsShareTheirTextAfterGrowth) {
  std::string text = "---\n";
  for (int i = 0; i < 1000; ++i)
    text += "k" + std::to_string(i) + ": v" + std::to_string(i) + "\n";
  text += "---\n";
  for (int i = 0; i < 1000; ++i)
    text += "k" + std::to_string(i) + ": v" + std::to_string(i) + "\n";
  auto docs = parse_ok(text);
  ASSERT_EQ(docs.size(), 2u);
  ASSERT_EQ(docs[1].root.size(), 1000u);
  for (size_t i = 0; i < 1000; ++i) {
    EXPECT_EQ(docs[1].root.key(i).text(), "k" + std::to_string(i));
    EXPECT_EQ(docs[1].root.value(i).text(), "v" + std::to_string(i));
    EXPECT_EQ(docs[1].root.value(i).text().data(), docs[0].root.value(i).text().data());
  }
}

TEST(Yaml, EmptyStreamHasNoDocuments) {
  EXPECT_TRUE(parse_ok("").empty());
  EXPECT_TRUE(parse_ok(std::string_view()).empty());  // a null view, as Node::str() gives
  EXPECT_TRUE(parse_ok("# just a comment\n").empty());
}

}  // namespace
}  // namespace footprint::yaml
