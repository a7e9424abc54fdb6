// The expected messages are Go's encoding/json scanner's (scanner.go: "invalid character %s
// looking for beginning of object key string", "... after object key:value pair", "unexpected
// end of JSON input"), which kubectl prints; positions are counted by hand.
#include "load/json_stream.h"

#include <gtest/gtest.h>

namespace footprint {
namespace {

TEST(JsonStream, OnlyAnInputStartingWithABraceIsJson) {
  EXPECT_TRUE(is_json_stream("{}"));
  EXPECT_TRUE(is_json_stream(" \n\t{\"a\": 1}"));
  EXPECT_FALSE(is_json_stream("a: {b: c}"));
  EXPECT_FALSE(is_json_stream("[{}]"));                 // YAMLOrJSONDecoder checks for '{' only
  EXPECT_FALSE(is_json_stream("{{- if .Values.x }}"));  // a Helm template, not JSON
}

TEST(JsonStream, ConcatenatedAndNewlineDelimitedValues) {
  std::string_view text = "{\"a\": {\"b\": [1, 2.5e3, \"x\\\"}\"]}}{}\n  {\"c\": null}\n";
  JsonStream s = split_json_stream(text);
  ASSERT_FALSE(s.error_position);
  ASSERT_EQ(s.values.size(), 3U);
  EXPECT_EQ(text.substr(s.values[0].begin, s.values[0].end - s.values[0].begin),
            "{\"a\": {\"b\": [1, 2.5e3, \"x\\\"}\"]}}");
  EXPECT_EQ(s.values[1].position.line, 1U);
  EXPECT_EQ(s.values[1].position.column, 33U);
  EXPECT_EQ(s.values[2].position.line, 2U);
  EXPECT_EQ(s.values[2].position.column, 3U);
}

TEST(JsonStream, TrailingCommaIsGosError) {
  JsonStream s = split_json_stream("{\"metadata\": {\"name\": \"x\",}}");
  ASSERT_TRUE(s.error_position);
  EXPECT_EQ(s.error, "invalid character '}' looking for beginning of object key string");
  EXPECT_EQ(s.error_position->line, 1U);
  EXPECT_EQ(s.error_position->column, 27U);
  EXPECT_EQ(split_json_stream("{\"a\": [1,]}").error,
            "invalid character ']' looking for beginning of value");
}

TEST(JsonStream, ValuesBeforeAnErrorAreKept) {
  JsonStream s = split_json_stream("{}\n{\"a\": 1 \"b\": 2}\n{}");
  EXPECT_EQ(s.values.size(), 1U);
  ASSERT_TRUE(s.error_position);
  EXPECT_EQ(s.error, "invalid character '\"' after object key:value pair");
  EXPECT_EQ(s.error_position->line, 2U);
  EXPECT_EQ(s.error_position->column, 9U);
  EXPECT_EQ(split_json_stream("{\"a\": tru}").error,
            "invalid character '}' in literal true (expecting 'e')");
  EXPECT_EQ(split_json_stream("{\"a\": ").error, "unexpected end of JSON input");
  EXPECT_EQ(split_json_stream("{a: 1}").error,
            "invalid character 'a' looking for beginning of object key string");
}

}  // namespace
}  // namespace footprint
