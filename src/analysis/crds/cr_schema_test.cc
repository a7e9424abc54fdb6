// cr-schema-invalid and cr-rules-unchecked over a bundle that ships its CRD, and against a CRD of
// the cluster snapshot. The schema rules themselves are pinned in models/crd_schema_test.cc.
#include <gtest/gtest.h>

#include "analysis/check_testing.h"
#include "model/cluster.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

constexpr std::string_view kCrd = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: engines.example.com}
spec:
  group: example.com
  names: {kind: Engine, plural: engines}
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: false
    storage: false
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations: [{rule: "self.replicas <= 5"}]
            properties:
              replicas: {type: integer, maximum: 10}
              mode: {type: string, enum: [fast, safe]}
)";

TEST(CrSchemaInvalid, ViolationAtTheFieldWithKubernetesWording) {
  Bundle b = bundle_from(std::string(kCrd) + R"(---
apiVersion: example.com/v1
kind: Engine
metadata: {name: e, namespace: ops}
spec:
  replicas: 11
  mode: turbo
  colour: red
status: {anything: 1}
)");
  std::vector<Finding> findings = run_check(b, "cr-schema-invalid");
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_EQ(findings[0].position.line, 32u);
  EXPECT_EQ(findings[0].position.column, 13u);
  EXPECT_NE(findings[0].message.find("`spec.replicas: Invalid value: 11: spec.replicas in body "
                                     "should be less than or equal to 10`"),
            std::string::npos)
      << findings[0].message;
  EXPECT_NE(findings[0].message.find("1 x-kubernetes-validations rule"), std::string::npos);
  EXPECT_NE(findings[1].message.find(
                "Unsupported value: \"turbo\": supported values: \"fast\", \"safe\""),
            std::string::npos);
  EXPECT_EQ(findings[2].severity, Severity::kMedium);
  EXPECT_NE(findings[2].message.find("unknown field \"spec.colour\""), std::string::npos);

  std::vector<Finding> rules = run_check(b, "cr-rules-unchecked");
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_NE(rules[0].message.find("1 x-kubernetes-validations rule (CEL)"), std::string::npos)
      << rules[0].message;
}

// A version the CRD defines without serving it, or not at all, is not in discovery: kubectl and
// Helm fail with "no matches for kind".
TEST(CrSchemaInvalid, VersionMustBeServed) {
  Bundle b = bundle_from(std::string(kCrd) + R"(---
apiVersion: example.com/v1alpha1
kind: Engine
metadata: {name: old}
---
apiVersion: example.com/v2
kind: Engine
metadata: {name: new}
)");
  std::vector<Finding> findings = run_check(b, "cr-schema-invalid");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_NE(findings[0].message.find("defines it with served: false"), std::string::npos);
  EXPECT_NE(findings[1].message.find("does not define it"), std::string::npos);
  EXPECT_NE(findings[1].message.find("no matches for kind \\\"Engine\\\" in version "
                                     "\\\"example.com/v2\\\""),
            std::string::npos)
      << findings[1].message;
}

// The CRD may come from the cluster snapshot (--cluster) when the bundle does not ship it; a kind
// no CRD defines anywhere stays crd-missing's.
TEST(CrSchemaInvalid, CrdFromTheCluster) {
  std::string snapshot = "apiVersion: v1\nkind: List\nitems:\n- ";
  for (char c : kCrd) {
    snapshot += c;
    if (c == '\n') snapshot += "  ";
  }
  auto cluster = load_cluster_text("cluster.yaml", snapshot);
  ASSERT_TRUE(cluster.has_value());
  Bundle b = bundle_from(
      "apiVersion: example.com/v1\nkind: Engine\nmetadata: {name: e}\nspec: {replicas: 12}\n"
      "---\napiVersion: other.io/v1\nkind: Gadget\nmetadata: {name: g}\n");
  std::vector<Finding> findings = run_check(b, "cr-schema-invalid", {}, &*cluster);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].message.find("(from the cluster snapshot)"), std::string::npos);
  EXPECT_TRUE(run_check(b, "cr-schema-invalid").empty());
}

// The metadata check every object gets (ValidateObjectMetaAccessor) comes before the schema's,
// and a string format is checked as kube-openapi's registry checks it.
TEST(CrSchemaInvalid, MetadataAndFormats) {
  Bundle b = bundle_from(R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: backups.example.com}
spec:
  group: example.com
  names: {kind: Backup, plural: backups}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              start: {type: string, format: date-time}
---
apiVersion: example.com/v1
kind: Backup
metadata: {name: Nightly_Backup}
spec: {start: "tonight"}
)");
  std::vector<Finding> findings = run_check(b, "cr-schema-invalid");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_EQ(findings[0].position.line, 23u);  // the 19 lines of the CRD, ---, apiVersion, kind
  EXPECT_NE(findings[0].message.find("on the metadata check every object gets: "
                                     "`metadata.name: Invalid value: \"Nightly_Backup\": a "
                                     "lowercase RFC 1123 subdomain"),
            std::string::npos)
      << findings[0].message;
  EXPECT_NE(findings[1].message.find("`spec.start: Invalid value: \"tonight\": spec.start in "
                                     "body must be of type date-time: \"tonight\"`"),
            std::string::npos)
      << findings[1].message;
}

}  // namespace
}  // namespace footprint
