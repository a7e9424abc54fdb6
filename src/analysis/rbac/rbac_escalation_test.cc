// The escalation checks: wildcards, privilege escalation and takeovers, and bindings to broad
// groups.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analysis/check_testing.h"
#include "analysis/models/rbac_models.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;
using testing::says;

// The field report's operator: "*" verbs on its own API group, the kubebuilder default, is low
// and says which group; "*" resources of a built-in group cluster-wide is high.
TEST(Wildcard, NamesTheGroupAndFollowsItsReach) {
  Bundle b = bundle_from(R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions: [{name: v1, served: true, storage: true}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: own}
rules: [{apiGroups: [example.com], resources: [widgets], verbs: ["*"]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: apps}
rules: [{apiGroups: [apps], resources: ["*"], verbs: ["*"]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: own}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: own}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: apps}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: apps}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)",
                         "ops");
  auto findings = run_check(b, "rbac-wildcard");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_NE(findings[0].message.find("every verb on widgets of example.com"), std::string::npos);
  EXPECT_EQ(findings[1].severity, Severity::kHigh);
  EXPECT_NE(findings[1].message.find("every verb on every resource of apps"), std::string::npos);
}

// An unbound role is reported (info) only for verbs that mean something on its resources: the
// RBAC authorizer asks for escalate and bind on roles and clusterroles
// (pkg/registry/rbac/escalation_check.go), and the impersonation filter asks for
// impersonate on users, groups, serviceaccounts and uids. `*` verbs on secrets escalate nothing.
TEST(PrivilegeEscalation, UnboundRolesOnlyForVerbsOnTheirTargets) {
  auto unbound = [](const char* rules) {
    return run_check(bundle_from(fmt::format(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {{name: r}}
rules: {}
)",
                                             rules),
                                 "ops"),
                     "rbac-privilege-escalation");
  };
  EXPECT_TRUE(unbound(R"([{apiGroups: [""], resources: [secrets], verbs: ["*"]}])").empty());
  EXPECT_TRUE(unbound(R"([{apiGroups: [example.com], resources: ["*"], verbs: ["*"]}])").empty());
  auto roles =
      unbound(R"([{apiGroups: [rbac.authorization.k8s.io], resources: [roles], verbs: ["*"]}])");
  ASSERT_EQ(roles.size(), 1u);
  EXPECT_EQ(roles[0].severity, Severity::kInfo);
  EXPECT_NE(roles[0].message.find("allows escalate roles, bind roles;"), std::string::npos);
  auto users = unbound(R"([{apiGroups: [""], resources: [users], verbs: ["*"]}])");
  ASSERT_EQ(users.size(), 1u);
  EXPECT_NE(users[0].message.find("allows impersonate users;"), std::string::npos);
  auto uids = unbound(R"([{apiGroups: [authentication.k8s.io], resources: [uids], verbs: ["*"]}])");
  ASSERT_EQ(uids.size(), 1u);
  EXPECT_NE(uids[0].message.find("allows impersonate uids;"), std::string::npos);
  // Minting tokens is one of the check's paths too, for unbound roles as for bound ones.
  auto tokens =
      unbound(R"([{apiGroups: [""], resources: [serviceaccounts/token], verbs: [create]}])");
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_NE(tokens[0].message.find("allows create serviceaccounts/token;"), std::string::npos);
}

// Impersonating a UID is asked of the authorizer as verb impersonate on resource uids of API
// group authentication.k8s.io, without a namespace: the impersonation filter builds the request
// from the UID kind of authentication/v1 (staging/src/k8s.io/apiserver/pkg/endpoints/filters/
// impersonation.go, buildImpersonationRequests and WithImpersonation). So a ClusterRoleBinding
// grants it, a RoleBinding never does, and uids of the core group mean nothing.
TEST(PrivilegeEscalation, ImpersonatingUidsIsAPath) {
  auto escalation = [](const char* rules, const char* binding) {
    return run_check(bundle_from(fmt::format(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {{name: r}}
rules: {}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: {}
metadata: {{name: r, namespace: team}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: r}}
subjects: [{{kind: ServiceAccount, name: op, namespace: ops}}]
)",
                                             rules, binding),
                                 "ops"),
                     "rbac-privilege-escalation");
  };
  constexpr const char* kUids =
      R"([{apiGroups: [authentication.k8s.io], resources: [uids], verbs: [impersonate]}])";
  auto cluster = escalation(kUids, "ClusterRoleBinding");
  ASSERT_EQ(cluster.size(), 1u);
  EXPECT_EQ(cluster[0].severity, Severity::kHigh);
  EXPECT_NE(cluster[0].message.find("can impersonate uids, through ClusterRole r"),
            std::string::npos);
  EXPECT_TRUE(escalation(kUids, "RoleBinding").empty());
  EXPECT_TRUE(escalation(R"([{apiGroups: [""], resources: [uids], verbs: [impersonate]}])",
                         "ClusterRoleBinding")
                  .empty());
}

// A ClusterRole whose label an aggregationRule of a bound ClusterRole selects takes effect
// through that role (the clusterrole-aggregation controller copies its rules in): its rules are
// judged there, once, and it is not reported as unbound.
TEST(Aggregation, AggregatedRolesAreNotUnbound) {
  Bundle b = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: parent}
aggregationRule:
  clusterRoleSelectors: [{matchLabels: {example.com/part: "true"}}]
rules: []
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: part
  labels: {example.com/part: "true"}
rules: [{apiGroups: [example.com], resources: ["*"], verbs: ["*"]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: parent}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: parent}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)",
                         "ops");
  auto wildcard = run_check(b, "rbac-wildcard");
  ASSERT_EQ(wildcard.size(), 1u);
  EXPECT_NE(wildcard[0].message.find("ClusterRole parent"), std::string::npos);
  EXPECT_EQ(wildcard[0].message.find("Nothing in the bundle binds it"), std::string::npos);
}

// Impersonating any user and any group is cluster-admin (a user in system:masters); escalate
// and bind on ClusterRoles with the right to create ClusterRoleBindings is too (the subject can
// bind cluster-admin to itself). Both critical, and the message says which path.
TEST(PrivilegeEscalation, TakeoversAreCritical) {
  auto escalation = [](const char* rules) {
    return run_check(bundle_from(fmt::format(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {{name: r}}
rules: {}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {{name: r}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: r}}
subjects: [{{kind: ServiceAccount, name: op, namespace: ops}}]
)",
                                             rules),
                                 "ops"),
                     "rbac-privilege-escalation");
  };
  auto impersonate =
      escalation(R"([{apiGroups: [""], resources: [users, groups], verbs: [impersonate]}])");
  ASSERT_EQ(impersonate.size(), 1u);
  EXPECT_EQ(impersonate[0].severity, Severity::kCritical);
  EXPECT_NE(impersonate[0].message.find("system:masters"), std::string::npos);
  auto bind = escalation(
      R"([{apiGroups: [rbac.authorization.k8s.io], resources: [clusterroles], verbs: [bind]},
          {apiGroups: [rbac.authorization.k8s.io], resources: [clusterrolebindings], verbs: [create]}])");
  // Binding cluster-admin to itself is rbac-binding-write's critical (one root cause, one
  // critical; EscalationPaths.BindWithBindingWritesIsOneCriticalAndEscalateWithUpdateIsATakeover):
  // here bind stays high, cluster-wide.
  ASSERT_EQ(bind.size(), 1u);
  EXPECT_EQ(bind[0].severity, Severity::kHigh);
  // Service accounts only: not system:masters, but any of them includes kube-system's
  // clusterrole-aggregation-controller, which the bootstrap policy lets escalate and update every
  // ClusterRole (bootstrappolicy/controller_policy.go): critical, naming that chain.
  auto accounts =
      escalation(R"([{apiGroups: [""], resources: [serviceaccounts], verbs: [impersonate]}])");
  ASSERT_EQ(accounts.size(), 1u);
  EXPECT_EQ(accounts[0].severity, Severity::kCritical);
  EXPECT_NE(accounts[0].message.find("kube-system/clusterrole-aggregation-controller"),
            std::string::npos);
  // Impersonating only ServiceAccounts of a namespace where none is that powerful is no takeover
  // (impersonation.go asks in the account's namespace, which a RoleBinding there grants): low in
  // a namespace of the bundle's own.
  auto one_namespace = run_check(bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: r, namespace: team}
rules: [{apiGroups: [""], resources: [serviceaccounts], verbs: [impersonate]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: r, namespace: team}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)",
                                             "ops"),
                                 "rbac-privilege-escalation");
  ASSERT_EQ(one_namespace.size(), 1u);
  EXPECT_EQ(one_namespace[0].severity, Severity::kLow);
}

// Broad groups: anyone without credentials is critical whatever the role; powerful rights (here
// Secret reads) to every user or every account are a takeover, critical; to every account of
// one namespace, high; read-only rights to every user, medium; to one namespace's accounts, low.
TEST(BroadGroupBinding, SeverityFollowsWhoAndWhat) {
  auto rate = [](const char* group, const char* role, bool cluster) {
    std::string kind = cluster ? "ClusterRoleBinding" : "RoleBinding";
    std::string ns = cluster ? "" : ", namespace: team";
    Bundle b = bundle_from(fmt::format(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {{name: secrets}}
rules: [{{apiGroups: [""], resources: [secrets], verbs: [get]}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {{name: pods}}
rules: [{{apiGroups: [""], resources: [pods], verbs: [get]}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: {}
metadata: {{name: b{}}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: {}}}
subjects: [{{kind: Group, name: "{}"}}]
)",
                                       kind, ns, role, group));
    auto findings = run_check(b, "rbac-broad-group-binding");
    EXPECT_EQ(findings.size(), 1u) << group << " " << role;
    return findings.empty() ? Severity::kInfo : findings[0].severity;
  };
  EXPECT_EQ(rate("system:unauthenticated", "pods", true), Severity::kCritical);
  EXPECT_EQ(rate("system:authenticated", "secrets", true), Severity::kCritical);
  EXPECT_EQ(rate("system:serviceaccounts", "secrets", true), Severity::kCritical);
  EXPECT_EQ(rate("system:serviceaccounts:team", "secrets", false), Severity::kHigh);
  EXPECT_EQ(rate("system:authenticated", "pods", true), Severity::kMedium);
  EXPECT_EQ(rate("system:serviceaccounts:team", "pods", false), Severity::kLow);
}

// A version ConfigMap published on purpose to every authenticated user: reading one named
// object that is not a Secret reveals only that object. Low, and the fix says what removing
// the binding breaks. The same role without resourceNames reads every ConfigMap of the
// namespace: medium, as before.
TEST(BroadGroupBinding, OneNamedHarmlessObjectIsLow) {
  std::string published = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: version-reader, namespace: op-system}
rules: [{apiGroups: [""], resources: [configmaps], resourceNames: [op-version], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: version-reader, namespace: op-system}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: version-reader}
subjects: [{kind: Group, name: "system:authenticated", apiGroup: rbac.authorization.k8s.io}]
)";
  auto findings = run_check(bundle_from(published), "rbac-broad-group-binding");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_TRUE(says(findings[0], "configmaps op-version"));
  EXPECT_NE(findings[0].remediation.find("breaks every client that reads"), std::string::npos);
  std::string every = published;
  every.replace(every.find("resourceNames: [op-version], "), 29, "");
  auto wide = run_check(bundle_from(every), "rbac-broad-group-binding");
  ASSERT_EQ(wide.size(), 1u);
  EXPECT_EQ(wide[0].severity, Severity::kMedium);
}

// A binding to a Group names no members: Kubernetes takes a user's groups from the authenticator
// (a client certificate's organisation, an OIDC groups claim; "Authenticating", kubernetes.io
// reference docs), so crossplane's crossplane:masters is empty until an administrator's identity
// provider fills it. Its findings keep their severity, but no fix tells an operator to narrow its
// role: they say who should be a member. A ServiceAccount holding the same role keeps them.
TEST(PeopleGroup, FixesSayWhoShouldBeAMember) {
  std::string role = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: platform-admin}
rules:
- {apiGroups: [""], resources: [secrets, namespaces], verbs: ["*"]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: platform-admin}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: platform-admin}
)";
  Bundle group = bundle_from(role +
                             "subjects: [{kind: Group, name: \"platform:masters\", "
                             "apiGroup: rbac.authorization.k8s.io}]\n");
  Bundle account =
      bundle_from(role + "subjects: [{kind: ServiceAccount, name: op, namespace: ops}]\n", "ops");
  size_t checked = 0;
  for (const char* check : {"rbac-wildcard", "rbac-secrets-cluster-wide", "rbac-destructive-delete",
                            "rbac-namespace-write"}) {
    for (const Finding& f : run_check(group, check)) {
      ++checked;
      EXPECT_NE(f.remediation.find("Group platform:masters has no members until"),
                std::string::npos)
          << check << ": " << f.remediation;
      EXPECT_EQ(f.remediation.find("operator"), std::string::npos)
          << check << ": " << f.remediation;
    }
    for (const Finding& f : run_check(account, check))
      EXPECT_EQ(f.remediation.find("has no members"), std::string::npos) << check;
  }
  EXPECT_EQ(checked, 4u);
}

}  // namespace
}  // namespace footprint
