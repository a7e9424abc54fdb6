// A custom resource's metadata as apimachinery's ValidateObjectMetaAccessor checks it
// (api/validation/objectmeta.go, with NameIsDNSSubdomain as customresource/validator.go passes
// it), its messages from util/validation/validation.go (IsDNS1123Subdomain, IsDNS1123Label).
#include "analysis/models/cr_object_meta.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace footprint {
namespace {

constexpr std::string_view kSubdomainRule =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

std::vector<std::string> errors_of(std::string_view text, bool namespaced) {
  auto docs = yaml::parse(text);
  EXPECT_TRUE(docs.has_value());
  std::vector<std::string> out;
  for (const SchemaViolation& v : object_meta_violations((*docs)[0].root, namespaced))
    out.push_back(v.error);
  return out;
}

TEST(CrObjectMeta, NameIsADnsSubdomain) {
  EXPECT_TRUE(errors_of("metadata: {name: my-engine.v1}", true).empty());
  EXPECT_EQ(errors_of("metadata: {name: My_Engine}", true),
            (std::vector<std::string>{"metadata.name: Invalid value: \"My_Engine\": " +
                                      std::string(kSubdomainRule)}));
  EXPECT_EQ(errors_of("metadata: {name: " + std::string(254, 'a') + "}", true),
            (std::vector<std::string>{"metadata.name: Invalid value: \"" + std::string(254, 'a') +
                                      "\": must be no more than 253 characters"}));
  // A name kubectl cannot put in a URL is the loader's error, not repeated here.
  EXPECT_TRUE(errors_of("metadata: {name: a/b}", true).empty());
}

TEST(CrObjectMeta, NameOrGenerateName) {
  EXPECT_EQ(errors_of("metadata: {namespace: ops}", true),
            (std::vector<std::string>{
                "metadata.name: Required value: name or generateName is required"}));
  // maskTrailingDash: a generateName may end with '-'.
  EXPECT_TRUE(errors_of("metadata: {generateName: engine-}", true).empty());
  EXPECT_EQ(errors_of("metadata: {generateName: Engine-}", true),
            (std::vector<std::string>{"metadata.generateName: Invalid value: \"Engine-\": " +
                                      std::string(kSubdomainRule)}));
}

TEST(CrObjectMeta, Namespace) {
  // Missing: filled in from the request; cluster-scoped: dropped.
  EXPECT_TRUE(errors_of("metadata: {name: a}", true).empty());
  EXPECT_TRUE(errors_of("metadata: {name: a, namespace: Not_A_Label}", false).empty());
  EXPECT_EQ(
      errors_of("metadata: {name: a, namespace: Ops}", true),
      (std::vector<std::string>{
          "metadata.namespace: Invalid value: \"Ops\": a lowercase RFC 1123 label must consist "
          "of lower case alphanumeric characters or '-', and must start and end with an "
          "alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
          "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"}));
}

}  // namespace
}  // namespace footprint
