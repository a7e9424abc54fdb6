// The upgrade review's rules, each pinned on a pair of hand-written bundles. CRD rules are argued
// from apiextensions-apiserver's pkg/apis/apiextensions/validation/validation.go
// (ValidateCustomResourceDefinitionStoredVersions, ValidateCustomResourceDefinitionSpecUpdate).
#include "analysis/diff/diff.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analysis/check_testing.h"
#include "analysis/context.h"
#include "analysis/models/inventory.h"

namespace footprint {
namespace {

using testing::bundle_from;

UpgradeDiff diff_of(std::string_view old_yaml, std::string_view new_yaml,
                    const std::vector<DeliveryPath>& deploy_with = {}) {
  Bundle before = bundle_from(old_yaml);
  Bundle after = bundle_from(new_yaml);
  Context old_ctx(before);
  Context new_ctx(after);
  old_ctx.deploy_with = deploy_with;
  new_ctx.deploy_with = deploy_with;
  AnalysisResult old_result = analyze(old_ctx, Config{});
  AnalysisResult new_result = analyze(new_ctx, Config{});
  Inventory old_inventory = take_inventory(before);
  Inventory new_inventory = take_inventory(after);
  return diff_upgrade({old_ctx, old_result, old_inventory}, {new_ctx, new_result, new_inventory});
}

std::vector<const Change*> changes_in(const UpgradeDiff& diff, std::string_view area) {
  std::vector<const Change*> out;
  for (const Change& c : diff.changes)
    if (c.area == area) out.push_back(&c);
  return out;
}

// A CRD with the given versions block (already indented under spec) and scope.
std::string crd(std::string_view versions, std::string_view scope = "Namespaced",
                std::string_view kind = "Widget") {
  return fmt::format(R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: widgets.example.com}}
spec:
  group: example.com
  names: {{kind: {}, plural: widgets, singular: widget, listKind: {}List}}
  scope: {}
  versions:
{}
)",
                     kind, kind, scope, versions);
}

constexpr std::string_view kV1Storage = R"(  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object}}
)";

TEST(DiffCrds, RemovingTheStoredVersionIsCriticalBecauseStoredVersionsMustStayInSpecVersions) {
  // OLD stores objects as v1alpha1, so status.storedVersions holds v1alpha1; NEW lists only v1.
  // ValidateCustomResourceDefinitionStoredVersions: "must appear in spec.versions".
  std::string old_crd = crd(R"(  - {name: v1alpha1, served: true, storage: true}
)");
  std::string new_crd = crd(R"(  - {name: v1, served: true, storage: true}
)");
  UpgradeDiff diff = diff_of(old_crd, new_crd);
  auto crds = changes_in(diff, "crds");
  ASSERT_FALSE(crds.empty());
  EXPECT_EQ(crds[0]->severity, Severity::kCritical);
  EXPECT_NE(crds[0]->change.find("v1alpha1 removed"), std::string::npos);
  EXPECT_NE(crds[0]->consequence.find("must appear in spec.versions"), std::string::npos);
  EXPECT_EQ(diff.changes.front().severity, Severity::kCritical);  // worst first
}

TEST(DiffCrds, KeepingTheOldStorageVersionUnservedIsSafeForStorage) {
  // v1alpha1 stays in spec.versions (served: false), v1 becomes storage: the update is valid;
  // clients of v1alpha1 lose it (high), and the storage change asks for a migration (low).
  std::string old_crd = crd(R"(  - {name: v1alpha1, served: true, storage: true}
)");
  std::string new_crd = crd(R"(  - {name: v1alpha1, served: false, storage: false}
  - {name: v1, served: true, storage: true}
)");
  UpgradeDiff diff = diff_of(old_crd, new_crd);
  std::vector<std::string> seen;
  for (const Change* c : changes_in(diff, "crds")) {
    EXPECT_NE(c->severity, Severity::kCritical) << c->change;
    seen.push_back(std::string(severity_name(c->severity)) + " " + c->change);
  }
  EXPECT_TRUE(contains(seen, "high version v1alpha1 no longer served"));
  EXPECT_TRUE(contains(seen, "low storage version v1alpha1 -> v1"));
  EXPECT_TRUE(contains(seen, "info version v1 added"));
}

TEST(DiffCrds, ScopeAndKindAreImmutableOnceEstablished) {
  // ValidateCustomResourceDefinitionSpecUpdate: ValidateImmutableField on spec.scope and
  // spec.names.kind when the old CRD is Established.
  UpgradeDiff diff = diff_of(crd(kV1Storage), crd(kV1Storage, "Cluster", "Gadget"));
  auto crds = changes_in(diff, "crds");
  ASSERT_EQ(crds.size(), 2u);
  EXPECT_EQ(crds[0]->change, "scope Namespaced -> Cluster");
  EXPECT_EQ(crds[1]->change, "kind Widget -> Gadget");
  EXPECT_EQ(crds[0]->severity, Severity::kCritical);
  EXPECT_EQ(crds[1]->severity, Severity::kCritical);
}

TEST(DiffCrds, SchemaChangesInAServedVersionThatBreakStoredObjects) {
  // Counted by hand: size integer -> string (retyped), mode loses "slow" (narrowed), owner
  // becomes required, and legacy disappears from a schema that does not preserve unknown fields.
  std::string old_crd = crd(R"(  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
              mode: {type: string, enum: [fast, slow]}
              owner: {type: string}
              legacy: {type: string}
)");
  std::string new_crd = crd(R"(  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [owner]
            properties:
              size: {type: string}
              mode: {type: string, enum: [fast]}
              owner: {type: string}
)");
  UpgradeDiff diff = diff_of(old_crd, new_crd);
  std::vector<std::string> seen;
  for (const Change* c : changes_in(diff, "crds"))
    seen.push_back(std::string(severity_name(c->severity)) + " " + c->change + " [" +
                   joined(c->details) + "]");
  EXPECT_TRUE(contains(seen, "high v1: 1 field type changed [spec.size: integer -> string]"));
  EXPECT_TRUE(contains(seen, "high v1: 1 field made required [spec.owner]"));
  EXPECT_TRUE(contains(seen, "high v1: 1 enum narrowed [spec.mode: no longer allows slow]"));
  EXPECT_TRUE(contains(seen, "medium v1: 1 field removed [spec.legacy]"));
  EXPECT_EQ(seen.size(), 4u);
}

TEST(DiffCrds, RemovedFieldsUnderPreservedUnknownFieldsAreKept) {
  // x-kubernetes-preserve-unknown-fields stops pruning there, so the values survive.
  std::string old_crd = crd(R"(  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {a: {type: string}}}}}}
)");
  std::string new_crd = crd(R"(  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, x-kubernetes-preserve-unknown-fields: true}}}}
)");
  EXPECT_TRUE(changes_in(diff_of(old_crd, new_crd), "crds").empty());
}

TEST(DiffCrds, HelmNeverUpgradesCrdsOfTheCrdsDirectory) {
  // `# Source: chart/crds/x.yaml` marks a CRD of the chart's crds/ directory, which helm
  // installs on the first install only (Helm docs, "Custom Resource Definitions").
  std::string old_crd =
      "# Source: chart/crds/widgets.yaml\n" + crd(R"(  - {name: v1, served: true, storage: true}
)");
  std::string new_crd =
      "# Source: chart/crds/widgets.yaml\n" + crd(R"(  - {name: v1, served: true, storage: true}
  - {name: v2, served: true, storage: false}
)");
  UpgradeDiff diff = diff_of(old_crd, new_crd);
  auto crds = changes_in(diff, "crds");
  ASSERT_EQ(crds.size(), 1u);
  EXPECT_NE(crds[0]->fix.find("Helm never upgrades CRDs"), std::string::npos);
  EXPECT_NE(crds[0]->fix.find("chart/crds/widgets.yaml"), std::string::npos);
}

// --deploy-with: Argo CD renders crds/ with --include-crds and applies them like any object
// (argoproj/argo-cd#3336, PR#8012), so the change reaches the cluster; Flux's helm-controller
// skips crds/ on upgrade unless upgrade.crds is CreateReplace (fluxcd/helm-controller's
// HelmRelease API: upgrade.crds defaults to Skip); Helm creates crds/ on install only (helm-www
// chart_best_practices/custom_resource_definitions.md), so a new one is not created on upgrade.
TEST(DiffCrds, WhetherACrdsDirectoryChangeReachesTheClusterDependsOnThePath) {
  std::string old_crd =
      "# Source: chart/crds/widgets.yaml\n" + crd(R"(  - {name: v1, served: true, storage: true}
)");
  std::string new_crd =
      "# Source: chart/crds/widgets.yaml\n" + crd(R"(  - {name: v1, served: true, storage: true}
  - {name: v2, served: true, storage: false}
)");
  UpgradeDiff argo_diff = diff_of(old_crd, new_crd, {DeliveryPath::kArgocd});
  auto argo = changes_in(argo_diff, "crds");
  ASSERT_EQ(argo.size(), 1u);
  EXPECT_NE(argo[0]->fix.find("It reaches the cluster on the paths given (argocd)"),
            std::string::npos);
  UpgradeDiff flux_diff = diff_of(old_crd, new_crd, {DeliveryPath::kFlux});
  auto flux = changes_in(flux_diff, "crds");
  ASSERT_EQ(flux.size(), 1u);
  EXPECT_NE(flux[0]->fix.find("will not reach the cluster with flux"), std::string::npos);
  EXPECT_NE(flux[0]->fix.find("upgrade.crds: CreateReplace"), std::string::npos);
  std::string added = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n";
  UpgradeDiff helm_diff = diff_of(added, new_crd, {DeliveryPath::kHelm4});
  auto helm_added = changes_in(helm_diff, "crds");
  ASSERT_EQ(helm_added.size(), 1u);
  EXPECT_EQ(helm_added[0]->severity, Severity::kHigh);
  UpgradeDiff argo_added_diff = diff_of(added, new_crd, {DeliveryPath::kArgocd});
  auto argo_added = changes_in(argo_added_diff, "crds");
  ASSERT_EQ(argo_added.size(), 1u);
  EXPECT_EQ(argo_added[0]->severity, Severity::kInfo);
}

TEST(DiffCrds, ACrdDroppedFromHelmTemplatesDeletesItsObjects) {
  std::string old_crd = "# Source: chart/templates/crds.yaml\n" + crd(kV1Storage);
  UpgradeDiff diff = diff_of(old_crd, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
  auto crds = changes_in(diff, "crds");
  ASSERT_EQ(crds.size(), 1u);
  EXPECT_EQ(crds[0]->severity, Severity::kCritical);
  EXPECT_EQ(crds[0]->change, "removed from the bundle");
}

// helm.sh/resource-policy: keep makes Helm skip the object when it deletes what the new release
// no longer renders (helm pkg/action: resource policy "keep"); the explanation names that, not
// `kubectl apply --prune`, which has nothing to do with a Helm upgrade (trial Confusing 7).
TEST(DiffCrds, AKeptCrdDroppedFromHelmTemplatesIsExplainedByItsPolicy) {
  std::string old_crd = "# Source: chart/templates/crds.yaml\n" + crd(kV1Storage);
  old_crd.replace(old_crd.find("metadata: {name: widgets.example.com}"),
                  std::string_view("metadata: {name: widgets.example.com}").size(),
                  "metadata: {name: widgets.example.com, annotations: "
                  "{helm.sh/resource-policy: keep}}");
  UpgradeDiff diff = diff_of(old_crd, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
  auto crds = changes_in(diff, "crds");
  ASSERT_EQ(crds.size(), 1u);
  EXPECT_EQ(crds[0]->severity, Severity::kLow);
  EXPECT_NE(crds[0]->consequence.find("helm.sh/resource-policy: keep"), std::string::npos)
      << crds[0]->consequence;
  EXPECT_EQ(crds[0]->consequence.find("kubectl apply"), std::string::npos);
}

TEST(DiffCrds, MovingACrdFromTemplatesToCrdsDeletesIt) {
  // Helm deletes what the installed release rendered and the new one does not; crds/ CRDs are
  // not rendered into the release, so the CRD leaves the release and is deleted.
  std::string old_crd = "# Source: chart/templates/crds.yaml\n" + crd(kV1Storage);
  std::string new_crd = "# Source: chart/crds/widgets.yaml\n" + crd(kV1Storage);
  UpgradeDiff diff = diff_of(old_crd, new_crd);
  auto crds = changes_in(diff, "crds");
  ASSERT_EQ(crds.size(), 1u);
  EXPECT_EQ(crds[0]->severity, Severity::kCritical);
  EXPECT_EQ(crds[0]->change, "moved from templates/ to crds/");
}

constexpr std::string_view kAccount = R"(apiVersion: v1
kind: ServiceAccount
metadata: {name: op, namespace: ops}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: op}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: op}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: op}
rules:
- {apiGroups: [""], resources: [configmaps], verbs: [get]}
)";

// The API server converts an object only when the version asked for differs from the version it
// is stored in, and every stored version stays in spec.versions: with a single version, a new
// conversion strategy has no effect (crd_conversion.cc rates the unwired webhook low likewise).
TEST(DiffCrds, ConversionStrategyOfASingleVersionIsInfo) {
  std::string none = crd(kV1Storage);
  std::string webhook = none;
  webhook.replace(webhook.find("  versions:"), 0,
                  "  conversion:\n    strategy: Webhook\n    webhook:\n"
                  "      conversionReviewVersions: [v1]\n"
                  "      clientConfig: {service: {namespace: ops, name: hs-conversion}}\n");
  for (const auto& [from, to] : {std::pair{none, webhook}, std::pair{webhook, none}}) {
    UpgradeDiff diff = diff_of(from, to);
    auto crds = changes_in(diff, "crds");
    ASSERT_EQ(crds.size(), 1u);
    EXPECT_EQ(crds[0]->severity, Severity::kInfo);
    EXPECT_NE(crds[0]->consequence.find("single version"), std::string::npos);
  }
  // With a second version, requests for it go through the webhook: it matters again.
  std::string two = std::string(kV1Storage) + R"(  - name: v2
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object}}
)";
  std::string webhook_two = webhook;
  webhook_two.replace(webhook_two.find(kV1Storage), kV1Storage.size(), two);
  UpgradeDiff diff = diff_of(crd(two), webhook_two);
  auto crds = changes_in(diff, "crds");
  ASSERT_FALSE(crds.empty());
  EXPECT_GE(crds[0]->severity, Severity::kMedium);
}

TEST(DiffRbac, RightsGainedAndLostPerSubjectFromTheEngine) {
  // NEW's ClusterRole adds list on secrets (cluster-wide through the ClusterRoleBinding) and
  // drops get on configmaps.
  std::string after = std::string(kAccount.substr(0, kAccount.find("rules:"))) +
                      "rules:\n- {apiGroups: [\"\"], resources: [secrets], verbs: [list]}\n";
  UpgradeDiff diff = diff_of(kAccount, after);
  auto rbac = changes_in(diff, "rbac");
  std::vector<std::string> seen;
  for (const Change* c : rbac)
    seen.push_back(c->subject + ": " + c->change + " [" + joined(c->details) + "]");
  // list secrets is a step of read-secrets (escalation_paths.cc), so the right names its path.
  EXPECT_TRUE(contains(seen,
                       "ServiceAccount ops/op: gains 1 right, in every namespace [list "
                       "secrets in every namespace; escalation: read Secrets (read-secrets)]"))
      << joined(seen, "\n");
  EXPECT_TRUE(contains(seen,
                       "ServiceAccount ops/op: loses 1 right [get configmaps in every "
                       "namespace]"));
  for (const Change* c : rbac) {
    if (c->change.starts_with("gains 1")) {
      EXPECT_EQ(c->severity, Severity::kHigh);
    }
  }
}

// How many times `text` occurs in the RBAC changes' lines and details.
size_t mentions(const UpgradeDiff& diff, std::string_view text) {
  size_t n = 0;
  for (const Change* c : changes_in(diff, "rbac")) {
    n += c->change.find(text) != std::string::npos ? 1 : 0;
    for (const std::string& d : c->details)
      n += d.find(text) != std::string::npos ? 1 : 0;
  }
  return n;
}

TEST(DiffRbac, ARightThatIsAnEscalationStepIsListedOnceWithItsPath) {
  // NEW adds create pods/exec and list secrets, bound cluster-wide. Each is one step of a path of
  // the good-practices table (escalation_paths.cc): create pods/exec of exec-into-pods ("exec
  // into pods"), list secrets of read-secrets ("read Secrets"). So the review has one change per
  // path gained, high cluster-wide (the table's cluster_wide severity), holding the consequence
  // and the fix; and one change for the rights gained, where each right appears once, naming the
  // path it is a step of. Before, the path's change repeated the rights in its details.
  std::string rules = std::string(kAccount.substr(0, kAccount.find("rules:"))) +
                      "rules:\n- {apiGroups: [\"\"], resources: [configmaps], verbs: [get]}\n"
                      "- {apiGroups: [\"\"], resources: [pods/exec], verbs: [create]}\n"
                      "- {apiGroups: [\"\"], resources: [secrets], verbs: [list]}\n";
  UpgradeDiff gained = diff_of(kAccount, rules);
  EXPECT_EQ(mentions(gained, "create pods/exec"), 1u);
  EXPECT_EQ(mentions(gained, "list secrets"), 1u);
  std::vector<std::string> seen;
  for (const Change* c : changes_in(gained, "rbac"))
    seen.push_back(std::string(severity_name(c->severity)) + " " + c->change + " [" +
                   joined(c->details, " | ") + "]");
  EXPECT_TRUE(contains(seen,
                       "high gains 2 rights, in every namespace [create pods/exec in every "
                       "namespace; escalation: exec into pods (exec-into-pods) | list secrets in "
                       "every namespace; escalation: read Secrets (read-secrets)]"))
      << joined(seen, "\n");
  for (std::string_view path : {"exec into pods (exec-into-pods)", "read Secrets (read-secrets)"}) {
    EXPECT_TRUE(contains(
        seen, fmt::format("high gains {}, in every namespace [through ClusterRole op]", path)))
        << path << "\n"
        << joined(seen, "\n");
  }

  // The way back: the rights are lost once each, still naming the path they gave, beside the
  // paths lost.
  UpgradeDiff lost = diff_of(rules, kAccount);
  EXPECT_EQ(mentions(lost, "create pods/exec"), 1u);
  EXPECT_EQ(mentions(lost, "list secrets"), 1u);
  bool named = false;
  for (const Change* c : changes_in(lost, "rbac"))
    named = named || contains(c->details,
                              "create pods/exec in every namespace; escalation: exec into pods "
                              "(exec-into-pods)");
  EXPECT_TRUE(named);
}

// A cluster-scoped resource (customresourcedefinitions, clusterrolebindings: scope Cluster in
// the API's discovery) is in no namespace, so "in every namespace" would misdescribe it; only
// the namespaced right gained is "in every namespace" (trial item Cosmetic 1).
TEST(DiffRbac, ClusterScopedRightsAreNotInEveryNamespace) {
  std::string rules = std::string(kAccount.substr(0, kAccount.find("rules:"))) +
                      "rules:\n- {apiGroups: [\"\"], resources: [configmaps], verbs: [get]}\n"
                      "- {apiGroups: [apiextensions.k8s.io], resources: "
                      "[customresourcedefinitions], verbs: [patch]}\n";
  UpgradeDiff diff = diff_of(kAccount, rules);
  const Change* gained = nullptr;
  for (const Change* c : changes_in(diff, "rbac"))
    if (c->change.starts_with("gains 1 right")) gained = c;
  ASSERT_NE(gained, nullptr);
  EXPECT_EQ(gained->change, "gains 1 right");
  ASSERT_EQ(gained->details.size(), 1u);
  EXPECT_TRUE(gained->details[0].starts_with(
      "patch customresourcedefinitions.apiextensions.k8s.io (cluster-scoped)"))
      << gained->details[0];
}

TEST(DiffRbac, NoChangeNoDelta) {
  EXPECT_TRUE(changes_in(diff_of(kAccount, kAccount), "rbac").empty());
}

constexpr std::string_view kWebhook = R"(apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {{name: op}}
webhooks:
- name: pods.op.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: {}
  clientConfig: {{service: {{name: op, namespace: ops}}}}
  rules:
  - {{apiGroups: [""], apiVersions: [v1], resources: [pods], operations: [CREATE]}}
)";

TEST(DiffAdmission, FailurePolicyIgnoreToFailOnPodsOfEveryNamespace) {
  UpgradeDiff diff = diff_of(fmt::format(kWebhook, "Ignore"), fmt::format(kWebhook, "Fail"));
  auto admission = changes_in(diff, "admission");
  std::vector<std::string> seen;
  for (const Change* c : admission)
    seen.push_back(std::string(severity_name(c->severity)) + " " + c->subject + ": " + c->change);
  // The webhook has no namespaceSelector, so it sees pods in every namespace, other teams' too:
  // failing closed there is critical, as webhook-fail-closed rates it.
  EXPECT_TRUE(
      contains(seen,
               "critical Validating webhook pods.op.example.com (op): failurePolicy Ignore -> "
               "Fail"))
      << joined(seen, "\n");
  // trace_admission: one more fail-closed webhook on another team's pod creation.
  bool pod_creation = false;
  for (const Change* c : admission)
    pod_creation = pod_creation || (c->subject.starts_with("Pod creation in other-team") &&
                                    c->severity == Severity::kHigh);
  EXPECT_TRUE(pod_creation) << joined(seen, "\n");
}

TEST(DiffImagesAndFindings, RetagAndFindingsNewResolvedUnchanged) {
  constexpr std::string_view kPod = R"(apiVersion: v1
kind: Pod
metadata: {{name: p, namespace: ops}}
spec:
  containers: [{{name: c, image: "registry.example.com/op:{}"}}]
)";
  UpgradeDiff diff = diff_of(fmt::format(kPod, "1.0"), fmt::format(kPod, "1.1"));
  auto images = changes_in(diff, "images");
  ASSERT_EQ(images.size(), 1u);
  EXPECT_EQ(images[0]->change, "registry.example.com/op:1.0 -> registry.example.com/op:1.1");
  // Same pod, same findings: everything unchanged, nothing new or resolved.
  EXPECT_TRUE(diff.findings.added.empty());
  EXPECT_TRUE(diff.findings.resolved.empty());
  EXPECT_GT(diff.findings.unchanged, 0u);
}

// Conversion happens only between versions, so a conversion webhook whose Service nothing
// creates is low on a CRD with one version and high with two (crd-conversion-service-missing);
// the finding keeps its fingerprint. Upgrading from one to two makes it worse; back, better.
TEST(DiffImagesAndFindings, ASeverityThatRoseIsWorseAndOneThatFellIsBetter) {
  constexpr std::string_view kConverted = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: widgets.example.com}}
spec:
  group: example.com
  names: {{kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}}
  scope: Namespaced
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig: {{service: {{namespace: ops, name: widget-conversion}}}}
  versions:
{})";
  std::string one = fmt::format(kConverted, kV1Storage);
  std::string two = fmt::format(kConverted, std::string(kV1Storage) + R"(  - name: v2
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object}}
)");
  auto service_missing = [](const std::vector<Finding>& findings) {
    std::vector<std::pair<Severity, std::optional<Severity>>> out;
    for (const Finding& f : findings)
      if (f.check == "crd-conversion-service-missing")
        out.emplace_back(f.severity, f.severity_before);
    return out;
  };
  UpgradeDiff up = diff_of(one, two);
  using Pair = std::pair<Severity, std::optional<Severity>>;
  EXPECT_EQ(service_missing(up.findings.worse),
            (std::vector<Pair>{{Severity::kHigh, Severity::kLow}}));
  EXPECT_TRUE(service_missing(up.findings.added).empty());
  UpgradeDiff down = diff_of(two, one);
  EXPECT_EQ(service_missing(down.findings.better),
            (std::vector<Pair>{{Severity::kLow, Severity::kHigh}}));
  EXPECT_TRUE(service_missing(down.findings.resolved).empty());
}

}  // namespace
}  // namespace footprint
