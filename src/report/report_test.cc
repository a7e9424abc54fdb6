#include "report/report.h"

#include <gtest/gtest.h>

#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;

constexpr const char* kReportBundle =
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\n  annotations:\n"
    "    kubectl.kubernetes.io/last-applied-configuration: '{\"data\":{\"password\":"
    "\"c2VjcmV0LXZhbHVlLTE=\"}}'\ndata:\n  password: c2VjcmV0LXZhbHVlLTE=\nstringData:\n"
    "  token: plain-secret-value-2\n---\n"
    "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r, "
    "namespace: x}\n";

std::string render(const Bundle& b, Format format) {
  Report report;
  report.bundle = &b;
  report.inventory = take_inventory(b);
  report.analysis = analyze(b, Config{});
  return render_report(report, format, ReportOptions{});
}

TEST(Report, SecretValuesNeverAppear) {
  Bundle b = bundle_from(kReportBundle);
  for (Format f :
       {Format::kText, Format::kJson, Format::kMarkdown, Format::kSarif, Format::kHtml}) {
    std::string out = render(b, f);
    EXPECT_EQ(out.find("c2VjcmV0LXZhbHVlLTE"), std::string::npos);
    EXPECT_EQ(out.find("plain-secret-value-2"), std::string::npos);
  }
}

TEST(Report, JsonHasTheDocumentedShape) {
  Bundle b = bundle_from(kReportBundle, "ops");
  Json j = Json::parse(render(b, Format::kJson));
  EXPECT_EQ(j["schemaVersion"], kJsonSchemaVersion);
  EXPECT_EQ(j["inventory"]["kinds"]["Secret"], 1);
  EXPECT_EQ(j["inventory"]["clusterScoped"]["ClusterRole"], 1);
  EXPECT_EQ(j["inventory"]["namespaced"]["Secret"], 1);
  EXPECT_EQ(j["inventory"]["webhooks"], 0);
  EXPECT_EQ(j["inventory"]["namespaces"]["ops"]["objects"], 1);
  ASSERT_EQ(j["findings"].size(), 1u);
  const Json& f = j["findings"][0];
  EXPECT_EQ(f["check"], "namespace-on-cluster-scoped");
  EXPECT_EQ(f["severity"], "low");
  EXPECT_EQ(f["object"]["kind"], "ClusterRole");
  EXPECT_EQ(f["source"]["file"], "test.yaml");
  EXPECT_EQ(f["source"]["line"], 14);  // metadata.namespace, counted by hand
  EXPECT_FALSE(f["message"].get<std::string>().empty());
  EXPECT_FALSE(f["remediation"].get<std::string>().empty());
}

TEST(Report, SarifAlwaysHasResults) {
  Bundle b = bundle_from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n");
  Json j = Json::parse(render(b, Format::kSarif));
  EXPECT_EQ(j["version"], "2.1.0");
  ASSERT_TRUE(j["runs"][0]["results"].is_array());
  EXPECT_TRUE(j["runs"][0]["results"].empty());
  EXPECT_FALSE(j["runs"][0]["tool"]["driver"]["rules"].empty());
}

TEST(Report, SarifResultsPointAtFileAndLine) {
  Bundle b = bundle_from(kReportBundle);
  Json j = Json::parse(render(b, Format::kSarif));
  const Json& r = j["runs"][0]["results"][0];
  EXPECT_EQ(r["ruleId"], "namespace-on-cluster-scoped");
  EXPECT_EQ(r["level"], "note");
  const Json& loc = r["locations"][0]["physicalLocation"];
  EXPECT_EQ(loc["artifactLocation"]["uri"], "test.yaml");
  EXPECT_EQ(loc["region"]["startLine"], 14);
  const Json& rules = j["runs"][0]["tool"]["driver"]["rules"];
  EXPECT_EQ(rules[r["ruleIndex"].get<int>()]["id"], r["ruleId"]);
}

TEST(Report, TextStartsWithTheFootprint) {
  Bundle b = bundle_from(kReportBundle);
  std::string out = render(b, Format::kText);
  EXPECT_LT(out.find("Install footprint"), out.find("Findings: 1 low"));
  EXPECT_NE(out.find("2 objects: 1 cluster-scoped, 1 namespaced"), std::string::npos);
  EXPECT_EQ(out.find("\x1b["), std::string::npos);  // no colour unless asked
}

// Sections write list items as "- item"; Markdown keeps the marker a list marker (CommonMark
// reads "\-" as a literal dash) and escapes only the item's text.
TEST(Report, MarkdownListItemsStayLists) {
  Bundle b = bundle_from(kReportBundle);
  Report report;
  report.bundle = &b;
  report.inventory = take_inventory(b);
  report.inventory.hidden_footprint = {"ServiceAccount ops/op_1 may update any CRD."};
  report.analysis = analyze(b, Config{});
  std::string out = render_report(report, Format::kMarkdown, ReportOptions{});
  EXPECT_NE(out.find("\n- ServiceAccount ops/op\\_1 may update any CRD."), std::string::npos)
      << out;
  EXPECT_EQ(out.find("\\- "), std::string::npos);
}

TEST(Report, OutputIsDeterministic) {
  for (Format f :
       {Format::kText, Format::kJson, Format::kMarkdown, Format::kSarif, Format::kHtml}) {
    Bundle a = bundle_from(kReportBundle);
    Bundle b = bundle_from(kReportBundle);
    EXPECT_EQ(render(a, f), render(b, f));
  }
}

// A finding the input's annotation asks to suppress is reported in every format, with the
// request, since by default the input does not judge itself.
TEST(Report, EveryFormatShowsWhatTheChartAsksToSuppress) {
  Bundle b = bundle_from(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: r\n"
      "  namespace: x\n  annotations: {footprint.dev/ignore: \"* -- kept for kustomize\"}\n");
  for (Format f : {Format::kText, Format::kJson, Format::kMarkdown, Format::kSarif, Format::kHtml,
                   Format::kGithub, Format::kJunit}) {
    std::string out = render(b, f);
    EXPECT_NE(out.find("The chart asks to suppress this: kept for kustomize"), std::string::npos)
        << out;
  }
}

// The CI formats list each document that is no object, as JSON and SARIF do.
TEST(Report, GithubAndJunitReportInvalidDocuments) {
  Bundle b = bundle_from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n");
  b.input.invalid_documents.push_back(
      LoadError{"in.yaml", {5, 1}, "Deployment has no metadata.name"});
  std::string github = render(b, Format::kGithub);
  EXPECT_NE(github.find("::error file=in.yaml,line=5,col=1,title=invalid-document::Deployment "
                        "has no metadata.name"),
            std::string::npos)
      << github;
  std::string junit = render(b, Format::kJunit);
  EXPECT_NE(junit.find("<testcase classname=\"footprint.input\" name=\"invalid-document "
                       "in.yaml:5:1\">"),
            std::string::npos)
      << junit;
  EXPECT_NE(junit.find("type=\"invalid-document\""), std::string::npos);
}

}  // namespace
}  // namespace footprint
