#include "analysis/context.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analysis/analyze.h"
#include "analysis/models/escalation_paths.h"
#include "model/cluster.h"
#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;

// Per team, five objects: its Namespace, a ServiceAccount, a Role on Secrets bound to it, and a
// Deployment with one image; then a webhook on every pod, and a ClusterRole that may bind any
// role, bound to the first team's account. 200 teams make 1,003 objects: more than one range of
// every step that works on ranges of objects.
std::string teams(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) {
    text += fmt::format(R"(---
apiVersion: v1
kind: Namespace
metadata: {{name: team-{0}}}
---
apiVersion: v1
kind: ServiceAccount
metadata: {{name: app, namespace: team-{0}}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {{name: secrets, namespace: team-{0}}}
rules: [{{apiGroups: [""], resources: [secrets], verbs: [get, list]}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {{name: secrets, namespace: team-{0}}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: Role, name: secrets}}
subjects: [{{kind: ServiceAccount, name: app, namespace: team-{0}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: app, namespace: team-{0}}}
spec:
  selector: {{matchLabels: {{app: app}}}}
  template:
    metadata: {{labels: {{app: app}}}}
    spec:
      serviceAccountName: app
      containers: [{{name: app, image: "registry.example.com/team/app{0}:1.{0}"}}]
)",
                        i);
  }
  text += R"(---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: pods}
webhooks:
- name: pods.example.com
  failurePolicy: Fail
  sideEffects: None
  admissionReviewVersions: [v1]
  clientConfig: {service: {name: hook, namespace: team-0, port: 443}}
  rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: binder}
rules: [{apiGroups: [rbac.authorization.k8s.io], resources: [clusterroles], verbs: [bind]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: binder}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: binder}
subjects: [{kind: ServiceAccount, name: app, namespace: team-0}]
)";
  return text;
}

// Everything the models and the analysis say, in their order.
std::vector<std::string> models_and_findings(const Context& ctx) {
  std::vector<std::string> out;
  for (const ImageUse& u : ctx.images.uses)
    out.push_back(fmt::format("use {} {} {}", u.object, u.path, u.written));
  for (const KindCount& k : ctx.inventory.kinds)
    out.push_back(fmt::format("kind {} {}", k.key, k.total()));
  for (const NamespaceUsage& n : ctx.inventory.namespaces)
    out.push_back(fmt::format("usage {} {}", n.name, n.objects));
  for (const ClusterNamespace& n : ctx.namespaces)
    out.push_back(fmt::format("namespace {} {}", n.name, n.operator_owned));
  for (const WebhookSummary& w : ctx.webhooks)
    out.push_back(fmt::format("webhook {} {}", w.intercepts, fmt::join(w.namespaces_hit, ",")));
  for (const HeldEscalation& h : ctx.escalations)
    out.push_back(fmt::format("held {} {}", h.path->id, h.rights.subject.display()));
  for (const SubjectPermissions& p : ctx.permissions)
    out.push_back(fmt::format("permissions {}", p.subject.display()));
  for (const Finding& f : analyze(ctx, Config{}).findings)
    out.push_back(fmt::format("finding {} {} {}", f.check, f.object.name, f.message));
  return out;
}

TEST(Context, ImageUsesFollowInputOrderAcrossRanges) {
  Bundle b = bundle_from(teams(200));
  b.input.jobs = 4;
  ASSERT_EQ(b.objects.size(), 1003u);
  Context ctx(b);
  // One use per Deployment, the fifth object of each team.
  ASSERT_EQ(ctx.images.uses.size(), 200u);
  ASSERT_EQ(ctx.images.images.size(), 200u);
  for (uint32_t i = 0; i < 200; ++i) {
    EXPECT_EQ(ctx.images.uses[i].object, 5 * i + 4);
    EXPECT_EQ(ctx.images.uses[i].written, fmt::format("registry.example.com/team/app{0}:1.{0}", i));
    EXPECT_EQ(ctx.images.images[i].uses, std::vector<size_t>{i});
  }
}

// The models are built, and the checks run, on several threads: what they hold and find is what
// one thread builds and finds.
TEST(Context, ModelsAndFindingsAreThoseOfOneThread) {
  Bundle b = bundle_from(teams(200));
  b.input.jobs = 1;
  std::vector<std::string> serial = models_and_findings(Context(b));
  b.input.jobs = 4;
  std::vector<std::string> parallel = models_and_findings(Context(b));
  EXPECT_EQ(serial, parallel);
  // By hand: 200 uses, 8 kinds, 200 namespaces used, the webhook, some findings.
  auto starting = [&](std::string_view prefix) {
    return std::count_if(serial.begin(), serial.end(),
                         [&](const std::string& s) { return s.starts_with(prefix); });
  };
  EXPECT_EQ(starting("use "), 200);
  EXPECT_EQ(starting("kind "), 8);
  EXPECT_EQ(starting("usage "), 200);
  EXPECT_EQ(starting("webhook "), 1);
  EXPECT_GT(starting("finding "), 0);
}

// An operator: its webhook Service in front of a Deployment, a privileged DaemonSet that
// tolerates every taint, a Role that lets it list one Secret by name only, and three webhooks,
// two on the Service and one on a URL.
constexpr std::string_view kOperator = R"(apiVersion: v1
kind: Namespace
metadata: {name: op}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: op, namespace: op}
---
apiVersion: v1
kind: Service
metadata: {name: hook, namespace: op}
spec:
  selector: {app: op}
  ports: [{port: 443}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: op, namespace: op}
spec:
  selector: {matchLabels: {app: op}}
  template:
    metadata: {labels: {app: op}}
    spec:
      serviceAccountName: op
      containers: [{name: op, image: op:1}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: op}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      tolerations: [{operator: Exists}]
      containers: [{name: agent, image: agent:1, securityContext: {privileged: true}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: tls, namespace: op}
rules: [{apiGroups: [""], resources: [secrets], resourceNames: [tls], verbs: [get, list, watch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: tls, namespace: op}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: tls}
subjects: [{kind: ServiceAccount, name: op, namespace: op}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: op}
webhooks:
- name: pods.op.example.com
  sideEffects: None
  admissionReviewVersions: [v1]
  clientConfig: {service: {name: hook, namespace: op}}
  rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
- name: nodes.op.example.com
  sideEffects: None
  admissionReviewVersions: [v1]
  clientConfig: {service: {name: hook, namespace: op, port: 443}}
  rules: [{apiGroups: [""], apiVersions: [v1], operations: [UPDATE], resources: [nodes/status]}]
- name: leases.op.example.com
  sideEffects: None
  admissionReviewVersions: [v1]
  clientConfig: {url: "https://hooks.example.com/leases"}
  rules: [{apiGroups: [coordination.k8s.io], apiVersions: [v1], operations: [UPDATE],
           resources: [leases]}]
)";

// Counted by hand from kOperator.
TEST(Context, ModelsBuiltOnceHoldWhatTheBundleSays) {
  Bundle b = bundle_from(kOperator);
  Context ctx(b);
  ASSERT_EQ(ctx.pods.size(), 2u);  // the Deployment's and the DaemonSet's

  // Both Service webhooks call op/hook:443 (443 is the API default port): the Service selects
  // the Deployment's pods, not the DaemonSet's. The URL webhook has no Service.
  ASSERT_EQ(ctx.webhooks.size(), 3u);
  for (size_t i = 0; i < 2; ++i) {
    const WebhookSummary& s = ctx.webhooks[i];
    EXPECT_EQ(s.webhook, &ctx.admission.webhooks[i]);
    EXPECT_EQ(s.backend_name, "service op/hook:443");
    ASSERT_NE(s.backend.service, nullptr);
    EXPECT_EQ(s.backend.service->name, "hook");
    EXPECT_TRUE(s.backend.port_found);
    ASSERT_EQ(s.backend.backends.size(), 1u);
    EXPECT_EQ(s.backend.backends[0]->name, "op");
    EXPECT_EQ(s.backend.backends[0]->kind, "Deployment");
  }
  EXPECT_EQ(ctx.webhooks[2].backend_name, "https://hooks.example.com/leases");
  EXPECT_EQ(ctx.webhooks[2].backend.service, nullptr);

  // The components' requests each webhook meets: kube-system's pod creation; every kubelet's
  // Node status (cluster-scoped); leader-election leases in kube-system and node heartbeats in
  // kube-node-lease (the kubelet's Lease, pkg/kubelet/nodelease).
  using Requests = std::vector<ComponentRequest>;
  EXPECT_EQ(ctx.webhooks[0].components.requests,
            (Requests{{"kube-system", "CREATE", "pods", false}}));
  EXPECT_EQ(ctx.webhooks[1].components.requests, (Requests{{"", "UPDATE", "nodes/status", true}}));
  Requests leases{{"kube-system", "UPDATE", "leases.coordination.k8s.io", false},
                  {"kube-node-lease", "UPDATE", "leases.coordination.k8s.io", false}};
  EXPECT_EQ(ctx.webhooks[2].components.requests, leases);
  EXPECT_EQ(leases[0].display(), "leases.coordination.k8s.io UPDATE");
  EXPECT_EQ(leases[1].display(), "leases.coordination.k8s.io in kube-node-lease UPDATE");

  // One DaemonSet: privileged, on every node whatever its taints.
  ASSERT_EQ(ctx.node_footprints.size(), 1u);
  EXPECT_EQ(ctx.node_footprints[0].daemonset->name, "agent");
  EXPECT_TRUE(ctx.node_footprints[0].every_taint);
  EXPECT_EQ(ctx.node_footprints[0].privileged, std::vector<std::string>{"agent"});

  // One trap: list and watch of Secrets only by name, bound to op/op, and no other grant.
  ASSERT_EQ(ctx.list_watch_traps.size(), 1u);
  const ListWatchTrap& trap = ctx.list_watch_traps[0];
  EXPECT_EQ(trap.role->name, "tls");
  EXPECT_EQ(trap.resource, "secrets");
  EXPECT_EQ(trap.namespace_, "op");
  ASSERT_NE(trap.binding, nullptr);
  EXPECT_EQ(trap.subject.display(), "ServiceAccount op/op");
  EXPECT_FALSE(trap.covered_by.allowed);
}

TEST(Context, NamespaceSource) {
  Bundle b = bundle_from(kOperator);
  EXPECT_EQ(Context(b).namespace_source, NamespaceSource::kDefault);
  std::vector<ClusterNamespace> given{make_namespace(b, "op", {})};
  EXPECT_EQ(Context(b, given).namespace_source, NamespaceSource::kGiven);

  auto with_namespaces = load_cluster_text("c.yaml", R"(apiVersion: v1
kind: Namespace
metadata: {name: kube-system}
)");
  ASSERT_TRUE(with_namespaces.has_value());
  Context in_cluster(b, {}, {}, &*with_namespaces);
  EXPECT_EQ(in_cluster.namespace_source, NamespaceSource::kCluster);
  // The snapshot's kube-system, op, which the bundle creates, and the release namespace
  // (bundle_from's "default"), which cluster_namespaces() always adds.
  std::vector<std::string> names;
  for (const ClusterNamespace& ns : in_cluster.namespaces)
    names.push_back(ns.name);
  EXPECT_EQ(names, (std::vector<std::string>{"default", "kube-system", "op"}));

  // A snapshot without Namespaces stands for no cluster's namespaces: the defaults.
  auto without = load_cluster_text("c.yaml", R"(apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: default}
)");
  ASSERT_TRUE(without.has_value());
  EXPECT_EQ(Context(b, {}, {}, &*without).namespace_source, NamespaceSource::kDefault);
}

}  // namespace
}  // namespace footprint
