// join_same_rights(): several accounts of one install with the same rights are one finding.
#include "analysis/same_rights.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/analyze.h"
#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::affects;
using testing::bundle_from;

std::string reader(std::string_view name, std::string_view verbs) {
  return fmt::format(R"(---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {{name: {0}}}
rules: [{{apiGroups: [""], resources: [secrets], verbs: [{1}]}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {{name: {0}}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: {0}}}
subjects: [{{kind: ServiceAccount, name: {0}, namespace: ops}}]
)",
                     name, verbs);
}

std::vector<Finding> of_check(const AnalysisResult& result, std::string_view check) {
  std::vector<Finding> out;
  std::copy_if(result.findings.begin(), result.findings.end(), std::back_inserter(out),
               [&](const Finding& f) { return f.check == check; });
  return out;
}

// external-secrets' controller and cert-controller both read every Secret through their own
// ClusterRoles: one cause (the install reads every team's Secrets), one finding naming both. An
// account that only lists them is a different claim and keeps its own finding.
TEST(SameRights, AccountsWithTheSameRightsShareOneFinding) {
  Bundle b =
      bundle_from(reader("controller", "get, list, watch") +
                      reader("cert-controller", "get, list, watch") + reader("lister", "list"),
                  "ops");
  std::vector<Finding> secrets = of_check(analyze(b, Config{}), "rbac-secrets-cluster-wide");
  ASSERT_EQ(secrets.size(), 2u);
  const Finding& both =
      secrets[0].message.find("lister") == std::string::npos ? secrets[0] : secrets[1];
  EXPECT_EQ(affects(both, "subjects"),
            (std::vector<std::string>{"ServiceAccount ops/controller",
                                      "ServiceAccount ops/cert-controller"}));
  EXPECT_TRUE(testing::says(both,
                            "The same holds for ServiceAccount ops/cert-controller "
                            "(through ClusterRole cert-controller)"));
  EXPECT_NE(both.summary.find("(so does ServiceAccount ops/cert-controller)"), std::string::npos);
}

// A cluster's namespaces, each with accounts bound to one ClusterRole that may impersonate the
// namespace's ServiceAccounts: the accounts of a namespace hold the same requests and share one
// rbac-privilege-escalation finding; another namespace's requests differ (Request::describe names
// the namespace), so it keeps its own. Counted by hand: 3 subjects, 2 findings.
TEST(SameRights, EscalationsJoinPerNamespace) {
  std::string yaml = R"(---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: impersonator}
rules: [{apiGroups: [""], resources: [serviceaccounts], verbs: [impersonate]}]
)";
  for (auto [ns, account] : {std::pair{"team-a", "a1"}, {"team-a", "a2"}, {"team-b", "b1"}}) {
    yaml += fmt::format(R"(---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {{name: {1}, namespace: {0}}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: impersonator}}
subjects: [{{kind: ServiceAccount, name: {1}, namespace: {0}}}]
)",
                        ns, account);
  }
  std::vector<Finding> escalations =
      of_check(analyze(bundle_from(yaml, "ops"), Config{}), "rbac-privilege-escalation");
  ASSERT_EQ(escalations.size(), 2u);
  std::vector<std::vector<std::string>> subjects = {affects(escalations[0], "subjects"),
                                                    affects(escalations[1], "subjects")};
  std::sort(subjects.begin(), subjects.end());
  EXPECT_EQ(subjects, (std::vector<std::vector<std::string>>{
                          {"ServiceAccount team-a/a1", "ServiceAccount team-a/a2"},
                          {"ServiceAccount team-b/b1"}}));
  for (const Finding& f : escalations) {
    std::string ns = f.message.find("team-a/a1") != std::string::npos ? "team-a" : "team-b";
    EXPECT_EQ(affects(f, "grants"),
              std::vector<std::string>{"impersonate serviceaccounts in " + ns});
  }
}

}  // namespace
}  // namespace footprint
