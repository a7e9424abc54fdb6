#include "model/selector.h"

#include <gtest/gtest.h>

namespace footprint {
namespace {

LabelSelector selector(std::string_view yaml_text) {
  auto docs = yaml::parse(yaml_text);
  EXPECT_TRUE(docs.has_value());
  static std::vector<yaml::Document> keep;  // nodes must outlive the parse
  keep.push_back(std::move(docs->front()));
  auto s = parse_label_selector(keep.back().root);
  EXPECT_TRUE(s.has_value()) << (s ? "" : s.error());
  return s ? *s : LabelSelector{};
}

std::string selector_error(std::string_view yaml_text) {
  auto docs = yaml::parse(yaml_text);
  auto s = parse_label_selector(docs->front().root);
  EXPECT_FALSE(s.has_value());
  return s ? "" : s.error();
}

const Labels kTeamA = {{"kubernetes.io/metadata.name", "team-a"}, {"env", "prod"}};
const Labels kNone = {};

// Semantics from https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/
// ("Set-based requirement": notin also selects resources without the key; exists/!key test
// only presence) and the LabelSelector API reference (requirements are ANDed; an empty
// selector matches all objects).
TEST(Selector, In) {
  LabelSelector s = selector("matchExpressions: [{key: env, operator: In, values: [prod, dev]}]");
  EXPECT_TRUE(s.matches(kTeamA));
  EXPECT_FALSE(s.matches(kNone));
  EXPECT_FALSE(s.matches({{"env", "staging"}}));
}

TEST(Selector, NotInMatchesObjectsWithoutTheKey) {
  LabelSelector s = selector("matchExpressions: [{key: env, operator: NotIn, values: [prod]}]");
  EXPECT_FALSE(s.matches(kTeamA));
  EXPECT_TRUE(s.matches(kNone));
  EXPECT_TRUE(s.matches({{"env", "dev"}}));
  EXPECT_TRUE(s.only_exclusions());
}

TEST(Selector, ExistsAndDoesNotExist) {
  LabelSelector exists = selector("matchExpressions: [{key: env, operator: Exists}]");
  EXPECT_TRUE(exists.matches(kTeamA));
  EXPECT_FALSE(exists.matches(kNone));
  EXPECT_FALSE(exists.only_exclusions());
  LabelSelector missing = selector("matchExpressions: [{key: env, operator: DoesNotExist}]");
  EXPECT_FALSE(missing.matches(kTeamA));
  EXPECT_TRUE(missing.matches(kNone));
  EXPECT_TRUE(missing.only_exclusions());
}

TEST(Selector, MatchLabelsAndExpressionsAreAnded) {
  LabelSelector s = selector(
      "matchLabels: {kubernetes.io/metadata.name: team-a}\n"
      "matchExpressions: [{key: env, operator: In, values: [dev]}]");
  EXPECT_FALSE(s.matches(kTeamA));
  EXPECT_TRUE(s.matches({{"kubernetes.io/metadata.name", "team-a"}, {"env", "dev"}}));
  EXPECT_FALSE(s.only_exclusions());
}

TEST(Selector, EmptyMatchesEverythingAbsentIsMarked) {
  LabelSelector empty = selector("{}");
  EXPECT_FALSE(empty.absent);
  EXPECT_TRUE(empty.empty());
  EXPECT_TRUE(empty.matches(kNone));
  EXPECT_TRUE(empty.matches(kTeamA));
  EXPECT_FALSE(empty.only_exclusions());
  auto null_selector = parse_label_selector(yaml::Node{});
  ASSERT_TRUE(null_selector.has_value());
  EXPECT_TRUE(null_selector->absent);
}

TEST(Selector, InvalidSelectors) {
  EXPECT_NE(selector_error("matchExpressions: [{key: a, operator: In}]").find("needs values"),
            std::string::npos);
  EXPECT_NE(selector_error("matchExpressions: [{key: a, operator: Exists, values: [x]}]")
                .find("must not have values"),
            std::string::npos);
  EXPECT_NE(selector_error("matchExpressions: [{key: a, operator: Gt, values: ['1']}]")
                .find("unknown operator"),
            std::string::npos);
  EXPECT_NE(selector_error("[a]").find("mapping"), std::string::npos);
}

TEST(Selector, ToString) {
  EXPECT_EQ(selector("{}").to_string(), "<everything>");
  EXPECT_EQ(selector("matchLabels: {a: b}\nmatchExpressions: [{key: c, operator: NotIn, values: "
                     "[x, y]}, {key: d, operator: DoesNotExist}]")
                .to_string(),
            "a=b,c notin (x,y),!d");
}

}  // namespace
}  // namespace footprint
