#include "load/skipped.h"

#include <gtest/gtest.h>

#include "load/loader.h"

namespace footprint {
namespace {

std::vector<Skipped> skipped_in(std::string text) {
  auto loaded = load_texts({{"in.yaml", std::move(text)}}, LoadOptions{});
  EXPECT_TRUE(loaded.has_value());
  return loaded ? loaded->skipped : std::vector<Skipped>{};
}

const char* const kOneConfigMap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n";

// A document commented out is counted at its first comment; the comments that close the previous
// document, a trailing `---` and Helm's `# Source:` alone (a template that renders to nothing, or
// the line helm writes before each CRD of crds/) are not documents of their own.
TEST(Skipped, DocumentsOfCommentsOnly) {
  std::vector<Skipped> s =
      skipped_in(std::string(kOneConfigMap) + "---\n\n# apiVersion: v1\n# kind: Secret\n---\n" +
                 kOneConfigMap + "# the end of a\n---\n");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].unit, Skipped::Unit::kDocument);
  EXPECT_EQ(s[0].line, 6u);
  EXPECT_EQ(s[0].reason, "only comments");
  EXPECT_TRUE(skipped_in(std::string("---\n# Source: c/crds/a.yaml\n---\n") + kOneConfigMap +
                         "---\n# Source: c/templates/empty.yaml\n")
                  .empty());
}

TEST(Skipped, SummaryCountsUnitsThenReasonsInOrder) {
  std::vector<Skipped> s = {
      {Skipped::Unit::kObject, "a.yaml", 3, "Pod t", "Helm test hooks"},
      {Skipped::Unit::kFile, "README.md", 0, "", "not .yaml, .yml or .json"},
      {Skipped::Unit::kFile, "NOTES.txt", 0, "", "not .yaml, .yml or .json"},
      {Skipped::Unit::kDocument, "a.yaml", 9, "", "only comments"},
  };
  EXPECT_EQ(skipped_summary(s),
            "2 files, 1 document, 1 object (1 Helm test hooks; 2 not .yaml, .yml or .json; 1 only "
            "comments)");
}

}  // namespace
}  // namespace footprint
