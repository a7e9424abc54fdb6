// can-install's rules, each argued from the API server's source or the RBAC documentation:
// - pkg/registry/rbac/escalation_check.go: EscalationAllowed (system:masters skips every check),
//   RoleEscalationAuthorized (escalate on the role's resource, with the request's name: empty on
//   a create), BindingAuthorized (bind on the referenced role by name, in the binding's
//   namespace);
// - pkg/registry/rbac/{role,clusterrole,rolebinding}/policybased/storage.go: otherwise
//   ConfirmNoEscalation with the role's rules (an aggregationRule needs "*" on everything);
// - pkg/registry/rbac/validation/rule.go ConfirmNoEscalation and Covers (component-helpers
//   policy_comparator.go): the subject's rules in the object's namespace must cover every rule;
// - kubernetes.io/docs/reference/access-authn-authz/rbac/, "Restrictions on role creation or
//   update" and "Restrictions on role binding creation or update";
// - Helm: pkg/action/validate.go existingResourceConflict (get before create), the Secrets
//   storage driver, pkg/release/util/kind_sorter.go InstallOrder.
#include "analysis/commands/install_rights.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/context.h"
#include "model/cluster.h"
#include "model/testing.h"
#include "util/strings.h"

namespace footprint {
namespace {

using Lines = std::vector<std::string>;

bool has(const Lines& lines, std::string_view line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

// What can-install answers, as text that outlives the bundle.
struct Answer {
  bool allowed = false;
  bool superuser = false;
  std::vector<std::string> missing;  // "create roles.rbac.authorization.k8s.io in team-a"
  std::vector<std::string> refused;  // "Role team-a/r: get nodes | escalate ..."
};

std::string describe_need(const InstallNeed& n) {
  std::string what = n.request.resource;
  if (!n.request.api_group.empty()) what += "." + n.request.api_group;
  return fmt::format("{} {} {}", n.request.verb, what,
                     n.request.namespace_.empty() ? "cluster-wide" : "in " + n.request.namespace_);
}

Answer answer(std::string_view bundle_yaml, std::string_view cluster_yaml, std::string_view as,
              const std::vector<std::string>& groups = {}, const std::string& ns = "team-a") {
  Bundle bundle = testing::bundle_from(bundle_yaml, ns);
  // "" stands for no snapshot, which load_cluster_text refuses as text without objects.
  auto cluster = load_cluster_text("cluster.yaml", std::string(cluster_yaml));
  EXPECT_EQ(cluster.has_value(), !cluster_yaml.empty());
  Context ctx(bundle, {}, {}, cluster ? &*cluster : nullptr);
  InstallRights rights = install_rights(ctx, *Identity::parse(as, groups), ns);
  Answer a;
  a.allowed = rights.allowed();
  a.superuser = rights.superuser;
  for (const InstallNeed& n : rights.needs) {
    if (!n.allowed) a.missing.push_back(describe_need(n));
  }
  for (const EscalationDenial& d : rights.denials) {
    a.refused.push_back(fmt::format(
        "{}: {} | {} {}{}", d.object->display(), joined(d.lacking, "; "), d.alternative.verb,
        d.alternative.resource, d.alternative.name.empty() ? "" : " " + d.alternative.name));
  }
  return a;
}

// alice administers team-a: the built-in ClusterRole admin bound in that namespace, as the RBAC
// docs suggest for a namespace's owner.
constexpr std::string_view kAliceAdminOfTeamA = R"(
apiVersion: v1
kind: Namespace
metadata: {name: team-a}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: alice-admin, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: admin}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}]
)";

constexpr std::string_view kRoleReadingPods = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader, namespace: team-a}
rules:
- apiGroups: [""]
  resources: [pods]
  verbs: [get, list]
)";

TEST(InstallRights, ANamespaceAdminMayCreateARoleWhoseRightsSheHoldsThere) {
  // "You can only create/update a role if ... you already have all the permissions contained in
  // the role, at the same scope as the object being modified": admin lists and gets pods.
  Answer a = answer(kRoleReadingPods, kAliceAdminOfTeamA, "alice");
  EXPECT_TRUE(a.refused.empty()) << joined(a.refused, "\n");
  EXPECT_TRUE(a.allowed) << joined(a.missing, "\n");
}

TEST(InstallRights, ARoleGrantingMoreThanTheSubjectHoldsIsRefusedAndEscalateWouldCoverIt) {
  // admin has no rule on nodes: Covers leaves "get nodes" uncovered in team-a.
  Answer a = answer(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: node-reader, namespace: team-a}
rules:
- apiGroups: [""]
  resources: [pods, nodes]
  verbs: [get]
)",
                    kAliceAdminOfTeamA, "alice");
  EXPECT_FALSE(a.allowed);
  EXPECT_EQ(a.refused, (Lines{"Role team-a/node-reader: get nodes | escalate roles"}));
}

TEST(InstallRights, RightsHeldInAnotherNamespaceDoNotCoverARole) {
  // The same Role in team-b: alice's RoleBinding applies only to requests in team-a, so she may
  // neither create the Role there nor hold its rights there (RulesFor(user, "team-b")).
  std::string role(kRoleReadingPods);
  role.replace(role.find("team-a"), 6, "team-b");
  Answer a = answer(role, kAliceAdminOfTeamA, "alice");
  EXPECT_TRUE(has(a.missing, "create roles.rbac.authorization.k8s.io in team-b"))
      << joined(a.missing, "\n");
  EXPECT_EQ(a.refused, (Lines{"Role team-b/reader: get, list pods | escalate roles"}));
}

constexpr std::string_view kEscalateOnRoles = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: escalator, namespace: team-a}
rules:
- apiGroups: [rbac.authorization.k8s.io]
  resources: [roles]
  verbs: [create, get, escalate]
  NAMES
- apiGroups: [""]
  resources: [secrets]
  verbs: [get, list, create, update, delete]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: escalator, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: escalator}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: bob}]
)";

TEST(InstallRights, EscalateOnRolesLetsARoleThroughButNotWhenRestrictedByName) {
  constexpr std::string_view kNodeReader = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: node-reader, namespace: team-a}
rules: [{apiGroups: [""], resources: [nodes], verbs: [get]}]
)";
  std::string any(kEscalateOnRoles);
  any.replace(any.find("NAMES"), 5, "");
  // RoleEscalationAuthorized: escalate on roles in the role's namespace.
  EXPECT_TRUE(answer(kNodeReader, any, "bob").allowed);
  // It asks with requestInfo.Name, which a create does not carry, so resourceNames never match.
  std::string named(kEscalateOnRoles);
  named.replace(named.find("NAMES"), 5, "resourceNames: [node-reader]");
  Answer a = answer(kNodeReader, named, "bob");
  EXPECT_EQ(a.refused, (Lines{"Role team-a/node-reader: get nodes | escalate roles"}));
}

constexpr std::string_view kBindsClusterAdmin = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: operator-admin, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: ServiceAccount, name: operator, namespace: team-a}]
)";

TEST(InstallRights, ABindingNeedsTheRightsOfItsRoleInTheBindingsNamespace) {
  // "You can only create/update a role binding if you already have all the permissions contained
  // in the referenced role (at the same scope as the role binding)": admin holds view's rights
  // in team-a, not cluster-admin's.
  std::string view(kBindsClusterAdmin);
  view.replace(view.find("name: cluster-admin"), 19, "name: view");
  EXPECT_TRUE(answer(view, kAliceAdminOfTeamA, "alice").allowed);
  Answer a = answer(kBindsClusterAdmin, kAliceAdminOfTeamA, "alice");
  ASSERT_EQ(a.refused.size(), 1u);
  EXPECT_NE(a.refused[0].find("RoleBinding team-a/operator-admin: "), std::string::npos)
      << a.refused[0];
  EXPECT_NE(a.refused[0].find("* *.*"), std::string::npos) << a.refused[0];
  EXPECT_NE(a.refused[0].find("| bind clusterroles cluster-admin"), std::string::npos)
      << a.refused[0];
}

TEST(InstallRights, BindOnTheReferencedRoleByNameLetsTheBindingThrough) {
  // BindingAuthorized asks for bind with the role's name, in the binding's namespace: a
  // RoleBinding can delegate binding one ClusterRole in one namespace.
  std::string cluster = std::string(kAliceAdminOfTeamA) + R"(
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: bind-cluster-admin, namespace: team-a}
rules:
- apiGroups: [rbac.authorization.k8s.io]
  resources: [clusterroles]
  resourceNames: [cluster-admin]
  verbs: [bind]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: alice-binds, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: bind-cluster-admin}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}]
)";
  EXPECT_TRUE(answer(kBindsClusterAdmin, cluster, "alice").allowed);
}

TEST(InstallRights, ABindingToARoleThatExistsNowhereIsRefusedWithoutBind) {
  // GetRoleReferenceRules fails, and the storage returns that error.
  std::string missing(kBindsClusterAdmin);
  missing.replace(missing.find("name: cluster-admin"), 19, "name: no-such-role");
  Answer a = answer(missing, kAliceAdminOfTeamA, "alice");
  EXPECT_EQ(a.refused, (Lines{"RoleBinding team-a/operator-admin:  | bind clusterroles "
                              "no-such-role"}));
}

TEST(InstallRights, AClusterRoleBindingComparesRightsClusterWide) {
  // ConfirmNoEscalation runs with the empty namespace for a ClusterRoleBinding: alice's rights in
  // team-a do not count, even for a role as small as view.
  Answer a = answer(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: operator-view}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects: [{kind: ServiceAccount, name: operator, namespace: team-a}]
)",
                    kAliceAdminOfTeamA, "alice");
  EXPECT_TRUE(has(a.missing,
                  "create clusterrolebindings.rbac.authorization.k8s.io "
                  "cluster-wide"))
      << joined(a.missing, "\n");
  ASSERT_EQ(a.refused.size(), 1u);
  EXPECT_NE(a.refused[0].find("| bind clusterroles view"), std::string::npos) << a.refused[0];
}

TEST(InstallRights, AnAggregationRuleNeedsEveryRight) {
  // clusterrole/policybased/storage.go: "must have cluster-admin privileges to use the
  // aggregationRule" unless the subject covers fullAuthority ("*" on *.* and on every URL).
  // carol holds the usual verbs on every resource, but not "*" (which would include escalate),
  // and no non-resource URL: the breakdown of fullAuthority asks for verb "*", which only an
  // owner's "*" covers.
  constexpr std::string_view kCarol = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: all-resources}
rules:
- apiGroups: ["*"]
  resources: ["*"]
  verbs: [get, list, watch, create, update, patch, delete]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: carol}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: all-resources}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: carol}]
)";
  Answer a = answer(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: gathers}
aggregationRule:
  clusterRoleSelectors: [{matchLabels: {example.com/aggregate: "true"}}]
rules: []
)",
                    kCarol, "carol");
  EXPECT_TRUE(a.missing.empty()) << joined(a.missing, "\n");
  EXPECT_EQ(a.refused, (Lines{"ClusterRole gathers: * *.*; * * | escalate clusterroles"}));
}

TEST(InstallRights, SystemMastersSkipsEveryEscalationCheck) {
  Answer a = answer(kBindsClusterAdmin, kAliceAdminOfTeamA, "root", {"system:masters"});
  EXPECT_TRUE(a.superuser);
  EXPECT_TRUE(a.allowed);
}

TEST(InstallRights, ABindingTheBundleCreatesGrantsTheInstallerNothing) {
  // The bundle binds alice as admin of team-b; she still may not create its Deployment there.
  Answer a = answer(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: alice-admin, namespace: team-b}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: admin}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app, namespace: team-b}
)",
                    kAliceAdminOfTeamA, "alice");
  EXPECT_TRUE(has(a.missing, "create deployments.apps in team-b")) << joined(a.missing, "\n");
  EXPECT_TRUE(has(a.missing, "get deployments.apps in team-b")) << joined(a.missing, "\n");
}

TEST(InstallRights, HelmReadsEveryObjectAndKeepsItsReleaseInSecrets) {
  // dave may create ConfigMaps in team-a and nothing else: Helm's get of the ConfigMap
  // (existingResourceConflict) and its release Secrets are missing.
  Answer a = answer(R"(
apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
)",
                    R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: cm, namespace: team-a}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [create]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: dave, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: cm}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: dave}]
)",
                    "dave");
  EXPECT_EQ(a.missing, (Lines{"get configmaps in team-a", "get secrets in team-a",
                              "list secrets in team-a", "create secrets in team-a",
                              "update secrets in team-a", "delete secrets in team-a"}));
}

TEST(InstallRights, CoveringFollowsPolicyComparator) {
  constexpr std::string_view kOwner = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: owner}
rules:
- {apiGroups: ["*"], resources: ["*/scale"], verbs: [get]}
- {apiGroups: [""], resources: [secrets], resourceNames: [one], verbs: [get]}
- {apiGroups: [""], resources: [pods], verbs: ["*"]}
- {nonResourceURLs: ["/metrics/*"], verbs: [get]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: owner}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: owner}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: erin}]
)";
  Bundle owner = testing::bundle_from(kOwner);
  RbacPolicy policy = RbacPolicy::build(owner);
  Identity erin = Identity::named_user("erin");
  auto uncovered = [&](std::string_view rules_yaml) {
    Bundle b = testing::bundle_from(std::string("kind: ClusterRole\napiVersion: "
                                                "rbac.authorization.k8s.io/v1\nmetadata: "
                                                "{name: servant}\nrules: ") +
                                    std::string(rules_yaml));
    std::vector<std::string> out;
    for (const Request& r :
         uncovered_rights(policy, erin, "", read_rules(b.objects[0].node.get("rules"))))
      out.push_back(r.describe());
    return out;
  };
  // resourceCoversAll: "*/scale" covers every resource's scale subresource.
  EXPECT_EQ(uncovered(R"([{apiGroups: [apps], resources: [deployments/scale], verbs: [get]}])"),
            Lines{});
  // An owner restricted to names does not cover a servant without names, but covers its names.
  EXPECT_EQ(uncovered(R"([{apiGroups: [""], resources: [secrets], verbs: [get]}])"),
            Lines{"get secrets cluster-wide"});
  EXPECT_EQ(uncovered(R"([{apiGroups: [""], resources: [secrets], resourceNames: [one],
                           verbs: [get]}])"),
            Lines{});
  // A servant's "*" is covered only by an owner's "*": verbs "*" on pods is, resources "*" is not.
  EXPECT_EQ(uncovered(R"([{apiGroups: [""], resources: [pods], verbs: ["*"]}])"), Lines{});
  EXPECT_EQ(uncovered(R"([{apiGroups: [""], resources: ["*"], verbs: [get]}])"),
            Lines{"get * cluster-wide"});
  // nonResourceURLCovers: a trailing "*" covers the prefix.
  EXPECT_EQ(uncovered(R"([{nonResourceURLs: [/metrics/cadvisor, /logs], verbs: [get]}])"),
            Lines{"get /logs"});
  // BreakdownRule: a rule without apiGroups breaks down to nothing, so asks for nothing.
  EXPECT_EQ(uncovered(R"([{resources: [nodes], verbs: [get]}])"), Lines{});
}

// A chart that creates its own namespace and a Role there reading Secrets and exec'ing into pods
// (the new-user trial's b3.yaml).
constexpr std::string_view kOwnNamespaceChart = R"(
apiVersion: v1
kind: Namespace
metadata: {name: newns}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader, namespace: newns}
rules:
- apiGroups: [""]
  resources: [secrets, pods/exec]
  verbs: [get, list, create]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: reader, namespace: newns}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects: [{kind: ServiceAccount, name: app, namespace: newns}]
)";

std::string describe_rule(const PolicyRule& r) {
  return fmt::format("{} {} {}{}", joined(r.verbs, ","), joined(r.api_groups, ","),
                     joined(r.resources, ","),
                     r.resource_names.empty() ? "" : " named " + joined(r.resource_names, ","));
}

Lines describe_rules(const std::vector<GrantRule>& rules) {
  Lines out;
  for (const GrantRule& g : rules)
    out.push_back(describe_rule(g.rule));
  return out;
}

// The grant never widens a right: the Role's Secrets and exec rights stay in newns, which a
// cluster admin creates first (RBAC binds nothing in a namespace that does not exist); Helm then
// reads and adopts it by name (pkg/action/validate.go), and a namespaces request names its own
// namespace (the API server's RequestInfo), so a Role in newns covers both.
TEST(InstallerGrant, ANamespaceTheChartCreatesKeepsItsRolesThere) {
  Bundle bundle = testing::bundle_from(kOwnNamespaceChart, "op");
  Context ctx(bundle);
  InstallerGrant grant = installer_grant(ctx, "op");
  EXPECT_EQ(grant.created_namespaces, (Lines{"newns"}));
  Lines cluster = describe_rules(grant.cluster_rules);
  for (const std::string& rule : cluster) {
    EXPECT_EQ(rule.find("secrets"), std::string::npos) << rule;
    EXPECT_EQ(rule.find("pods/exec"), std::string::npos) << rule;
    EXPECT_EQ(rule.find(" namespaces"), std::string::npos) << rule;  // nor creating namespaces
  }
  ASSERT_TRUE(grant.namespace_rules.contains("newns"));
  Lines newns = describe_rules(grant.namespace_rules.at("newns"));
  EXPECT_TRUE(has(newns, "get,list,create  secrets,pods/exec")) << joined(newns, "\n");
  EXPECT_TRUE(has(newns, "patch,get  namespaces named newns")) << joined(newns, "\n");
  EXPECT_TRUE(has(newns, "create rbac.authorization.k8s.io roles")) << joined(newns, "\n");
  EXPECT_TRUE(has(newns, "get rbac.authorization.k8s.io roles named reader"))
      << joined(newns, "\n");
  Lines op = describe_rules(grant.namespace_rules.at("op"));
  EXPECT_TRUE(has(op, "get,list,create,update,delete  secrets")) << joined(op, "\n");
}

// An object the cluster already holds is adopted: Helm gets and patches it by name instead of
// creating it (existingResourceConflict, then kube.Client.Update).
TEST(InstallRights, AnObjectTheClusterHoldsIsAdoptedNotCreated) {
  Answer before = answer(kOwnNamespaceChart, "", "bob", {}, "op");
  EXPECT_TRUE(has(before.missing, "create namespaces cluster-wide"))
      << joined(before.missing, "\n");
  Answer adopted =
      answer(kOwnNamespaceChart, "apiVersion: v1\nkind: Namespace\nmetadata: {name: newns}\n",
             "bob", {}, "op");
  EXPECT_FALSE(has(adopted.missing, "create namespaces cluster-wide"))
      << joined(adopted.missing, "\n");
  EXPECT_TRUE(has(adopted.missing, "patch namespaces in newns")) << joined(adopted.missing, "\n");
  EXPECT_TRUE(has(adopted.missing, "get namespaces in newns")) << joined(adopted.missing, "\n");
}

}  // namespace
}  // namespace footprint
