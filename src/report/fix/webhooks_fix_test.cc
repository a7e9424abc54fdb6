#include "report/fix/webhooks_fix.h"

#include <gtest/gtest.h>

#include "analysis/check_testing.h"
#include "analysis/models/webhook_reach.h"
#include "report/section.h"

namespace footprint {
namespace {

using testing::bundle_from;

// An operator in `ops` whose mutating webhook sees every pod CREATE (no selectors, as the field
// report's global mode), and whose validating webhook sees only its own API.
constexpr const char* kFixedOperator = R"(
apiVersion: v1
kind: Service
metadata: {name: op-webhook, namespace: ops}
spec:
  selector: {app: op}
  ports: [{port: 443, targetPort: 9443}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: op, namespace: ops}
spec:
  selector: {matchLabels: {app: op}}
  template:
    metadata: {labels: {app: op}}
    spec:
      serviceAccountName: op
      containers:
      - name: manager
        image: example.com/op:1
        args: [--leader-elect, --webhook-config-sync=true]
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.op.example.com}
spec:
  group: op.example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions: [{name: v1, served: true, storage: true}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: op-mutating}
webhooks:
- name: pods.op.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Ignore
  timeoutSeconds: 10
  clientConfig: {service: {name: op-webhook, namespace: ops, path: /mutate-pod}}
  rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: op-validating}
webhooks:
- name: widgets.op.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig: {service: {name: op-webhook, namespace: ops, path: /validate}}
  rules: [{apiGroups: [op.example.com], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [widgets]}]
)";

// The operator may create pods everywhere, as a cluster-wide operator's ClusterRoleBinding lets it.
constexpr const char* kClusterWideWebhooks = R"(
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: op}
rules: [{apiGroups: [""], resources: [pods], verbs: [create, get, list, watch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: op}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: op}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)";

// The fixed configurations, read back by the admission model the checks use.
struct Fixed {
  Bundle bundle;
  Admission admission;
};

Fixed read_back(const WebhookFixPlan& plan) {
  // As footprint prints them: a stream of JSON objects, which kubectl reads without separators.
  std::string text;
  for (const WebhookConfigFix& f : plan.fixes)
    text += f.fixed;
  Bundle bundle = bundle_from(text);
  Admission admission = read_admission(bundle);
  return {std::move(bundle), std::move(admission)};
}

const AdmissionWebhook* webhook(const Admission& a, std::string_view name) {
  for (const AdmissionWebhook& w : a.webhooks) {
    if (w.name == name) return &w;
  }
  return nullptr;
}

// A pod CREATE in `ns`, whose namespace carries the API server's name label
// (kubernetes.io/metadata.name, set on every namespace since 1.21) and `ns_labels`.
AdmissionRequest pod_in(const std::string& ns, Labels ns_labels = {}, Labels pod_labels = {}) {
  AdmissionRequest r;
  r.operation = "CREATE";
  r.api_version = "v1";
  r.resource = "pods";
  r.served_versions = {"v1"};
  r.namespace_ = ns;
  r.namespace_labels = std::move(ns_labels);
  r.namespace_labels[kNamespaceNameLabel] = ns;
  r.object_labels = std::move(pod_labels);
  return r;
}

TEST(WebhooksFix, ExcludeSystemKeepsRulesAndFailurePolicy) {
  Bundle bundle = bundle_from(kFixedOperator, "ops");
  Context ctx(bundle);
  WebhookFixPlan plan = plan_webhook_fixes(ctx, {});
  ASSERT_TRUE(plan.refusals.empty()) << plan.refusals.front();
  ASSERT_EQ(plan.fixes.size(), 2u);
  Fixed fixed = read_back(plan);
  const AdmissionWebhook* pods = webhook(fixed.admission, "pods.op.example.com");
  ASSERT_NE(pods, nullptr);
  EXPECT_EQ(pods->configuration->name, "op-mutating");
  EXPECT_EQ(pods->failure_policy, FailurePolicy::kIgnore);
  EXPECT_EQ(pods->timeout_seconds, 10);
  EXPECT_EQ(describe_rules(pods->rules), "pods CREATE");
  // NotIn on the name label excludes exactly the three system namespaces; every other namespace
  // carries a different name and still matches (apimachinery labels.Requirement.Matches).
  for (const char* ns : {"kube-system", "kube-public", "kube-node-lease"})
    EXPECT_FALSE(webhook_matches(*pods, pod_in(ns))) << ns;
  for (const char* ns : {"ops", "default", "other-team"})
    EXPECT_TRUE(webhook_matches(*pods, pod_in(ns))) << ns;
  // Whole objects: the client config is still there.
  EXPECT_EQ(pods->client.service_name, "op-webhook");
}

TEST(WebhooksFix, MergesExistingSelectorExpressions) {
  std::string yaml = kFixedOperator;
  yaml.replace(yaml.find("  failurePolicy: Ignore"), 0,
               "  namespaceSelector:\n    matchExpressions:\n"
               "    - {key: env, operator: NotIn, values: [test]}\n"
               "    - {key: kubernetes.io/metadata.name, operator: NotIn, values: [ingress]}\n");
  Bundle bundle = bundle_from(yaml, "ops");
  Context ctx(bundle);
  WebhookFixPlan plan = plan_webhook_fixes(ctx, {});
  ASSERT_TRUE(plan.refusals.empty()) << plan.refusals.front();
  ASSERT_FALSE(plan.fixes.empty());
  Json fixed = Json::parse(plan.fixes.front().fixed);
  Json selector = fixed["webhooks"][0]["namespaceSelector"];
  // The selector matched the system namespaces (NotIn matches a missing key), so they are added
  // to its NotIn on the name; the other expression stays as it was.
  ASSERT_EQ(selector["matchExpressions"].size(), 2u);
  EXPECT_EQ(selector["matchExpressions"][0],
            Json({{"key", "env"}, {"operator", "NotIn"}, {"values", {"test"}}}));
  EXPECT_EQ(selector["matchExpressions"][1]["values"],
            Json({"ingress", "kube-system", "kube-public", "kube-node-lease"}));
}

TEST(WebhooksFix, RefusesToExcludeTheOperatorsOwnSystemNamespace) {
  std::string yaml = kFixedOperator;
  for (size_t at = yaml.find("ops"); at != std::string::npos; at = yaml.find("ops", at))
    yaml.replace(at, 3, "kube-system");
  Bundle bundle = bundle_from(yaml, "kube-system");
  Context ctx(bundle);
  WebhookFixPlan plan = plan_webhook_fixes(ctx, {});
  ASSERT_FALSE(plan.refusals.empty());
  EXPECT_NE(plan.refusals.front().find("pods.op.example.com"), std::string::npos);
  EXPECT_NE(plan.refusals.front().find("a system namespace"), std::string::npos);
}

TEST(WebhooksFix, OwnNarrowsSharedWebhooksToTheOperatorsNamespaces) {
  Bundle bundle = bundle_from(kFixedOperator, "ops");
  Context ctx(bundle);
  WebhookFixOptions options;
  options.scope = WebhookScope::kOwn;
  WebhookFixPlan plan = plan_webhook_fixes(ctx, options);
  ASSERT_TRUE(plan.refusals.empty()) << plan.refusals.front();
  Fixed fixed = read_back(plan);
  const AdmissionWebhook* pods = webhook(fixed.admission, "pods.op.example.com");
  ASSERT_NE(pods, nullptr);
  EXPECT_TRUE(webhook_matches(*pods, pod_in("ops")));
  EXPECT_FALSE(webhook_matches(*pods, pod_in("other-team")));
  EXPECT_FALSE(webhook_matches(*pods, pod_in("kube-system")));
  // The webhook on the operator's own API is only kept out of the system namespaces.
  const AdmissionWebhook* widgets = webhook(fixed.admission, "widgets.op.example.com");
  ASSERT_NE(widgets, nullptr);
  EXPECT_TRUE(widgets->namespace_selector.matches({{kNamespaceNameLabel, "other-team"}}));
  EXPECT_FALSE(widgets->namespace_selector.matches({{kNamespaceNameLabel, "kube-system"}}));
}

TEST(WebhooksFix, OwnRefusesWhenTheOperatorWorksInEveryNamespace) {
  Bundle bundle = bundle_from(std::string(kFixedOperator) + kClusterWideWebhooks, "ops");
  Context ctx(bundle);
  WebhookFixOptions options;
  options.scope = WebhookScope::kOwn;
  WebhookFixPlan plan = plan_webhook_fixes(ctx, options);
  ASSERT_EQ(plan.refusals.size(), 1u);
  EXPECT_NE(plan.refusals[0].find("ops/op may create pods in namespaces the bundle does not show "
                                  "(such as other-team) through ClusterRoleBinding op"),
            std::string::npos)
      << plan.refusals[0];
  EXPECT_NE(plan.refusals[0].find("--own-namespace"), std::string::npos);

  // Named by the user, the namespaces it manages are known.
  options.own_namespaces = {"team-a"};
  plan = plan_webhook_fixes(ctx, options);
  ASSERT_TRUE(plan.refusals.empty()) << plan.refusals.front();
  Fixed fixed = read_back(plan);
  const AdmissionWebhook* pods = webhook(fixed.admission, "pods.op.example.com");
  ASSERT_NE(pods, nullptr);
  EXPECT_TRUE(webhook_matches(*pods, pod_in("team-a")));
  EXPECT_TRUE(webhook_matches(*pods, pod_in("ops")));
  EXPECT_FALSE(webhook_matches(*pods, pod_in("team-b")));
}

TEST(WebhooksFix, OptInOnNamespacesNeedsTheOperatorsNamespaceLabelled) {
  Bundle bundle = bundle_from(kFixedOperator, "ops");
  WebhookFixOptions options;
  options.scope = WebhookScope::kOptIn;
  options.label_key = "op.example.com/enabled";
  options.label_value = "true";
  {
    Context ctx(bundle);
    WebhookFixPlan plan = plan_webhook_fixes(ctx, options);
    ASSERT_EQ(plan.refusals.size(), 1u);
    EXPECT_NE(plan.refusals[0].find("kubectl label namespace ops op.example.com/enabled=true"),
              std::string::npos)
        << plan.refusals[0];
  }
  std::vector<ClusterNamespace> namespaces = default_namespaces(bundle);
  for (ClusterNamespace& ns : namespaces) {
    if (ns.name == "ops") ns.labels["op.example.com/enabled"] = "true";
  }
  Context ctx(bundle, namespaces);
  WebhookFixPlan plan = plan_webhook_fixes(ctx, options);
  ASSERT_TRUE(plan.refusals.empty()) << plan.refusals.front();
  Fixed fixed = read_back(plan);
  const AdmissionWebhook* pods = webhook(fixed.admission, "pods.op.example.com");
  ASSERT_NE(pods, nullptr);
  EXPECT_TRUE(webhook_matches(*pods, pod_in("ops", {{"op.example.com/enabled", "true"}})));
  EXPECT_TRUE(webhook_matches(*pods, pod_in("team-a", {{"op.example.com/enabled", "true"}})));
  EXPECT_FALSE(webhook_matches(*pods, pod_in("other-team")));
  // Labelled or not, the system namespaces stay out.
  EXPECT_FALSE(webhook_matches(*pods, pod_in("kube-system", {{"op.example.com/enabled", "true"}})));
}

TEST(WebhooksFix, OptInOnObjectsChecksTheOperatorsPodLabels) {
  Bundle bundle = bundle_from(kFixedOperator, "ops");
  Context ctx(bundle);
  WebhookFixOptions options;
  options.scope = WebhookScope::kOptIn;
  options.label_on_objects = true;
  options.label_key = "app";
  options.label_value = "op";  // the operator's own pods carry it
  WebhookFixPlan plan = plan_webhook_fixes(ctx, options);
  ASSERT_TRUE(plan.refusals.empty()) << plan.refusals.front();
  Fixed fixed = read_back(plan);
  const AdmissionWebhook* pods = webhook(fixed.admission, "pods.op.example.com");
  ASSERT_NE(pods, nullptr);
  EXPECT_TRUE(webhook_matches(*pods, pod_in("ops", {}, {{"app", "op"}})));
  EXPECT_TRUE(webhook_matches(*pods, pod_in("team-a", {}, {{"app", "op"}})));
  EXPECT_FALSE(webhook_matches(*pods, pod_in("team-a", {}, {{"app", "web"}})));

  options.label_key = "opt-in";
  options.label_value = "yes";  // the operator's pods lack it
  plan = plan_webhook_fixes(ctx, options);
  ASSERT_EQ(plan.refusals.size(), 1u);
  EXPECT_NE(plan.refusals[0].find("do not carry opt-in=yes"), std::string::npos)
      << plan.refusals[0];
}

TEST(WebhooksFix, SaysClusterScopedResourcesStayIntercepted) {
  std::string yaml = kFixedOperator;
  yaml.replace(yaml.find("resources: [pods]"), 17, "resources: [pods, nodes]");
  Bundle bundle = bundle_from(yaml, "ops");
  Context ctx(bundle);
  WebhookFixPlan plan = plan_webhook_fixes(ctx, {});
  ASSERT_EQ(plan.notes.size(), 1u);
  EXPECT_NE(plan.notes[0].find("pods.op.example.com: nodes is cluster-scoped"), std::string::npos)
      << plan.notes[0];
}

TEST(WebhooksFix, WarnsWhenTheOperatorRewritesItsConfigurations) {
  std::string yaml = std::string(kFixedOperator) + R"(
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: op-webhooks}
rules:
- apiGroups: [admissionregistration.k8s.io]
  resources: [mutatingwebhookconfigurations]
  resourceNames: [op-mutating]
  verbs: [get, update]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: op-webhooks}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: op-webhooks}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)";
  Bundle bundle = bundle_from(yaml, "ops");
  Context ctx(bundle);
  WebhookFixPlan plan = plan_webhook_fixes(ctx, {});
  // Only the mutating configuration is writable by name.
  ASSERT_EQ(plan.reverted.size(), 1u);
  EXPECT_NE(plan.reverted[0].find("MutatingWebhookConfiguration op-mutating: the operator's "
                                  "service account ops/op may update it"),
            std::string::npos)
      << plan.reverted[0];
  EXPECT_NE(plan.reverted[0].find("--webhook-config-sync."), std::string::npos) << plan.reverted[0];
}

TEST(WebhooksFix, PostRenderReplacesOnlyTheConfigurations) {
  LoadOptions load;
  load.keep_texts = true;
  auto loaded = load_texts({NamedText{"in.yaml", kFixedOperator}}, load);
  ASSERT_TRUE(loaded);
  Bundle bundle = build_bundle(std::move(*loaded), BundleOptions{"ops"});
  Context ctx(bundle);
  WebhookFixPlan plan = plan_webhook_fixes(ctx, {});
  std::string out = post_render(bundle, plan);
  std::string in = kFixedOperator;
  // Everything before the first configuration is byte for byte the input.
  size_t first = in.find("apiVersion: admissionregistration.k8s.io/v1");
  EXPECT_EQ(out.substr(0, first), in.substr(0, first));
  Bundle again = bundle_from(out, "ops");
  EXPECT_EQ(again.objects.size(), bundle.objects.size());
  Admission admission = read_admission(again);
  const AdmissionWebhook* pods = webhook(admission, "pods.op.example.com");
  ASSERT_NE(pods, nullptr);
  EXPECT_FALSE(webhook_matches(*pods, pod_in("kube-system")));
}

}  // namespace
}  // namespace footprint
