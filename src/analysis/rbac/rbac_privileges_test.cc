// The privilege checks: Secrets cluster-wide, pod exec, grants in kube-system and destructive
// deletes, and how the binding's scope weighs them.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analysis/check_testing.h"
#include "analysis/models/rbac_models.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::cluster_role;
using testing::run_check;
using testing::says;

constexpr const char* kPrivileged = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: power}
rules:
- apiGroups: [""]
  resources: [secrets]
  verbs: [list]
- apiGroups: [apps]
  resources: [deployments]
  verbs: [create]
- apiGroups: [""]
  resources: [pods/exec]
  verbs: [create]
- apiGroups: [admissionregistration.k8s.io]
  resources: [mutatingwebhookconfigurations]
  verbs: [patch]
- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  resourceNames: [widgets.example.com]
  verbs: [update]
- apiGroups: [rbac.authorization.k8s.io]
  resources: [clusterroles]
  verbs: [escalate]
- apiGroups: [example.com]
  resources: ["*"]
  verbs: ["*"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: power}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: power}
subjects:
- {kind: ServiceAccount, name: op, namespace: ops}
- {kind: Group, name: "system:authenticated"}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: admin-everything}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects:
- {kind: Group, name: "system:unauthenticated"}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: extra-view
  labels: {rbac.authorization.k8s.io/aggregate-to-view: "true"}
rules:
- apiGroups: [""]
  resources: [secrets]
  verbs: [get]
)";

// Each right is judged where a binding grants it, one finding per subject that holds it (what
// one account or group may do, through which roles). A rule that grants everything is reported
// once, by rbac-wildcard, as cluster-admin; the other privilege checks leave it out. power is
// bound to two subjects, so each right appears twice.
TEST(PrivilegeChecks, EachRightIsNamed) {
  Bundle b = bundle_from(kPrivileged, "ops");
  auto secrets = run_check(b, "rbac-secrets-cluster-wide");
  ASSERT_EQ(secrets.size(), 2u);
  EXPECT_EQ(secrets[0].position.line, 6u);
  EXPECT_NE(secrets[0].message.find("ServiceAccount ops/op may read Secrets in every namespace"),
            std::string::npos);
  EXPECT_NE(secrets[1].message.find("Group system:authenticated may read Secrets"),
            std::string::npos);
  EXPECT_EQ(run_check(b, "rbac-workload-create-cluster-wide").size(), 2u);
  auto exec = run_check(b, "rbac-pod-exec");
  ASSERT_EQ(exec.size(), 2u);
  EXPECT_EQ(exec[0].severity, Severity::kHigh);  // bound cluster-wide
  auto webhooks = run_check(b, "rbac-webhook-config-write");
  ASSERT_EQ(webhooks.size(), 2u);
  EXPECT_EQ(webhooks[0].severity, Severity::kHigh);  // any name
  auto crd = run_check(b, "rbac-crd-write");
  ASSERT_EQ(crd.size(), 2u);
  EXPECT_EQ(crd[0].severity, Severity::kLow);  // limited to one named CRD
  EXPECT_NE(
      crd[0].message.find("Hidden footprint: it may rewrite only the CRD widgets.example.com"),
      std::string::npos);
  // escalate on clusterroles, cluster-wide, but neither subject may create ClusterRoleBindings
  // (system:authenticated is not system:unauthenticated): high, not a takeover; one finding for
  // each of the two subjects, as for the other rights.
  auto escalation = run_check(b, "rbac-privilege-escalation");
  ASSERT_EQ(escalation.size(), 2u);
  EXPECT_EQ(escalation[0].severity, Severity::kHigh);
  EXPECT_EQ(escalation[1].severity, Severity::kHigh);
  auto wildcard = run_check(b, "rbac-wildcard");
  ASSERT_EQ(wildcard.size(), 2u);
  // "*" verbs and resources of example.com, a group whose CRD is not the bundle's: medium.
  EXPECT_EQ(wildcard[0].severity, Severity::kMedium);
  EXPECT_NE(wildcard[0].message.find("every verb on every resource of example.com"),
            std::string::npos);
  // cluster-admin bound cluster-wide is cluster-admin: critical.
  EXPECT_EQ(wildcard[1].severity, Severity::kCritical);
  EXPECT_EQ(wildcard[1].object.name, "admin-everything");
  // Secret reads, workload creation and exec for every authenticated user, and cluster-admin for
  // anyone without credentials: both are takeovers.
  auto groups = run_check(b, "rbac-broad-group-binding");
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].severity, Severity::kCritical);
  EXPECT_EQ(groups[1].severity, Severity::kCritical);
  auto aggregate = run_check(b, "rbac-aggregates-to-default-roles");
  ASSERT_EQ(aggregate.size(), 1u);
  EXPECT_EQ(aggregate[0].severity, Severity::kHigh);  // grants every viewer secret reads
  // view is itself aggregated into edit, and edit into admin (builtin_rbac.yaml's
  // aggregate-to-edit and aggregate-to-admin labels): their holders gain it too.
  EXPECT_NE(aggregate[0].message.find("every namespace viewer, editor and admin"),
            std::string::npos);
}

// A Role, or a ClusterRole bound by a RoleBinding, never grants cluster-scoped resources: the
// authorizer only consults RoleBindings for requests in their namespace, and requests for
// webhook configurations, CRDs, ClusterRoles and nodes carry none. can-i says no, so no privilege
// finding may say yes.
TEST(PrivilegeChecks, NamespacedBindingsGrantNoClusterScopedRights) {
  Bundle b = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: power}
rules:
- {apiGroups: [admissionregistration.k8s.io], resources: [mutatingwebhookconfigurations], verbs: [patch]}
- {apiGroups: [apiextensions.k8s.io], resources: [customresourcedefinitions], verbs: [create]}
- {apiGroups: [""], resources: [nodes/proxy], verbs: [get]}
- {apiGroups: [rbac.authorization.k8s.io], resources: [clusterroles], verbs: [escalate]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: power, namespace: ops}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: power}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)",
                         "ops");
  for (const char* check : {"rbac-webhook-config-write", "rbac-crd-write", "rbac-pod-exec",
                            "rbac-privilege-escalation"}) {
    EXPECT_TRUE(run_check(b, check).empty()) << check;
  }
  RbacPolicy policy = RbacPolicy::build(b);
  Identity op = Identity::service_account("ops", "op");
  EXPECT_FALSE(policy
                   .authorize(op, Request{"patch", "admissionregistration.k8s.io",
                                          "mutatingwebhookconfigurations", "", "", "", ""})
                   .allowed);
}

// pods/portforward opens network access to any pod, like exec: reported with it.
TEST(PodExec, PortForwardCountsAndOwnNamespaceIsLow) {
  Bundle b = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: debug, namespace: ops}
rules: [{apiGroups: [""], resources: [pods/portforward], verbs: [create]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: debug, namespace: ops}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: debug}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)",
                         "ops");
  auto findings = run_check(b, "rbac-pod-exec");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);  // the release namespace is the operator's
  EXPECT_NE(findings[0].message.find("create pods/portforward"), std::string::npos);
}

// On Kubernetes 1.34 a WebSocket exec is a GET, which the API server authorizes as get on
// pods/exec (kubernetes/kubernetes#78741); KEP-4006's create check arrives in 1.35
// (kubernetes/kubernetes#134577). So get on pods/exec cluster-wide is exec everywhere: high.
TEST(PodExec, GetIsEnoughOn134) {
  Bundle b = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: reader}
rules: [{apiGroups: [""], resources: ["*"], verbs: [get, list, watch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: reader}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: reader}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)",
                         "ops");
  auto findings = run_check(b, "rbac-pod-exec");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("get is enough"), std::string::npos);
}

// Where a right is granted decides its weight: exec in another team's namespace is medium,
// escalation there medium and in the operator's own namespace low; a webhook-configuration
// write limited to the operator's own configurations (how operators inject their CA) is low;
// a role nothing binds is info.
TEST(PrivilegeChecks, ScopeDecidesTheWeight) {
  Bundle b = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: debug}
rules:
- {apiGroups: [""], resources: [pods/exec], verbs: [create]}
- {apiGroups: [rbac.authorization.k8s.io], resources: [roles], verbs: [escalate]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: debug, namespace: team-b}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: debug}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: own, namespace: ops}
rules: [{apiGroups: [rbac.authorization.k8s.io], resources: [roles], verbs: [bind]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: own, namespace: ops}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: own}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: ca}
rules:
- apiGroups: [admissionregistration.k8s.io]
  resources: [mutatingwebhookconfigurations]
  resourceNames: [op-webhooks]
  verbs: [get, update, patch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: ca}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: ca}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: spare}
rules: [{apiGroups: ["*"], resources: ["*"], verbs: ["*"]}]
)",
                         "ops");
  // team-b is in the namespace set (the bundle puts a RoleBinding there) and the operator's
  // because of that; its rights there are rated as in its own namespace.
  auto exec = run_check(b, "rbac-pod-exec");
  ASSERT_EQ(exec.size(), 1u);
  EXPECT_EQ(exec[0].severity, Severity::kLow);
  // One subject, op, holds bind through debug in team-b and own in ops: one finding naming both.
  auto escalation = run_check(b, "rbac-privilege-escalation");
  ASSERT_EQ(escalation.size(), 1u);
  EXPECT_EQ(escalation[0].severity, Severity::kLow);
  EXPECT_NE(escalation[0].message.find("ClusterRole debug"), std::string::npos);
  EXPECT_NE(escalation[0].message.find("Role ops/own"), std::string::npos);
  auto webhooks = run_check(b, "rbac-webhook-config-write");
  ASSERT_EQ(webhooks.size(), 1u);
  EXPECT_EQ(webhooks[0].severity, Severity::kLow);
  EXPECT_NE(webhooks[0].message.find("only [op-webhooks]"), std::string::npos);
  auto wildcard = run_check(b, "rbac-wildcard");
  ASSERT_EQ(wildcard.size(), 1u);
  EXPECT_EQ(wildcard[0].severity, Severity::kInfo);  // spare: nothing binds it
  // In kube-system, which is never the operator's, exec is high.
  std::string kube = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: debug, namespace: kube-system}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)";
  auto kube_exec = run_check(bundle_from(kube, "ops"), "rbac-pod-exec");
  ASSERT_EQ(kube_exec.size(), 1u);
  EXPECT_EQ(kube_exec[0].severity, Severity::kHigh);
}

// Binding the built-in edit role to an operator's account in kube-system: can-i says the account
// may read kube-system's Secrets, create pods there (and run them as any controller's account)
// and change its ConfigMaps (coredns, aws-auth). A pod there may run as
// clusterrole-aggregation-controller, which the bootstrap policy lets escalate and update every
// ClusterRole (bootstrappolicy/controller_policy.go): critical, naming that chain.
TEST(KubeSystemGrant, EditInKubeSystemIsCritical) {
  Bundle b = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: op-edit, namespace: kube-system}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: lease, namespace: kube-system}
rules: [{apiGroups: [""], resources: [configmaps], resourceNames: [op-leader], verbs: [get, update]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: lease, namespace: kube-system}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: lease}
subjects: [{kind: ServiceAccount, name: other, namespace: ops}]
)",
                         "ops");
  auto findings = run_check(b, "rbac-kube-system-grant");
  ASSERT_EQ(findings.size(), 1u);  // the named leader-election ConfigMap is not reported
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  EXPECT_NE(findings[0].message.find("kube-system/clusterrole-aggregation-controller"),
            std::string::npos);
  EXPECT_EQ(findings[0].object.name, "op-edit");  // the binding: the role is built in
  for (const char* right : {"get/list secrets", "create pods", "update/patch configmaps"})
    EXPECT_NE(findings[0].message.find(right), std::string::npos) << right;
  RbacPolicy policy = RbacPolicy::build(b);
  EXPECT_TRUE(policy
                  .authorize(Identity::service_account("ops", "op"),
                             Request{"list", "", "secrets", "", "", "kube-system", ""})
                  .allowed);
  // exec there is rbac-pod-exec's, at high too.
  auto exec = run_check(b, "rbac-pod-exec");
  ASSERT_EQ(exec.size(), 1u);
  EXPECT_EQ(exec[0].severity, Severity::kHigh);
}

// delete on every resource of every group cluster-wide destroys everyone's work: high; deleting
// events in one namespace erases a record: low.
TEST(DestructiveDelete, EverythingWideIsHighEventsAreLow) {
  Bundle b = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: janitor}
rules: [{apiGroups: ["*"], resources: ["*"], verbs: [delete, deletecollection, get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: janitor}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: janitor}
subjects: [{kind: ServiceAccount, name: janitor, namespace: ops}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: quiet, namespace: team-b}
rules: [{apiGroups: [""], resources: [events], verbs: [delete]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: quiet, namespace: team-b}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: quiet}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)",
                         "ops");
  // The rule over every resource of every group is one root cause: rbac-wildcard reports it once,
  // high, with everything it reaches; the other privilege checks leave it alone.
  auto wildcard = run_check(b, "rbac-wildcard");
  ASSERT_EQ(wildcard.size(), 1u);
  EXPECT_EQ(wildcard[0].severity, Severity::kHigh);
  EXPECT_NE(wildcard[0].message.find("reads secrets"), std::string::npos);
  EXPECT_NE(wildcard[0].message.find("deletes anything in every namespace"), std::string::npos);
  EXPECT_TRUE(run_check(b, "rbac-secrets-cluster-wide").empty());
  // Deleting events erases a record, not other teams' work: low, below deleting their
  // workloads (escalation_paths_test.cc).
  auto findings = run_check(b, "rbac-destructive-delete");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_NE(findings[0].message.find("erases the record"), std::string::npos);
}

// Deleting every namespace's pods in one request (deletecollection through a
// ClusterRoleBinding) restarts them: their ReplicaSet, StatefulSet, DaemonSet or Job creates
// replacements (manageReplicas, pkg/controller/replicaset/replica_set.go), and the scheduler's
// preemption deletes pods as a matter of course (pkg/scheduler/framework/preemption). Medium, not
// the high of deleting the controllers themselves, which nothing recreates. Events expire (the API
// server's --event-ttl defaults to one hour) and are not the incident record: low.
TEST(DestructiveDelete, PodsEverywhereAreMediumControllersHighEventsLow) {
  auto pods = run_check(bundle_from(cluster_role(
                            "- {apiGroups: [\"\"], resources: [pods], verbs: [deletecollection]}")),
                        "rbac-destructive-delete");
  ASSERT_EQ(pods.size(), 1u);
  EXPECT_EQ(pods[0].severity, Severity::kMedium);
  EXPECT_FALSE(says(pods[0], "stops every team"));
  auto deployments = run_check(
      bundle_from(cluster_role("- {apiGroups: [apps], resources: [deployments], verbs: [delete]}")),
      "rbac-destructive-delete");
  ASSERT_EQ(deployments.size(), 1u);
  EXPECT_EQ(deployments[0].severity, Severity::kHigh);
  auto events = run_check(
      bundle_from(cluster_role("- {apiGroups: [\"\"], resources: [events], verbs: [delete]}")),
      "rbac-destructive-delete");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].severity, Severity::kLow);
}

}  // namespace
}  // namespace footprint
