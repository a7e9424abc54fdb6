// rbac-resourcenames-list-watch on the hand-written bundles of tests/data/rbac-traps/: each
// verdict argued from the Kubernetes source named beside it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::kClusterWideGrant;
using testing::kRestrictedMode;
using testing::rbac_traps_fixture;
using testing::run_check;

// Leader election never lists: client-go's LeaseLock
// (staging/src/k8s.io/client-go/tools/leaderelection/resourcelock/leaselock.go) calls only Get,
// Create and Update on Leases(namespace) with its one name, so list and watch on a named lease
// are unused verbs and nothing crash-loops. The Secret rule beside it, same shape, is still
// reported (the rule's line counted by hand), medium: nothing else in the bundle shows that op
// lists Secrets (see NoInformerEvidenceIsMedium).
TEST(ResourceNamesListWatch, LeaderElectionLeaseIsNoTrap) {
  auto findings =
      run_check(rbac_traps_fixture("leader-election.yaml"), "rbac-resourcenames-list-watch");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  EXPECT_EQ(findings[0].position.line, 16u);
  EXPECT_NE(findings[0].message.find("secrets"), std::string::npos);
  EXPECT_EQ(findings[0].message.find("leases"), std::string::npos);
}

const Finding* about_subject(const std::vector<Finding>& findings, std::string_view subject) {
  for (const Finding& f : findings) {
    for (const auto& [kind, items] : f.affects) {
      if (kind == "subjects" && std::find(items.begin(), items.end(), subject) != items.end())
        return &f;
    }
  }
  return nullptr;
}

// RequestInfo (staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go) gives a list
// or watch whose field selector requires metadata.name=NAME the name NAME, so a resourceNames rule
// allows a watch of its named objects; only an unnamed list, an informer over the kind, is
// forbidden. An informer lists, then watches (client-go tools/cache/reflector.go, ListAndWatch).
// op may list and watch every Secret in team-a (Role team-a/manager), the rights of an informer
// over Secrets, whose cache across op's namespaces lists op-system's too: high, naming team-a.
// lister may list Secrets in team-a but not watch them, and reader holds nothing on ConfigMaps
// beyond its named one: nothing shows an informer, medium, saying what does work.
TEST(ResourceNamesListWatch, InformerEvidenceDecidesTheSeverity) {
  auto findings =
      run_check(rbac_traps_fixture("informer-evidence.yaml"), "rbac-resourcenames-list-watch");
  ASSERT_EQ(findings.size(), 3u);
  const Finding* op = about_subject(findings, "ServiceAccount op-system/op");
  const Finding* lister = about_subject(findings, "ServiceAccount op-system/lister");
  const Finding* reader = about_subject(findings, "ServiceAccount op-system/reader");
  ASSERT_TRUE(op && lister && reader);
  EXPECT_EQ(op->severity, Severity::kHigh);
  EXPECT_NE(op->message.find("lets it list and watch all secrets in namespace team-a"),
            std::string::npos);
  EXPECT_NE(op->message.find("Role team-a/manager"), std::string::npos);
  for (const Finding* f : {lister, reader}) {
    EXPECT_EQ(f->severity, Severity::kMedium);
    EXPECT_NE(f->message.find("only a watch of the named objects through that field selector "
                              "works; an informer over the kind is forbidden"),
              std::string::npos);
  }
  EXPECT_NE(reader->message.find("configmaps"), std::string::npos);
}

// rbac docs, "Referring to resources": list/watch restricted by resourceNames need a
// metadata.name field selector, which an informer's list does not send. Nothing else in this
// bundle lets the account list or watch Secrets anywhere, so nothing shows an informer over
// them: medium, saying what works (tests/data/rbac-traps/informer-evidence.yaml has the high
// case).
TEST(ResourceNamesListWatch, MediumWhenNothingElseAllowsTheListAndNothingShowsAnInformer) {
  Bundle b = bundle_from(kRestrictedMode, "dynamo-system");
  auto findings = run_check(b, "rbac-resourcenames-list-watch");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  EXPECT_EQ(findings[0].object.name, "cert-rotator");
  EXPECT_EQ(findings[0].position.line, 10u);  // the rule, counted by hand
  EXPECT_NE(findings[0].message.find("only a watch of the named objects through that field "
                                     "selector works; an informer over the kind is forbidden"),
            std::string::npos);
  EXPECT_NE(findings[0].message.find("ServiceAccount dynamo-system/controller-manager"),
            std::string::npos);
  EXPECT_NE(findings[0].remediation.find("footprint fix rbac"), std::string::npos);
}

// The same rule is enough for an operator that lists and watches its one Secret with the field
// selector metadata.name (RequestInfo takes the name from that selector, requestinfo.go), as
// cert-manager's webhook does with the Secret its --dynamic-serving-ca-secret-name argument
// names. A container naming the object is that sign: low, worded as a condition. A name
// inside a longer word is not (medium, nothing shown either way).
TEST(ResourceNamesListWatch, LowWhenTheContainersNameTheObject) {
  auto deployment = [](const char* args) {
    return fmt::format(R"(
---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: manager, namespace: dynamo-system}}
spec:
  selector: {{matchLabels: {{app: m}}}}
  template:
    metadata: {{labels: {{app: m}}}}
    spec:
      serviceAccountName: controller-manager
      containers: [{{name: m, image: x, args: {}}}]
)",
                       args);
  };
  auto named = run_check(
      bundle_from(std::string(kRestrictedMode) + deployment("[--cert-secret=webhook-server-cert]"),
                  "dynamo-system"),
      "rbac-resourcenames-list-watch");
  ASSERT_EQ(named.size(), 1u);
  EXPECT_EQ(named[0].severity, Severity::kLow);
  EXPECT_NE(named[0].message.find("`--cert-secret=webhook-server-cert`"), std::string::npos);
  EXPECT_NE(named[0].summary.find("fine for a field-selector watch"), std::string::npos);
  auto longer = run_check(
      bundle_from(std::string(kRestrictedMode) + deployment("[--dir=/webhook-server-certs]"),
                  "dynamo-system"),
      "rbac-resourcenames-list-watch");
  ASSERT_EQ(longer.size(), 1u);
  EXPECT_EQ(longer[0].severity, Severity::kMedium);
}

// The cluster-wide mode's ClusterRole lets the same account list Secrets everywhere: the
// restriction is dead code, an info-level tidy-up that names the covering rule.
TEST(ResourceNamesListWatch, InfoWhenAnotherRuleCoversIt) {
  Bundle b = bundle_from(std::string(kRestrictedMode) + kClusterWideGrant, "dynamo-system");
  auto findings = run_check(b, "rbac-resourcenames-list-watch");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kInfo);
  EXPECT_NE(findings[0].message.find("ClusterRole manager (through ClusterRoleBinding manager)"),
            std::string::npos);
  EXPECT_NE(findings[0].message.find("dead code"), std::string::npos);
}

TEST(ResourceNamesListWatch, UnboundRoleIsLow) {
  Bundle b = bundle_from(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: a}\n"
      "rules:\n- apiGroups: ['']\n  resources: [configmaps]\n  resourceNames: [x]\n  verbs: "
      "[watch]\n");
  auto findings = run_check(b, "rbac-resourcenames-list-watch");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
}

}  // namespace
}  // namespace footprint
