#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "analysis/check_testing.h"
#include "analysis/models/rbac_models.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::kRestrictedMode;
using testing::run_check;

// The cluster-wide mode adds a ClusterRole that lists Secrets everywhere, hiding the trap.
constexpr const char* kClusterWideGrant = R"(
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: manager}
rules:
- apiGroups: [""]
  resources: [secrets]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: manager}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: manager}
subjects:
- {kind: ServiceAccount, name: controller-manager, namespace: dynamo-system}
)";

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

// rbac docs: "You cannot restrict create or deletecollection requests by their resource name."
// An unbound role breaks nobody yet: low.
TEST(ResourceNamesCreate, FlagsCreateButNotSubresourceCreates) {
  Bundle b = bundle_from(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: a}\n"
      "rules:\n- apiGroups: ['']\n  resources: [secrets]\n  resourceNames: [s]\n  verbs: [get, "
      "create]\n- apiGroups: ['']\n  resources: [serviceaccounts/token]\n  resourceNames: [sa]\n"
      "  verbs: [create]\n");
  auto findings = run_check(b, "rbac-resourcenames-create");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].position.line, 5u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_NE(findings[0].message.find("never allows it"), std::string::npos);
}

// Before saying a request is forbidden, the check asks the authorizer: bound and uncovered, the
// create is forbidden (medium); covered by another rule of the same subject, dead code (info).
constexpr const char* kCreateWithNames = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: r, namespace: a}
rules:
- {apiGroups: [""], resources: [configmaps], resourceNames: [c], verbs: [get, create]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: r, namespace: a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}
subjects: [{kind: ServiceAccount, name: op, namespace: a}]
)";

TEST(ResourceNamesCreate, ForbiddenOnlyWhenNothingElseAllowsIt) {
  auto forbidden = run_check(bundle_from(kCreateWithNames), "rbac-resourcenames-create");
  ASSERT_EQ(forbidden.size(), 1u);
  EXPECT_EQ(forbidden[0].severity, Severity::kMedium);
  EXPECT_NE(forbidden[0].message.find("ServiceAccount a/op: create configmaps in a is forbidden"),
            std::string::npos);
  std::string covered = std::string(kCreateWithNames) + R"(---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: edit}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}
subjects: [{kind: ServiceAccount, name: op, namespace: a}]
)";
  auto dead = run_check(bundle_from(covered), "rbac-resourcenames-create");
  ASSERT_EQ(dead.size(), 1u);
  EXPECT_EQ(dead[0].severity, Severity::kInfo);
  EXPECT_NE(dead[0].message.find("ClusterRole edit (through ClusterRoleBinding edit)"),
            std::string::npos);
  // can-i agrees: the built-in edit role lets the account create configmaps in a.
  Bundle b = bundle_from(covered);
  EXPECT_TRUE(RbacPolicy::build(b)
                  .authorize(Identity::service_account("a", "op"),
                             Request{"create", "", "configmaps", "", "", "a", ""})
                  .allowed);
}

// rbac docs, "Role and ClusterRole": a Role sets permissions within a namespace; cluster-scoped
// resources need a ClusterRole. Validation rejects nonResourceURLs in a Role (high: the install
// fails). An unbound Role naming nodes grants nothing to nobody yet: low.
TEST(RoleClusterResource, NodesInARoleAndUrlsInARole) {
  Bundle b = bundle_from(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: a}\n"
      "rules:\n- apiGroups: ['']\n  resources: [nodes, pods]\n  verbs: [get]\n"
      "- nonResourceURLs: [/metrics]\n  verbs: [get]\n");
  auto findings = run_check(b, "rbac-role-cluster-resource");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].severity, Severity::kLow);
  EXPECT_NE(findings[0].message.find("nodes, which is cluster-scoped"), std::string::npos);
  EXPECT_EQ(findings[1].severity, Severity::kHigh);
}

// Bound, the Role's nodes rule is forbidden unless a ClusterRoleBinding grants the same: then it
// is dead code (info), never "forbidden".
TEST(RoleClusterResource, CoverageDecidesForbiddenOrDead) {
  std::string role = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: r, namespace: a}
rules: [{apiGroups: [""], resources: [nodes], verbs: [get, list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: r, namespace: a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}
subjects: [{kind: ServiceAccount, name: op, namespace: a}]
)";
  auto forbidden = run_check(bundle_from(role), "rbac-role-cluster-resource");
  ASSERT_EQ(forbidden.size(), 1u);
  EXPECT_EQ(forbidden[0].severity, Severity::kMedium);
  EXPECT_NE(forbidden[0].message.find("is forbidden"), std::string::npos);
  std::string covered = role + R"(---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: nodes}
rules: [{apiGroups: [""], resources: [nodes], verbs: [get, list, watch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: nodes}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: nodes}
subjects: [{kind: ServiceAccount, name: op, namespace: a}]
)";
  auto dead = run_check(bundle_from(covered), "rbac-role-cluster-resource");
  ASSERT_EQ(dead.size(), 1u);
  EXPECT_EQ(dead[0].severity, Severity::kInfo);
  EXPECT_EQ(dead[0].message.find("forbidden"), std::string::npos);
  EXPECT_NE(dead[0].message.find("ClusterRole nodes (through ClusterRoleBinding nodes)"),
            std::string::npos);
}

// evaluation_helpers.go: "pods/*" matches only a subresource literally named "*", and
// resourceNames compare by equality.
TEST(IneffectiveWildcard, SubresourceStarAndGlobNames) {
  Bundle b = bundle_from(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r}\n"
      "rules:\n- apiGroups: ['']\n  resources: ['pods/*']\n  verbs: [get]\n"
      "- apiGroups: [projectcalico.org]\n  resources: [networkpolicies]\n  resourceNames: "
      "['calico-system.*']\n  verbs: [get]\n- apiGroups: ['']\n  resources: ['*/scale', '*']\n"
      "  verbs: [get]\n");
  auto findings = run_check(b, "rbac-ineffective-wildcard");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  EXPECT_NE(findings[0].message.find("pods/*"), std::string::npos);
  // projectcalico.org is neither built in nor a CRD here: an aggregated API server, whose own
  // authorization may ask for such names literally, so only info.
  EXPECT_EQ(findings[1].severity, Severity::kInfo);
}

// plugin/pkg/admission/certificates/util.go (IsAuthorizedForSignerName) asks the authorizer for
// approve or sign on signers named "<domain>/*" literally: such a resourceName works as written.
TEST(IneffectiveWildcard, SignerDomainWildcardIsLiteral) {
  Bundle b = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: approver}
rules:
- apiGroups: [certificates.k8s.io]
  resources: [signers]
  resourceNames: [example.com/*]
  verbs: [approve]
)");
  EXPECT_TRUE(run_check(b, "rbac-ineffective-wildcard").empty());
  // A custom verb is asked about only by the code that defines it, with names of its choosing:
  // cert-manager's approver checks approve on its own signers as "issuers.cert-manager.io/*".
  Bundle custom = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: approver}
rules:
- apiGroups: [cert-manager.io]
  resources: [signers]
  resourceNames: [issuers.cert-manager.io/*]
  verbs: [approve]
- apiGroups: [cert-manager.io]
  resources: [certificates]
  resourceNames: [team-*]
  verbs: [get]
)");
  auto findings = run_check(custom, "rbac-ineffective-wildcard");
  ASSERT_EQ(findings.size(), 1u);  // the get rule's glob only
  EXPECT_NE(findings[0].message.find("[team-*]"), std::string::npos);
  EXPECT_EQ(findings[0].message.find("issuers.cert-manager.io"), std::string::npos);
}

TEST(BindingMissingRole, MissingNamespaceMismatchAndBuiltins) {
  Bundle b = bundle_from(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: a}\n"
      "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: "
      "b1, namespace: b}\nroleRef: {kind: Role, name: r}\nsubjects: [{kind: ServiceAccount, "
      "name: s}]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\n"
      "metadata: {name: b2}\nroleRef: {kind: ClusterRole, name: nothing}\nsubjects: [{kind: "
      "ServiceAccount, name: s, namespace: a}]\n---\napiVersion: rbac.authorization.k8s.io/v1\n"
      "kind: ClusterRoleBinding\nmetadata: {name: b3}\nroleRef: {kind: ClusterRole, name: "
      "view}\nsubjects: [{kind: ServiceAccount, name: s, namespace: a}]\n---\n"
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: "
      "b4}\nroleRef: {kind: ClusterRole, name: 'system:auth-delegator'}\nsubjects: [{kind: "
      "ServiceAccount, name: s, namespace: a}]\n");
  auto missing = run_check(b, "rbac-binding-missing-role");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].object.name, "b2");
  auto mismatch = run_check(b, "rbac-role-namespace-mismatch");
  ASSERT_EQ(mismatch.size(), 1u);
  EXPECT_EQ(mismatch[0].object.name, "b1");
  EXPECT_NE(mismatch[0].message.find("exists only in namespace a"), std::string::npos);
}

TEST(BindingMissingSubject, SeverityFollowsTheNamespace) {
  Bundle b = bundle_from(
      "apiVersion: v1\nkind: Namespace\nmetadata: {name: fresh}\n---\n"
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: x}\n"
      "roleRef: {kind: ClusterRole, name: view}\nsubjects:\n"
      "- {kind: ServiceAccount, name: a, namespace: fresh}\n"
      "- {kind: ServiceAccount, name: b, namespace: rel}\n"
      "- {kind: ServiceAccount, name: c, namespace: elsewhere}\n- {kind: User, name: u}\n",
      "rel");
  auto findings = run_check(b, "rbac-binding-missing-subject");
  ASSERT_EQ(findings.size(), 3u);  // subjects a, b, c in order; the User is not checked
  EXPECT_EQ(findings[0].severity, Severity::kMedium);  // namespace created by the bundle
  EXPECT_EQ(findings[1].severity, Severity::kInfo);    // the release namespace
  EXPECT_EQ(findings[2].severity, Severity::kLow);     // some other namespace
}

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
  EXPECT_NE(roles[0].message.find("allows escalate, bind;"), std::string::npos);
  auto users = unbound(R"([{apiGroups: [""], resources: [users], verbs: ["*"]}])");
  ASSERT_EQ(users.size(), 1u);
  EXPECT_NE(users[0].message.find("allows impersonate;"), std::string::npos);
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
  // Service accounts only: the subject acts as any of them, but that is not system:masters.
  auto accounts =
      escalation(R"([{apiGroups: [""], resources: [serviceaccounts], verbs: [impersonate]}])");
  ASSERT_EQ(accounts.size(), 1u);
  EXPECT_EQ(accounts[0].severity, Severity::kHigh);
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

TEST(Expectations, UnmetExpectationIsAFindingAtItsLine) {
  Bundle b = bundle_from(kRestrictedMode, "dynamo-system");
  std::string path = (std::filesystem::temp_directory_path() / "footprint-expect.yaml").string();
  std::ofstream(path) << "- as: system:serviceaccount:dynamo-system:controller-manager\n"
                         "  verb: list\n  resource: secrets\n  namespace: dynamo-system\n"
                         "- as: system:serviceaccount:dynamo-system:controller-manager\n"
                         "  verb: get\n  resource: secrets\n  name: webhook-server-cert\n"
                         "  namespace: dynamo-system\n";
  auto expectations = load_expectations(path, b.resources);
  ASSERT_TRUE(expectations.has_value()) << expectations.error().to_string();
  ASSERT_EQ(expectations->size(), 2u);
  auto findings = run_check(b, "rbac-expectation-unmet", *expectations);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].file, path);
  EXPECT_EQ(findings[0].position.line, 1u);
  EXPECT_EQ(findings[0].object.kind, "ServiceAccount");
  EXPECT_NE(findings[0].message.find("only with resourceNames [webhook-server-cert]"),
            std::string::npos);
  std::filesystem::remove(path);
}

TEST(Permissions, SummaryPerServiceAccount) {
  Bundle b = bundle_from(std::string(kRestrictedMode) + kClusterWideGrant, "dynamo-system");
  RbacPolicy policy = RbacPolicy::build(b);
  auto summary = summarize_permissions(b, policy);
  ASSERT_EQ(summary.size(), 1u);
  const SubjectPermissions& p = summary[0];
  EXPECT_TRUE(p.created_by_bundle);
  EXPECT_EQ(p.cluster_roles, 1u);
  EXPECT_EQ(p.cluster_role_bindings, 1u);
  EXPECT_EQ(p.roles, 1u);
  EXPECT_EQ(p.role_bindings, 1u);
  ASSERT_EQ(p.grants.size(), 2u);
  EXPECT_EQ(p.grants[0].namespace_, "");  // cluster-wide first
  EXPECT_EQ(p.grants[0].risks, std::vector<std::string>{"reads secrets"});
  EXPECT_EQ(p.grants[1].namespace_, "dynamo-system");
  EXPECT_EQ(p.grants[1].resource_names, std::vector<std::string>{"webhook-server-cert"});
}

// The table's risk marks follow what the binding can grant: CRDs and webhook configurations are
// cluster-scoped, so a RoleBinding of the same ClusterRole marks neither (the RBAC authorizer
// consults RoleBindings only for requests in their namespace); get on pods/exec is exec on 1.34
// (WebSocket exec is authorized as get, KEP-4006).
TEST(Permissions, RiskMarksFollowTheBindingsScope) {
  constexpr const char* kRole = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: power}
rules:
- {apiGroups: [apiextensions.k8s.io], resources: [customresourcedefinitions], verbs: [create]}
- {apiGroups: [""], resources: [pods/exec], verbs: [get]}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: op, namespace: ops}
---
)";
  auto risks = [&](const char* binding) {
    Bundle b = bundle_from(std::string(kRole) + binding, "ops");
    RbacPolicy policy = RbacPolicy::build(b);
    std::vector<std::string> all;
    for (const SubjectPermissions& p : summarize_permissions(b, policy)) {
      for (const PermissionGrant& g : p.grants)
        all.insert(all.end(), g.risks.begin(), g.risks.end());
    }
    std::sort(all.begin(), all.end());
    return all;
  };
  EXPECT_EQ(risks(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: power}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: power}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)"),
            (std::vector<std::string>{"changes CRDs", "execs into pods"}));
  EXPECT_EQ(risks(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: power, namespace: ops}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: power}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)"),
            std::vector<std::string>{"execs into pods"});
}

}  // namespace
}  // namespace footprint

namespace footprint {
namespace {

// Aggregating rights over the bundle's own custom resources into edit is the intended use.
// One finding per built-in role extended: what every holder of edit gains. Write access to a
// built-in resource (configmaps) is more than the own API alone (low): medium.
TEST(AggregatesToDefaultRoles, OneFindingPerExtendedRole) {
  Bundle b = testing::bundle_from(R"(
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
metadata:
  name: widget-editor
  labels: {rbac.authorization.k8s.io/aggregate-to-edit: "true"}
rules:
- apiGroups: [example.com]
  resources: [widgets]
  verbs: [create, update, delete]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: widget-viewer
  labels: {rbac.authorization.k8s.io/aggregate-to-view: "true"}
rules:
- apiGroups: [example.com]
  resources: [widgets]
  verbs: [get, list]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: config-editor
  labels: {rbac.authorization.k8s.io/aggregate-to-edit: "true"}
rules:
- apiGroups: [""]
  resources: [configmaps]
  verbs: [update]
)");
  auto findings = testing::run_check(b, "rbac-aggregates-to-default-roles");
  ASSERT_EQ(findings.size(), 2u);  // edit, then view
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  EXPECT_NE(findings[0].message.find("2 ClusterRoles (widget-editor, config-editor)"),
            std::string::npos);
  EXPECT_NE(findings[0].message.find("every namespace editor"), std::string::npos);
  EXPECT_EQ(findings[1].severity, Severity::kLow);  // read access to the own API
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

// Each rule's resourceNames belong to that rule: the finding lists the names of every rule, not
// the first rule's for all. A ValidatingAdmissionPolicy with its binding rejects requests in the
// API server itself, so creating them is as strong as writing any webhook configuration (high).
TEST(WebhookConfigWrite, NamesOfEveryRuleAndAdmissionPolicies) {
  constexpr const char* kBinding = R"(
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: hooks}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: hooks}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)";
  auto own = run_check(bundle_from(std::string(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: hooks}
rules:
- {apiGroups: [admissionregistration.k8s.io], resources: [mutatingwebhookconfigurations], resourceNames: [op-mutating], verbs: [update]}
- {apiGroups: [admissionregistration.k8s.io], resources: [validatingwebhookconfigurations], resourceNames: [op-validating], verbs: [update]}
)") + kBinding,
                                   "ops"),
                       "rbac-webhook-config-write");
  ASSERT_EQ(own.size(), 1u);
  EXPECT_EQ(own[0].severity, Severity::kLow);
  EXPECT_NE(own[0].message.find("only [op-mutating, op-validating]"), std::string::npos)
      << own[0].message;
  auto policies = run_check(bundle_from(std::string(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: hooks}
rules:
- {apiGroups: [admissionregistration.k8s.io], resources: [validatingadmissionpolicies, validatingadmissionpolicybindings], verbs: [create]}
)") + kBinding,
                                        "ops"),
                            "rbac-webhook-config-write");
  ASSERT_EQ(policies.size(), 1u);
  EXPECT_EQ(policies[0].severity, Severity::kHigh);
  EXPECT_NE(policies[0].summary.find("admission policy"), std::string::npos);
}

// Binding the built-in edit role to an operator's account in kube-system: can-i says the account
// may read kube-system's Secrets, create pods there (and run them as any controller's account)
// and change its ConfigMaps (coredns, aws-auth). High, like the cluster-wide twins.
TEST(KubeSystemGrant, EditInKubeSystemIsHigh) {
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
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
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

// The bootstrap policy (builtin_rbac.yaml, from Kubernetes 1.34) binds cluster-admin to the group
// system:masters through the ClusterRoleBinding cluster-admin, and edit is an aggregated role.
// A bundle that ships objects of those names replaces them for everyone: critical.
TEST(BuiltinReplaced, RolesAndBindingsOfTheBootstrapPolicy) {
  Bundle b = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: cluster-admin}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: edit}
rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: editor-of-widgets}
rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
)",
                         "ops");
  auto findings = run_check(b, "rbac-builtin-replaced");
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].severity, Severity::kCritical);
  EXPECT_NE(findings[0].message.find("where the built-in one binds cluster-admin to Group "
                                     "system:masters"),
            std::string::npos);
  EXPECT_NE(findings[1].message.find("every role aggregated into it"), std::string::npos);
}

// The ServiceAccount controller creates "default" in every namespace, so a binding to it always
// has a subject.
TEST(BindingMissingSubject, DefaultAccountAlwaysExists) {
  Bundle b = bundle_from(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: x, "
      "namespace: team}\nroleRef: {kind: ClusterRole, name: view}\nsubjects:\n"
      "- {kind: ServiceAccount, name: default, namespace: team}\n");
  EXPECT_TRUE(run_check(b, "rbac-binding-missing-subject").empty());
}

}  // namespace
}  // namespace footprint
