// Expected values come from the code kubectl runs, read at its source:
// - kubernetes-sigs/yaml yaml.go: YAMLToJSON = yaml.Unmarshal (go-yaml v2) into interface{},
//   convertToJSONableObject (int keys via strconv.Itoa, float keys via FormatFloat(f, 'g', -1,
//   32), bool keys "true"/"false", other key types an error), then json.Marshal.
// - go-yaml v2 resolve.go: resolveMap (y/Y/yes/Yes/YES/true/True/TRUE/on/On/ON, the same for
//   false, ~/null/Null/NULL/"" as null, .nan and [+-].inf), the first-character hint, "_"
//   removed before strconv.ParseInt(plain, 0, 64), then ParseUint, then yamlStyleFloat;
//   decode.go keeps timestamps as their text when decoding into interface{}.
// - Go encoding/json encode.go: appendString escapes <, >, & as \u003c, \u003e, \u0026, U+2028
//   and U+2029, writes \b \f \n \r \t short and other control bytes as \u00XX, replaces invalid
//   UTF-8 with \ufffd and keeps other non-ASCII text; floatEncoder uses 'e' below 1e-6 and from
//   1e21 and trims e-07 to e-7; NaN and infinities are an UnsupportedValueError; map keys are
//   sorted.
// - apimachinery unstructured helpers.go: kubectl's unstructured decoder reads integral numbers
//   that fit int64 as int64 and json.NewEncoder(w).Encode writes them back.
// - kubectl pkg/util/apply.go GetModifiedConfiguration: the annotation value is the object
//   encoded (with its other annotations, an empty map when none) by that encoder, whose
//   Encode ends with "\n"; cli-runtime's SetNamespace and FilterNamespace set or clear
//   metadata.namespace before that.
#include "model/kubectl_json.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;

// The JSON of the value of key `v` in a one-key document.
std::string value_json(std::string_view yaml_value) {
  auto docs = yaml::parse(fmt::format("v: {}\n", yaml_value));
  EXPECT_TRUE(docs.has_value());
  if (!docs) return "<parse error>";
  auto json = kubectl_json(docs->front().root.get("v"));
  return json ? *json : "error: " + json.error().message;
}

std::string doc_json(std::string_view yaml) {
  auto docs = yaml::parse(yaml);
  EXPECT_TRUE(docs.has_value());
  if (!docs) return "<parse error>";
  auto json = kubectl_json(docs->front().root);
  return json ? *json : "error: " + json.error().message;
}

TEST(KubectlJson, Yaml11Booleans) {
  for (const char* t : {"y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE"})
    EXPECT_EQ(value_json(t), "true") << t;
  for (const char* f : {"n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False"})
    EXPECT_EQ(value_json(f), "false") << f;
  EXPECT_EQ(value_json("yEs"), "\"yEs\"");
  EXPECT_EQ(value_json("'yes'"), "\"yes\"");
  EXPECT_EQ(value_json("!!str on"), "\"on\"");
}

// resolveMap lists each word in three spellings only: lower case, capitalized, upper case.
TEST(KubectlJson, Yaml11WordsInNoOtherCase) {
  for (const char* s : {"yES", "yeS", "tRUE", "TRue", "oN", "nO", "fALSE", "FALSe", "oFF", "OfF",
                        "nULL", "NuLL", "nulL", "~~", "Nan", ".nAn", "+.iNf", "+inf", "--.inf"})
    EXPECT_EQ(value_json(s), fmt::format("\"{}\"", s)) << s;
  EXPECT_EQ(value_json("Off"), "false");
  EXPECT_EQ(value_json("NULL"), "null");
  EXPECT_EQ(doc_json("No: 1\nnone: 2\nTrue: 3\n"), "{\"false\":1,\"none\":2,\"true\":3}");
}

TEST(KubectlJson, Nulls) {
  for (const char* n : {"~", "null", "Null", "NULL", ""})
    EXPECT_EQ(value_json(n), "null") << n;
  EXPECT_EQ(value_json("nULL"), "\"nULL\"");
  EXPECT_EQ(value_json("\"null\""), "\"null\"");
}

TEST(KubectlJson, IntegersFollowStrconvBaseZero) {
  EXPECT_EQ(value_json("0x1F"), "31");
  EXPECT_EQ(value_json("-0x1F"), "-31");
  EXPECT_EQ(value_json("0o17"), "15");  // Go's ParseInt, not YAML 1.1
  EXPECT_EQ(value_json("0777"), "511");
  EXPECT_EQ(value_json("0b101"), "5");
  EXPECT_EQ(value_json("1_000"), "1000");
  EXPECT_EQ(value_json("+5"), "5");
  EXPECT_EQ(value_json("-0"), "0");
  EXPECT_EQ(value_json("9223372036854775807"), "9223372036854775807");
  // Not octal: ParseInt and ParseUint fail, yamlStyleFloat matches, so the float 8.
  EXPECT_EQ(value_json("08"), "8");
  // Past int64, ParseUint gives a uint64; kubectl's decoder then reads it as float64.
  EXPECT_EQ(value_json("9223372036854775808"), "9223372036854775808");
  EXPECT_EQ(value_json("18446744073709551615"), "18446744073709551616");
  EXPECT_EQ(value_json("0x"), "\"0x\"");
  EXPECT_EQ(value_json("1:30"), "\"1:30\"");  // no sexagesimal numbers in go-yaml v2
  EXPECT_EQ(value_json("2001-12-14"), "\"2001-12-14\"");
  EXPECT_EQ(value_json("0x10000000000000000"),
            "error: the integer 0x10000000000000000 does not fit in 64 bits");
}

TEST(KubectlJson, FloatsAreWrittenTheGoWay) {
  EXPECT_EQ(value_json("1.0"), "1");
  EXPECT_EQ(value_json("100.0"), "100");
  EXPECT_EQ(value_json("1.5"), "1.5");
  EXPECT_EQ(value_json("1e3"), "1000");
  EXPECT_EQ(value_json("1E3"), "1000");
  EXPECT_EQ(value_json("1."), "1");
  EXPECT_EQ(value_json(".5"), "0.5");
  EXPECT_EQ(value_json("-.5"), "-0.5");
  EXPECT_EQ(value_json("0.000001"), "0.000001");
  EXPECT_EQ(value_json("1.5e-7"), "1.5e-7");
  EXPECT_EQ(value_json("1e21"), "1e+21");
  EXPECT_EQ(value_json("1e20"), "100000000000000000000");
  EXPECT_EQ(value_json("0.1"), "0.1");
  EXPECT_EQ(value_json("-0.0"), "0");
  EXPECT_EQ(value_json("1e400"), "\"1e400\"");  // ParseFloat's ErrRange: left a string
  EXPECT_EQ(value_json("!!float 1"), "1");
  EXPECT_EQ(value_json("!!int \"0x10\""), "16");
}

TEST(KubectlJson, NanAndInfinityCannotBeSent) {
  for (const char* v : {".nan", ".NaN", ".inf", "-.Inf", "+.INF"}) {
    EXPECT_TRUE(value_json(v).starts_with("error: ")) << v;
  }
  EXPECT_EQ(value_json(".infinity"), "\".infinity\"");
  EXPECT_EQ(value_json("!!int abc"), "error: kubectl cannot decode `abc` as a !!int");
}

TEST(KubectlJson, StringEscapes) {
  EXPECT_EQ(value_json("\"<a href='x'>&amp;</a>\""),
            "\"\\u003ca href='x'\\u003e\\u0026amp;\\u003c/a\\u003e\"");
  EXPECT_EQ(value_json("\"\\b\\f\\n\\r\\t\\x01\\x7f\""), "\"\\b\\f\\n\\r\\t\\u0001\x7f\"");
  EXPECT_EQ(value_json("'say \"hi\" \\ bye'"), "\"say \\\"hi\\\" \\\\ bye\"");
  EXPECT_EQ(value_json("\"\\u2028 \\u2029\""), "\"\\u2028 \\u2029\"");
  EXPECT_EQ(value_json("\"é 中 😀\""), "\"é 中 😀\"");
  EXPECT_EQ(value_json("!!binary aGk="), "\"hi\"");
  EXPECT_EQ(value_json("!!binary /w=="), "\"\\ufffd\"");  // 0xFF is not UTF-8
}

// Strings of every length around the eight-byte steps of the encoder, with each byte that needs
// an escape at every position: the size is the text's, and the escapes are encoding/json's.
TEST(KubectlJson, EscapesAtEveryPosition) {
  const std::pair<std::string, std::string> escapes[] = {
      {"\"", "\\\""},      {"\\", "\\\\"},           {"<", "\\u003c"},
      {">", "\\u003e"},    {"&", "\\u0026"},         {"\n", "\\n"},
      {"\x01", "\\u0001"}, {"\x1f", "\\u001f"},      {"\xe2\x80\xa8", "\\u2028"},
      {"\xff", "\\ufffd"}, {"\xc3\xa9", "\xc3\xa9"}, {"\x7f", "\x7f"},
      {" ", " "}};
  for (const auto& [raw, escaped] : escapes) {
    for (size_t before = 0; before < 18; ++before) {
      for (size_t after : {size_t{0}, size_t{7}, size_t{9}}) {
        std::string text = std::string(before, 'a') + raw + std::string(after, 'b');
        EXPECT_EQ(go_json_string(text),
                  "\"" + std::string(before, 'a') + escaped + std::string(after, 'b') + "\"")
            << before << " " << after << " " << escaped;
      }
    }
  }
}

TEST(KubectlJson, KeysAreConvertedAndSorted) {
  EXPECT_EQ(doc_json("b: 1\na: 2\nB: 3\naa: 4\n\"é\": 5\n"),
            "{\"B\":3,\"a\":2,\"aa\":4,\"b\":1,\"é\":5}");
  EXPECT_EQ(doc_json("yes: a\n0x10: b\n1.5: c\n1000000.0: d\n"),
            "{\"1.5\":\"c\",\"16\":\"b\",\"1e+06\":\"d\",\"true\":\"a\"}");
  // y and n are booleans to go-yaml v2, keys included: `name: y` reaches the API server as true.
  EXPECT_EQ(doc_json("y: 1\nn: 2\nname: y\n"), "{\"false\":2,\"name\":true,\"true\":1}");
  EXPECT_TRUE(doc_json("~: x\n").starts_with("error: "));
  EXPECT_TRUE(doc_json("18446744073709551615: x\n").starts_with("error: "));
}

TEST(KubectlJson, AliasesAndMergeKeysAreExpanded) {
  EXPECT_EQ(doc_json("base: &b {x: 1}\nd: {<<: *b, z: [*b]}\n"),
            "{\"base\":{\"x\":1},\"d\":{\"x\":1,\"z\":[{\"x\":1}]}}");
}

TEST(KubectlJson, SizeMatchesText) {
  const char* yaml = "a: [1, 2.50, yes, ~, \"<é>\", {z: 1, w: '\\'}]\nb: {c: !!binary aGk=}\n";
  auto docs = yaml::parse(yaml);
  ASSERT_TRUE(docs);
  auto text = kubectl_json(docs->front().root);
  auto size = kubectl_json_size(docs->front().root);
  ASSERT_TRUE(text && size);
  EXPECT_EQ(*size, text->size());
  EXPECT_EQ(*text,
            "{\"a\":[1,2.5,true,null,\"\\u003cé\\u003e\",{\"w\":\"\\\\\",\"z\":1}],"
            "\"b\":{\"c\":\"hi\"}}");
}

TEST(KubectlJson, EditsSetRemoveAndCreate) {
  auto docs = yaml::parse("metadata: {name: x, namespace: y}\nspec: {}\n");
  ASSERT_TRUE(docs);
  std::vector<JsonEdit> edits = {
      {"metadata", JsonEdit::Op::kNested, "", {{"namespace", JsonEdit::Op::kRemove, "", {}}}},
      {"spec", JsonEdit::Op::kNested, "", {{"a", JsonEdit::Op::kSet, "1", {}}}},
      {"status", JsonEdit::Op::kNested, "", {{"b", JsonEdit::Op::kSet, "true", {}}}},
  };
  EXPECT_EQ(*kubectl_json(docs->front().root, edits),
            "{\"metadata\":{\"name\":\"x\"},\"spec\":{\"a\":1},\"status\":{\"b\":true}}");
  EXPECT_EQ(*kubectl_json_size(docs->front().root, edits),
            kubectl_json(docs->front().root, edits)->size());
}

TEST(KubectlJson, NamespaceAsKubectlSetsIt) {
  Bundle b = bundle_from(
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\n"
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\n"
      "metadata: {name: r, namespace: ignored}\n",
      "apps");
  EXPECT_EQ(*kubectl_json(b.objects[0].node, kubectl_namespace_edits(b.objects[0])),
            R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","namespace":"apps"}})");
  EXPECT_EQ(
      *kubectl_json(b.objects[1].node, kubectl_namespace_edits(b.objects[1])),
      R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"r"}})");
}

TEST(KubectlJson, LastAppliedAnnotationCountsEveryAnnotation) {
  Bundle b = bundle_from(
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\n"
      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: z\n  annotations: {a: bc}\n",
      "apps");
  auto plain = apply_sizes(b.objects[0]);
  ASSERT_TRUE(plain);
  std::string sent =
      R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","namespace":"apps"}})";
  std::string stored =
      R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"annotations":{},"name":"x","namespace":"apps"}})"
      "\n";
  EXPECT_EQ(plain->json_bytes, sent.size());
  EXPECT_EQ(plain->request_bytes, sent.size() + 1);
  EXPECT_EQ(plain->annotation_bytes, kLastAppliedAnnotation.size() + stored.size());

  auto annotated = apply_sizes(b.objects[1]);
  ASSERT_TRUE(annotated);
  std::string stored_z =
      R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"annotations":{"a":"bc"},"name":"z","namespace":"apps"}})"
      "\n";
  EXPECT_EQ(annotated->annotation_bytes, std::string("a").size() + std::string("bc").size() +
                                             kLastAppliedAnnotation.size() + stored_z.size());
}

// go-yaml v2's resolve table (resolve.go) for untagged plain scalars; quoting or !!str keeps a
// string.
TEST(KubectlJson, ScalarTypes) {
  auto type_of = [](const char* yaml_text) {
    auto docs = yaml::parse(yaml_text);
    EXPECT_TRUE(docs.has_value());
    return std::string(kubectl_scalar_type(docs->front().root.get("v")));
  };
  EXPECT_EQ(type_of("v: 12345"), "int");
  EXPECT_EQ(type_of("v: 0777"), "int");
  EXPECT_EQ(type_of("v: 1e3"), "float");
  EXPECT_EQ(type_of("v: .nan"), "float");
  EXPECT_EQ(type_of("v: yes"), "bool");
  EXPECT_EQ(type_of("v: ~"), "null");
  EXPECT_EQ(type_of("v: \"12345\""), "string");
  EXPECT_EQ(type_of("v: !!str 12345"), "string");
  EXPECT_EQ(type_of("v: !!int 7"), "int");
  EXPECT_EQ(type_of("v: nginx:1.0"), "string");
}

}  // namespace
}  // namespace footprint
