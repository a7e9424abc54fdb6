#include "analysis/context.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analysis/analyze.h"
#include "analysis/models/escalation_paths.h"
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

}  // namespace
}  // namespace footprint
