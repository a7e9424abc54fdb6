// Kinds that spell Secret. Kinds are case-sensitive: kubectl's REST mapper matches them exactly
// and fails with NoKindMatchError (k8s.io/apimachinery/pkg/api/meta/errors.go). A CRD's kind is a
// DNS-1035 label once lower-cased (apiextensions-apiserver validation.go,
// ValidateCustomResourceDefinitionNames), so no served kind has white space around it, while a
// CRD may name a kind "secret" in its own group.
#include "model/secrets.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;

yaml::Node root_of(const std::string& text, std::vector<yaml::Document>& keep) {
  auto docs = yaml::parse(text);
  EXPECT_TRUE(docs.has_value());
  if (!docs || docs->empty()) return {};
  keep = std::move(*docs);
  return keep.front().root;
}

TEST(Secrets, SpellingsThatReadAsSecret) {
  for (std::string_view kind : {"Secret", "secret", "SECRET", " Secret", "Secret ", "Secret\t",
                                "\nsEcReT\r", "\xc2\xa0Secret", "Secret\xe2\x80\x8b"}) {
    EXPECT_TRUE(spells_secret(kind)) << kind;
  }
  for (std::string_view kind : {"Secrets", "SecretStore", "Sec ret", "", "ConfigMap"})
    EXPECT_FALSE(spells_secret(kind)) << kind;
}

TEST(Secrets, MisspelledKindsAreInvalidWhereNoKindIsSoSpelled) {
  struct Case {
    const char* api_version;
    const char* kind;  // as written in YAML
    bool invalid;
  };
  const Case cases[] = {
      {"v1", "Secret", false},
      {"v1", "secret", true},
      {"v1", "SECRET", true},
      {"v1", "\" Secret\"", true},
      {"v1", "\"Secret\\t\"", true},
      {"example.com/v1", "\"Secret \"", true},
      // A CRD of example.com may define the kind "secret": its values stay hidden, but the object
      // may be served.
      {"example.com/v1", "secret", false},
      {"v1", "ConfigMap", false},
  };
  for (const Case& c : cases) {
    std::vector<yaml::Document> keep;
    yaml::Node root = root_of(
        fmt::format("apiVersion: {}\nkind: {}\nmetadata: {{name: s}}\n", c.api_version, c.kind),
        keep);
    EXPECT_EQ(misspelled_secret_kind(root).has_value(), c.invalid)
        << c.api_version << " " << c.kind;
    EXPECT_EQ(may_hold_secret_values(root, true), std::string_view(c.kind) != "ConfigMap")
        << c.kind;
  }
}

TEST(Secrets, TheMessageNamesTheKindEscapedAndNoValue) {
  std::vector<yaml::Document> keep;
  yaml::Node root = root_of(
      "apiVersion: v1\nkind: \"Secret\\t\"\nmetadata: {name: s}\nstringData: {p: canary}\n", keep);
  auto error = misspelled_secret_kind(root);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->message,
            "kind \"Secret\\t\" is not Secret: kinds are case-sensitive and hold no spaces, so "
            "kubectl refuses the object (no matches for kind \"Secret\\t\" in version \"v1\"); its "
            "values are never read");
  EXPECT_EQ(error->position.line, 2u);
}

TEST(Secrets, AMisspelledSecretBecomesAnInvalidDocument) {
  Bundle b = bundle_from(
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n---\n"
      "apiVersion: v1\nkind: ' Secret'\nmetadata: {name: s}\nstringData: {p: canary}\n");
  ASSERT_EQ(b.objects.size(), 1u);
  EXPECT_EQ(b.objects[0].kind, "ConfigMap");
  ASSERT_EQ(b.input.invalid_documents.size(), 1u);
  EXPECT_EQ(b.input.invalid_documents[0].position.line, 6u);
}

}  // namespace
}  // namespace footprint
