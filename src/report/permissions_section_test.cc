// The Permissions section builds only the part a format reads: on a cluster's worth of subjects
// the other part is hundreds of megabytes nobody writes.
#include <gtest/gtest.h>

#include "report/report.h"

namespace footprint {
namespace {

std::vector<SubjectPermissions> one_subject() {
  SubjectPermissions p;
  p.subject = Subject{SubjectKind::kServiceAccount, "op", "ops"};
  p.created_by_bundle = true;
  p.role_bindings = 1;
  PermissionGrant g;
  g.namespace_ = "ops";
  g.verbs = {"get", "list"};
  g.api_groups = {""};
  g.resources = {"secrets"};
  g.risks = {"reads secrets"};
  p.grants.push_back(g);
  return {p};
}

TEST(PermissionsSection, BuildsWhatTheFormatReads) {
  Section both = permissions_section(one_subject());
  ASSERT_EQ(both.blocks.size(), 2u);  // the summary line, then the subject
  EXPECT_EQ(both.blocks[1].lines[0],
            "ServiceAccount ops/op: 0 ClusterRoles, 0 ClusterRoleBindings, 0 Roles, 1 RoleBinding");
  ASSERT_TRUE(both.blocks[1].table);
  EXPECT_EQ(both.blocks[1].table->rows[0],
            (std::vector<std::string>{"ops", "get, list", "secrets", "! reads secrets"}));
  EXPECT_EQ(both.json["subjects"][0]["grants"][0]["resources"][0], "secrets");

  Section text = permissions_section(one_subject(), section_parts(Format::kText));
  EXPECT_EQ(text.blocks.size(), 2u);
  EXPECT_TRUE(text.json.is_null());

  Section json = permissions_section(one_subject(), section_parts(Format::kJson));
  EXPECT_EQ(json.blocks.size(), 1u);  // the summary line alone
  EXPECT_EQ(json.json, both.json);
}

TEST(PermissionsSection, FormatsReadBlocksOrJson) {
  for (Format f : {Format::kText, Format::kMarkdown, Format::kHtml}) {
    EXPECT_TRUE(section_parts(f).blocks);
    EXPECT_FALSE(section_parts(f).json);
  }
  EXPECT_FALSE(section_parts(Format::kJson).blocks);
  EXPECT_TRUE(section_parts(Format::kJson).json);
  for (Format f : {Format::kSarif, Format::kGithub, Format::kJunit}) {
    EXPECT_FALSE(section_parts(f).blocks);
    EXPECT_FALSE(section_parts(f).json);
  }
}

}  // namespace
}  // namespace footprint
