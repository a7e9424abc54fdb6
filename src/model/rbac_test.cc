#include "model/rbac.h"

#include <gtest/gtest.h>

#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;

// A hand-written bundle exercising each authorizer rule.
constexpr const char* kPolicy = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: secret-names, namespace: ops}
rules:
- apiGroups: [""]
  resources: [secrets]
  resourceNames: [webhook-server-cert]
  verbs: [get, list, watch, update, patch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: creator, namespace: ops}
rules:
- apiGroups: [""]
  resources: [configmaps]
  resourceNames: [settings]
  verbs: [create, deletecollection]
- apiGroups: [""]
  resources: [serviceaccounts/token]
  resourceNames: [sa1]
  verbs: [create]
- apiGroups: [""]
  resources: [pods/eviction]
  resourceNames: [p1]
  verbs: [create]
- apiGroups: [""]
  resources: [nodes]
  verbs: [get, list]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: op-roles, namespace: ops}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: secret-names}
subjects:
- {kind: ServiceAccount, name: op}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: op-creator, namespace: ops}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: creator}
subjects:
- {kind: ServiceAccount, name: op, namespace: ops}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: pod-reader}
rules:
- apiGroups: [""]
  resources: [pods]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: read-pods, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: pod-reader}
subjects:
- {kind: ServiceAccount, name: op, namespace: ops}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: wide}
rules:
- apiGroups: [apps]
  resources: ["*/scale"]
  verbs: [update]
- apiGroups: [""]
  resources: ["pods/*"]
  verbs: [get]
- apiGroups: [example.com]
  resources: ["*"]
  verbs: [get]
- apiGroups: [""]
  resources: [pods/exec]
  verbs: [create]
- apiGroups: [""]
  resources: [nodes]
  verbs: [get]
- apiGroups: [batch]
  resources: [jobs]
  verbs: ["*"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: wide}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: wide}
subjects:
- {kind: ServiceAccount, name: op, namespace: ops}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: cm-reader}
rules:
- apiGroups: [""]
  resources: [configmaps]
  verbs: [get, list]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: ops-service-accounts}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cm-reader}
subjects:
- {kind: Group, name: "system:serviceaccounts:ops", apiGroup: rbac.authorization.k8s.io}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: urls}
rules:
- nonResourceURLs: [/healthz, "/metrics/*", "/logs*"]
  verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: urls}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: urls}
subjects:
- {kind: User, name: alice, apiGroup: rbac.authorization.k8s.io}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: aggregated}
aggregationRule:
  clusterRoleSelectors:
  - matchLabels: {example.com/aggregate: "true"}
rules:
- apiGroups: [""]
  resources: [secrets]
  verbs: [delete]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: part-a
  labels: {example.com/aggregate: "true"}
rules:
- apiGroups: [""]
  resources: [services]
  verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: part-b
  labels: {example.com/aggregate: "true"}
rules:
- apiGroups: [""]
  resources: [endpoints]
  verbs: [list]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: aggregated}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: aggregated}
subjects:
- {kind: User, name: bob, apiGroup: rbac.authorization.k8s.io}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: widget-viewer
  labels: {rbac.authorization.k8s.io/aggregate-to-view: "true"}
rules:
- apiGroups: [example.com]
  resources: [widgets]
  verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: carol-views, namespace: team-b}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects:
- {kind: User, name: carol, apiGroup: rbac.authorization.k8s.io}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: root}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects:
- {kind: User, name: root, apiGroup: rbac.authorization.k8s.io}
)";

struct Case {
  const char* source;  // where the expected answer comes from
  const char* as;
  Request request;
  bool allowed;
};

Request res(const char* verb, const char* group, const char* resource, const char* ns,
            const char* name = "", const char* subresource = "") {
  Request r;
  r.verb = verb;
  r.api_group = group;
  r.resource = resource;
  r.subresource = subresource;
  r.name = name;
  r.namespace_ = ns;
  return r;
}

Request url(const char* verb, const char* path) {
  Request r;
  r.verb = verb;
  r.path = path;
  return r;
}

constexpr const char* kOp = "system:serviceaccount:ops:op";
// https://kubernetes.io/docs/reference/access-authn-authz/rbac/ section names below.
constexpr const char* kReferring = "rbac docs: Referring to resources";
constexpr const char* kFieldSelector =
    "rbac docs: Referring to resources (list/watch by resourceName need a metadata.name field "
    "selector; apiserver requestinfo.go sets Name from it)";
constexpr const char* kCreate =
    "rbac docs: Referring to resources (create and deletecollection cannot be restricted by name)";
constexpr const char* kSubresourceName =
    "apiserver requestinfo.go: a subresource request names its parent object";
constexpr const char* kHelpers = "pkg/apis/rbac/v1/evaluation_helpers.go ResourceMatches";
constexpr const char* kBinding = "rbac docs: RoleBinding and ClusterRoleBinding";
constexpr const char* kAggregated = "rbac docs: Aggregated ClusterRoles";
constexpr const char* kUrls = "evaluation_helpers.go NonResourceURLMatches; rbac docs";
constexpr const char* kSubjects = "rbac docs: Referring to subjects (service account groups)";
constexpr const char* kDefaults = "rbac docs: Default roles and role bindings";

const std::vector<Case>& cases() {
  static const std::vector<Case> kCases = {
      // resourceNames with each verb
      {kReferring, kOp, res("get", "", "secrets", "ops", "webhook-server-cert"), true},
      {kReferring, kOp, res("get", "", "secrets", "ops", "other"), false},
      {kFieldSelector, kOp, res("list", "", "secrets", "ops"), false},
      {kFieldSelector, kOp, res("list", "", "secrets", "ops", "webhook-server-cert"), true},
      {kFieldSelector, kOp, res("watch", "", "secrets", "ops"), false},
      {kFieldSelector, kOp, res("watch", "", "secrets", "ops", "webhook-server-cert"), true},
      {kReferring, kOp, res("update", "", "secrets", "ops", "webhook-server-cert"), true},
      {kReferring, kOp, res("patch", "", "secrets", "ops", "other"), false},
      {kReferring, kOp, res("delete", "", "secrets", "ops", "webhook-server-cert"), false},
      {kCreate, kOp, res("create", "", "configmaps", "ops"), false},
      {kCreate, kOp, res("deletecollection", "", "configmaps", "ops"), false},
      {kSubresourceName, kOp, res("create", "", "serviceaccounts", "ops", "sa1", "token"), true},
      {kSubresourceName, kOp, res("create", "", "pods", "ops", "p1", "eviction"), true},
      {kSubresourceName, kOp, res("create", "", "pods", "ops", "p2", "eviction"), false},
      // wildcards
      {kHelpers, kOp, res("get", "example.com", "widgets", "x"), true},
      {kHelpers, kOp, res("get", "example.com", "widgets", "x", "w", "status"), true},
      {kHelpers, kOp, res("get", "other.io", "widgets", "x"), false},
      {kHelpers, kOp, res("escalate", "batch", "jobs", "x"), true},
      // subresources
      {kHelpers, kOp, res("update", "apps", "deployments", "x", "d", "scale"), true},
      {kHelpers, kOp, res("update", "apps", "statefulsets", "x", "s", "scale"), true},
      {kHelpers, kOp, res("update", "apps", "deployments", "x", "d"), false},
      {kHelpers, kOp, res("get", "", "pods", "x", "p", "log"), false},
      {kHelpers, kOp, res("get", "", "pods", "x", "p", "exec"), false},
      {kHelpers, kOp, res("get", "", "pods", "x", "p", "*"), true},
      {kHelpers, kOp, res("create", "", "pods", "x", "p", "exec"), true},
      {kHelpers, kOp, res("create", "", "pods", "x", "p", "attach"), false},
      // RoleBinding to a ClusterRole grants only in the binding's namespace
      {kBinding, kOp, res("list", "", "pods", "team-a"), true},
      {kBinding, kOp, res("list", "", "pods", "ops"), false},
      {kBinding, kOp, res("list", "", "pods", ""), false},
      // a Role cannot grant cluster-scoped resources; a ClusterRoleBinding can
      {kBinding, kOp, res("list", "", "nodes", ""), false},
      {kBinding, kOp, res("get", "", "nodes", ""), true},
      // aggregation replaces the aggregating role's own rules
      {kAggregated, "bob", res("get", "", "services", "any"), true},
      {kAggregated, "bob", res("list", "", "endpoints", "any"), true},
      {kAggregated, "bob", res("delete", "", "secrets", "any", "s"), false},
      {kAggregated, "carol", res("get", "example.com", "widgets", "team-b", "w"), true},
      {kAggregated, "carol", res("list", "", "pods", "team-b"), true},
      {kAggregated, "carol", res("list", "", "pods", "team-c"), false},
      {kAggregated, "carol", res("get", "", "secrets", "team-b", "s"), false},
      // nonResourceURLs
      {kUrls, "alice", url("get", "/healthz"), true},
      {kUrls, "alice", url("get", "/healthz/ready"), false},
      {kUrls, "alice", url("get", "/metrics/cpu"), true},
      {kUrls, "alice", url("get", "/logsfoo"), true},
      {kUrls, "alice", url("post", "/metrics/cpu"), false},
      // group membership
      {kSubjects, kOp, res("list", "", "configmaps", "anywhere"), true},
      {kSubjects, "system:serviceaccount:ops:other", res("get", "", "configmaps", "x", "c"), true},
      {kSubjects, "system:serviceaccount:dev:op", res("get", "", "configmaps", "x", "c"), false},
      {kSubjects, "alice", res("get", "", "configmaps", "x", "c"), false},
      // built-in roles and bindings
      {kDefaults, "root", url("delete", "/anything"), true},
      {kDefaults, "root", res("impersonate", "", "users", ""), true},
      {kDefaults, "system:serviceaccount:dev:op", url("get", "/healthz"), true},
      {kDefaults, "system:serviceaccount:dev:op",
       res("create", "authorization.k8s.io", "selfsubjectaccessreviews", ""), true},
  };
  return kCases;
}

TEST(RbacAuthorizer, Table) {
  Bundle bundle = bundle_from(kPolicy, "ops");
  RbacPolicy policy = RbacPolicy::build(bundle);
  ASSERT_GE(cases().size(), 40u);
  for (const Case& c : cases()) {
    auto who = Identity::parse(c.as, {});
    ASSERT_TRUE(who.has_value());
    Decision d = policy.authorize(*who, c.request);
    EXPECT_EQ(d.allowed, c.allowed)
        << c.as << " " << c.request.describe() << " [" << c.source << "]";
  }
}

TEST(RbacAuthorizer, ExplainsTheResourceNamesTrap) {
  Bundle bundle = bundle_from(kPolicy, "ops");
  RbacPolicy policy = RbacPolicy::build(bundle);
  Decision d =
      policy.authorize(Identity::service_account("ops", "op"), res("list", "", "secrets", "ops"));
  ASSERT_FALSE(d.allowed);
  ASSERT_FALSE(d.reasons.empty());
  EXPECT_EQ(d.reasons[0],
            "Role ops/secret-names (through RoleBinding ops/op-roles) allows list on secrets only "
            "with resourceNames [webhook-server-cert]; this request names no object");
}

TEST(RbacAuthorizer, NamesTheAllowingBindingAndRule) {
  Bundle bundle = bundle_from(kPolicy, "ops");
  RbacPolicy policy = RbacPolicy::build(bundle);
  Decision d =
      policy.authorize(Identity::service_account("ops", "op"), res("list", "", "pods", "team-a"));
  ASSERT_TRUE(d.allowed);
  EXPECT_EQ(d.binding->display(), "RoleBinding team-a/read-pods");
  EXPECT_EQ(d.role->display(), "ClusterRole pod-reader");
  EXPECT_EQ(d.rule->node.position().line, 49u);  // pod-reader's rule, counted by hand
}

TEST(RbacAuthorizer, AggregationKeepsItsSources) {
  Bundle bundle = bundle_from(kPolicy, "ops");
  RbacPolicy policy = RbacPolicy::build(bundle);
  const RbacRole* aggregated = policy.find_role(true, "", "aggregated");
  ASSERT_NE(aggregated, nullptr);
  ASSERT_EQ(aggregated->aggregated_from.size(), 2u);
  EXPECT_EQ(aggregated->aggregated_from[0]->name, "part-a");
  EXPECT_EQ(aggregated->rules.size(), 2u);
}

TEST(RbacIdentity, ServiceAccountGroups) {
  Identity sa = Identity::service_account("ops", "op");
  EXPECT_EQ(sa.user, "system:serviceaccount:ops:op");
  EXPECT_EQ(sa.groups,
            (std::vector<std::string>{"system:serviceaccounts", "system:serviceaccounts:ops",
                                      "system:authenticated"}));
  auto user = Identity::parse("alice", {"team"});
  ASSERT_TRUE(user.has_value());
  EXPECT_EQ(user->groups, (std::vector<std::string>{"system:authenticated", "team"}));
  EXPECT_FALSE(Identity::parse("system:serviceaccount:ops", {}).has_value());
}

// authentication/request/anonymous/anonymous.go: the anonymous user is system:anonymous in the
// group system:unauthenticated; group/authenticated_group_adder.go adds system:authenticated to
// every other user, never to it.
TEST(RbacIdentity, AnonymousIsOnlyUnauthenticated) {
  auto anonymous = Identity::parse("system:anonymous", {});
  ASSERT_TRUE(anonymous.has_value());
  EXPECT_EQ(anonymous->groups, std::vector<std::string>{"system:unauthenticated"});
  EXPECT_FALSE(anonymous->in_group("system:authenticated"));
  EXPECT_EQ(Identity::named_user("bob").groups, std::vector<std::string>{"system:authenticated"});
}

// requestinfo.go sets the namespace of GET /api/v1/namespaces/NAME (and of its status and
// finalize subresources) to NAME, so a RoleBinding in team-a that allows get on namespaces
// lets its subject read the Namespace team-a, and no other; listing namespaces has no namespace.
TEST(RbacRequestInfo, RequestsOnANamespaceObjectAreInThatNamespace) {
  Bundle bundle = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: read-ns, namespace: team-a}
rules:
- {apiGroups: [""], resources: [namespaces], verbs: [get, list]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: read-ns, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: read-ns}
subjects: [{kind: User, name: alice}]
)");
  RbacPolicy policy = RbacPolicy::build(bundle);
  Identity alice = Identity::named_user("alice");
  auto request = [&](const char* verb, const char* name) {
    auto r = make_request(verb, "namespaces", name, "default", bundle.resources);
    EXPECT_TRUE(r.has_value());
    return *r;
  };
  EXPECT_EQ(request("get", "team-a").namespace_, "team-a");
  EXPECT_TRUE(policy.authorize(alice, request("get", "team-a")).allowed);
  EXPECT_FALSE(policy.authorize(alice, request("get", "team-b")).allowed);
  EXPECT_EQ(request("list", "").namespace_, "");
  EXPECT_FALSE(policy.authorize(alice, request("list", "")).allowed);
}

// The index by subject finds exactly the bindings that visiting each one with applies_to finds,
// for service accounts (with the namespace defaulted), users, groups, and the built-in policy's
// system:authenticated and system:masters bindings.
TEST(RbacBindingsOf, AgreesWithVisitingEveryBinding) {
  Bundle bundle = bundle_from(kPolicy, "ops");
  RbacPolicy policy = RbacPolicy::build(bundle);
  std::vector<Identity> identities = {Identity::service_account("ops", "op"),
                                      Identity::service_account("ops", "other"),
                                      Identity::service_account("team-a", "op"),
                                      Identity{"root", {"system:authenticated"}},
                                      Identity{"admin", {"system:masters", "system:authenticated"}},
                                      Identity{"", {"nobody"}}};
  size_t found = 0;
  for (const Identity& who : identities) {
    std::vector<uint32_t> visited;
    for (uint32_t i = 0; i < policy.bindings().size(); ++i) {
      const RbacBinding& b = policy.bindings()[i];
      if (std::any_of(b.subjects.begin(), b.subjects.end(),
                      [&](const Subject& s) { return b.applies_to(s, who); })) {
        visited.push_back(i);
      }
    }
    EXPECT_EQ(policy.bindings_of(who), visited) << who.user;
    found += visited.size();
  }
  EXPECT_GT(found, 10u);  // the comparison is not vacuous
}

TEST(RbacWhoCan, ListsSubjectsWithTheirBindings) {
  Bundle bundle = bundle_from(kPolicy, "ops");
  RbacPolicy policy = RbacPolicy::build(bundle);
  std::vector<std::string> who;
  for (const auto& g : policy.who_can(res("create", "", "pods", "x", "p", "exec"))) {
    if (!g.binding->builtin()) who.push_back(g.subject.display() + " via " + g.binding->display());
  }
  // root holds cluster-admin through a binding in the bundle.
  EXPECT_EQ(who, (std::vector<std::string>{"ServiceAccount ops/op via ClusterRoleBinding wide",
                                           "User root via ClusterRoleBinding root"}));
}

}  // namespace
}  // namespace footprint
