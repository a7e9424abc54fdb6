// The paths of Kubernetes' "Role Based Access Control Good Practices" (escalation_paths.h) on the
// hand-written bundles of tests/data/rbac-paths/. Each verdict is argued from that page or from
// the API server source named beside it, never from footprint's output.
#include "analysis/models/escalation_paths.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "analysis/check_testing.h"
#include "analysis/context.h"
#include "analysis/models/rbac_models.h"
#include "load/loader.h"

namespace footprint {
namespace {

using testing::about;
using testing::bundle_from;
using testing::rbac_paths_fixture;
using testing::run_check;
using testing::says;

// Every path names a registered check, and every item of the page's two lists ("Privilege
// escalation risks": eleven items, "Denial of service risks": one, counted on the page) is either
// a path or listed as uncovered with its reason.
TEST(EscalationPaths, CoverEveryItemOfTheGoodPracticesPage) {
  std::set<std::string_view> items;
  for (const EscalationPath& p : escalation_paths()) {
    EXPECT_NE(find_check(p.check), nullptr) << p.id;
    EXPECT_FALSE(p.steps.empty()) << p.id;
    if (!p.docs_item.empty()) items.insert(p.docs_item);
  }
  for (const UncoveredPractice& u : uncovered_practices())
    items.insert(u.docs_item);
  std::set<std::string_view> page = {"Listing secrets",
                                     "Workload creation",
                                     "Persistent volume creation",
                                     "Access to proxy subresource of Nodes",
                                     "Escalate verb",
                                     "Bind verb",
                                     "Impersonate verb",
                                     "CSRs and certificate issuing",
                                     "Token request",
                                     "Control admission webhooks",
                                     "Namespace modification",
                                     "Object creation denial-of-service"};
  EXPECT_EQ(items, page);
}

// Deleting every team's Deployments and their claims' data cluster-wide is high, one finding for
// the subject's two rules; deleting events stays low; deleting its own Deployments is not
// reported.
TEST(EscalationPaths, DestructiveDeleteRatesWorkloadsAboveEvents) {
  auto findings =
      run_check(rbac_paths_fixture("destructive-delete.yaml"), "rbac-destructive-delete");
  ASSERT_EQ(findings.size(), 2u);
  const Finding* reaper = about(findings, "ServiceAccount op-system/reaper");
  const Finding* pruner = about(findings, "ServiceAccount op-system/pruner");
  ASSERT_TRUE(reaper && pruner);
  EXPECT_EQ(reaper->severity, Severity::kHigh);
  EXPECT_TRUE(says(reaper, "delete deployments.apps"));
  EXPECT_TRUE(says(reaper, "deletecollection persistentvolumeclaims"));
  EXPECT_EQ(pruner->severity, Severity::kLow);
  EXPECT_EQ(about(findings, "ServiceAccount op-system/own-reaper"), nullptr);
}

// pods/ephemeralcontainers is exec by another name: medium in another team's namespace, as
// rbac-pod-exec rates exec there. create serviceaccounts/token cluster-wide mints a token for
// kube-system's clusterrole-aggregation-controller, which the bootstrap policy lets escalate
// any ClusterRole (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go):
// critical.
TEST(EscalationPaths, EphemeralContainersAreExecAndTokensEverywhereAreCritical) {
  Bundle b = rbac_paths_fixture("ephemeral-and-tokens.yaml");
  auto exec = run_check(b, "rbac-pod-exec");
  ASSERT_EQ(exec.size(), 1u);
  EXPECT_EQ(exec[0].severity, Severity::kMedium);
  EXPECT_TRUE(says(&exec[0], "patch pods/ephemeralcontainers"));
  auto escalation = run_check(b, "rbac-privilege-escalation");
  ASSERT_EQ(escalation.size(), 1u);
  EXPECT_EQ(escalation[0].severity, Severity::kCritical);
  EXPECT_TRUE(says(&escalation[0], "kube-system/clusterrole-aggregation-controller"));
}

// pkg/registry/rbac/escalation_check.go: BindingAuthorized lets a subject with bind on a role
// bind it, so bind on every ClusterRole plus creating ClusterRoleBindings is binding
// cluster-admin: one root cause, one critical (rbac-binding-write's); the bind right itself stays
// a high finding of rbac-privilege-escalation. EscalationAllowed lets a subject with escalate
// write any rule into a role it may update, so escalate with update on every ClusterRole reaches
// cluster-admin through the ClusterRole bound to it, without writing a binding. A subject holding
// both paths becomes cluster-admin through RBAC writes either way: the policybased storage of
// ClusterRoleBindings (pkg/registry/rbac/clusterrolebinding/policybased/storage.go) and of
// ClusterRoles (clusterrole/policybased/storage.go) are two doors to the same consequence, so
// its one critical is rbac-binding-write's, which names the second path, and
// rbac-privilege-escalation keeps its rights at high (cluster-wide) without a second critical.
TEST(EscalationPaths, BindWithBindingWritesIsOneCriticalAndEscalateWithUpdateIsATakeover) {
  Bundle b = rbac_paths_fixture("bind-or-escalate.yaml");
  auto bindings = run_check(b, "rbac-binding-write");
  ASSERT_EQ(bindings.size(), 2u);
  const Finding* binds = about(bindings, "ServiceAccount op-system/binder");
  const Finding* both_binds = about(bindings, "ServiceAccount op-system/both");
  ASSERT_TRUE(binds && both_binds);
  EXPECT_EQ(binds->severity, Severity::kCritical);
  EXPECT_TRUE(says(binds, "ClusterRole cluster-admin cluster-wide"));
  EXPECT_FALSE(says(binds, "escalate"));
  EXPECT_EQ(both_binds->severity, Severity::kCritical);
  EXPECT_TRUE(says(both_binds, "ClusterRole cluster-admin cluster-wide"));
  EXPECT_TRUE(says(both_binds,
                   "It may also escalate and update every ClusterRole, through "
                   "ClusterRole both (through ClusterRoleBinding both)"));
  auto escalation = run_check(b, "rbac-privilege-escalation");
  ASSERT_EQ(escalation.size(), 3u);
  const Finding* binder = about(escalation, "ServiceAccount op-system/binder");
  const Finding* rewriter = about(escalation, "ServiceAccount op-system/rewriter");
  const Finding* both = about(escalation, "ServiceAccount op-system/both");
  ASSERT_TRUE(binder && rewriter && both);
  EXPECT_EQ(binder->severity, Severity::kHigh);
  EXPECT_EQ(rewriter->severity, Severity::kCritical);
  EXPECT_TRUE(says(rewriter, "writing every right into a ClusterRole bound to it"));
  EXPECT_EQ(both->severity, Severity::kHigh);
  EXPECT_TRUE(says(both, "rated with its binding writes in rbac-binding-write"));
  // One critical per subject over both checks.
  size_t criticals = 0;
  for (const auto* findings : {&bindings, &escalation}) {
    for (const Finding& f : *findings) {
      if (f.severity == Severity::kCritical && says(&f, "ServiceAccount op-system/both"))
        ++criticals;
    }
  }
  EXPECT_EQ(criticals, 1u);
}

// Writing CRDs is a path of the table. Its marks on a rule come from it: patch changes a CRD as
// update does (the API server's patch handler applies the patch and then updates the object,
// staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go), so a patch-only rule changes
// CRDs; get does not.
TEST(EscalationPaths, WritingCrdsIsAPathWithItsMark) {
  ASSERT_NE(find_escalation_path("write-crds"), nullptr);
  EXPECT_EQ(find_escalation_path("write-crds")->check, "rbac-crd-write");
  auto marks = [](const char* verb) {
    PolicyRule rule;
    rule.verbs = {verb};
    rule.api_groups = {"apiextensions.k8s.io"};
    rule.resources = {"customresourcedefinitions"};
    return rule_risks(rule);
  };
  EXPECT_EQ(marks("patch"), std::vector<std::string>{"changes CRDs"});
  EXPECT_EQ(marks("create"), std::vector<std::string>{"changes CRDs"});
  EXPECT_TRUE(marks("get").empty());
}

// Update and patch limited by resourceNames grant the request for the objects named
// (the authorizer's ResourceNameMatches); create names no object, so only a rule without names
// grants it. A rule that updates only named webhook configurations or CRDs holds its write path
// at low, one that may create them at the path's severity.
TEST(EscalationPaths, NamedWritesHoldTheirPathAtLow) {
  Bundle b = bundle_from(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: named}
rules:
- {apiGroups: [admissionregistration.k8s.io], resources: [validatingwebhookconfigurations],
   resourceNames: [op-webhook], verbs: [update, patch]}
- {apiGroups: [apiextensions.k8s.io], resources: [customresourcedefinitions],
   resourceNames: [widgets.example.com], verbs: [update]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: named}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: named}
subjects: [{kind: ServiceAccount, name: named, namespace: ops}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: creates}
rules:
- {apiGroups: [apiextensions.k8s.io], resources: [customresourcedefinitions], verbs: [create]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: creates}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: creates}
subjects: [{kind: ServiceAccount, name: creates, namespace: ops}]
)",
                         "ops");
  Context ctx(b, {}, {}, nullptr);
  auto held = [&](std::string_view path, std::string_view account) -> const HeldEscalation* {
    for (const HeldEscalation& h : ctx.escalations) {
      if (h.path->id == path && h.rights.subject.name == account) return &h;
    }
    return nullptr;
  };
  const HeldEscalation* admission = held("write-admission", "named");
  const HeldEscalation* crds = held("write-crds", "named");
  const HeldEscalation* creates = held("write-crds", "creates");
  ASSERT_TRUE(admission && crds && creates);
  EXPECT_EQ(admission->severity, Severity::kLow);
  // Asked for the object the rule names.
  ASSERT_EQ(admission->rights.rights.size(), 1u);
  for (const Request& q : admission->rights.rights.front().requests)
    EXPECT_EQ(q.name, "op-webhook");
  EXPECT_EQ(crds->severity, Severity::kLow);
  EXPECT_EQ(creates->severity, Severity::kMedium);
}

}  // namespace
}  // namespace footprint
