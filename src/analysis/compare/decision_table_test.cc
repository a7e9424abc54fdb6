// The decision table over the field report's two install modes (tests/data/field-report/) and
// small bundles for the answers those modes do not exercise. Every expected answer is argued
// from the objects.
#include "analysis/compare/decision_table.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>

#include "analysis/analyze.h"
#include "analysis/context.h"
#include "load/loader.h"
#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;

Bundle field_report_bundle(const char* mode, std::initializer_list<const char*> added = {}) {
  std::vector<std::string> paths = {
      fmt::format("{}/tests/data/field-report/{}", FOOTPRINT_SOURCE_DIR, mode)};
  for (const char* file : added)
    paths.push_back(fmt::format("{}/tests/data/field-report/{}", FOOTPRINT_SOURCE_DIR, file));
  auto loaded = load_inputs(paths, LoadOptions{});
  EXPECT_TRUE(loaded.has_value());
  return build_bundle(std::move(*loaded), BundleOptions{"dynamo-system"});
}

// Bundles, their contexts and findings, kept alive for the table.
struct Modes {
  std::vector<std::unique_ptr<Bundle>> bundles;
  std::vector<std::unique_ptr<Context>> contexts;
  std::vector<std::vector<Finding>> findings;
  std::vector<DecisionMode> modes;

  void add(const std::string& name, Bundle bundle) {
    bundles.push_back(std::make_unique<Bundle>(std::move(bundle)));
    contexts.push_back(std::make_unique<Context>(*bundles.back()));
    findings.push_back(analyze(*contexts.back(), Config{}).findings);
    modes.push_back({name, contexts.back().get(), nullptr, ""});
  }
  void add_failed(const std::string& name, const std::string& error) {
    findings.emplace_back();
    modes.push_back({name, nullptr, nullptr, error});
  }
  DecisionTable table() {
    for (size_t i = 0; i < modes.size(); ++i)
      modes[i].findings = &findings[i];
    return decision_table(modes);
  }
};

const DecisionRow& row(const DecisionTable& t, std::string_view id) {
  for (const DecisionRow& r : t.rows) {
    if (r.id == id) return r;
  }
  ADD_FAILURE() << "no row " << id;
  static const DecisionRow kNone;
  return kNone;
}

std::string answer(const DecisionTable& t, std::string_view id, size_t mode) {
  const DecisionRow& r = row(t, id);
  return mode < r.answers.size() ? r.answers[mode].answer : "<missing>";
}

DecisionTable field_report_table() {
  Modes m;
  m.add("global", field_report_bundle("global.yaml"));
  m.add("restricted", field_report_bundle("restricted.yaml"));
  return m.table();
}

// The namespace set (model/namespaces.h) for release namespace dynamo-system: kube-system,
// kube-public, kube-node-lease, default, dynamo-system, other-team, and in restricted mode
// team-a, where the bundle puts its manager Role. Namespaces of other teams are those the
// operator does not own, the system namespaces (kube-system, kube-public, kube-node-lease)
// aside: default and other-team (2).
//
// Global: mpodcheckpointrestore.example.com matches pods CREATE with no namespaceSelector, so
// the API server calls it in all six namespaces, two of other teams and kube-system;
// failurePolicy Ignore, timeoutSeconds 10, no reinvocation. Restricted: the same webhook's
// namespaceSelector is kubernetes.io/metadata.name=team-a, the label the API server sets on
// team-a only, and team-a is the operator's (its Role lands there): no other team is reached.
// The other seven webhooks match only nvidia.example.com resources, not pod creation.
TEST(DecisionTable, PodCreationPerModeFromTheAdmissionEngine) {
  DecisionTable t = field_report_table();
  ASSERT_EQ(t.modes, (std::vector<std::string>{"global", "restricted"}));
  EXPECT_EQ(answer(t, "pod-creation", 0),
            "yes: mpodcheckpointrestore.example.com (pods CREATE, Ignore, 10 s) in 2 of 2 "
            "namespaces of other teams and kube-system");
  EXPECT_EQ(answer(t, "pod-creation", 1), "no: only team-a");
}

// Global ships four CustomResourceDefinitions and no container installs any (the manager has no
// command or args); its ClusterRole may update and patch CRDs but not create them. Restricted
// ships none, and nvidia.example.com is its own API (its Role writes
// dynamographdeployments/status): the user applies them first. The global mode's CRDs hold a
// schema of a few lines, far below client-side apply's 262,144-byte annotation limit, so no
// server-side apply is asked for.
TEST(DecisionTable, CrdInstallerAndPrerequisites) {
  DecisionTable t = field_report_table();
  EXPECT_EQ(answer(t, "crd-installer", 0), "the chart (4 CRDs)");
  EXPECT_EQ(answer(t, "crd-installer", 1), "you, before installing (nvidia.example.com)");
  // Everything global puts in a namespace lands in the release namespace.
  EXPECT_EQ(answer(t, "prerequisites", 0), "nothing beyond the release namespace");
  // Restricted: the own CRDs, and team-a, which holds the manager Role and RoleBinding but no
  // Namespace object creates.
  EXPECT_EQ(answer(t, "prerequisites", 1),
            "CRDs of nvidia.example.com (the install's own); namespaces team-a");
  // None of global's four CRDs has spec.conversion.strategy Webhook. Restricted ships no CRD of
  // its own group nvidia.example.com, and only a CRD's spec.conversion says whether it converts
  // through a webhook: the table cannot tell, and says how to give it the CRDs.
  EXPECT_EQ(answer(t, "conversion-wiring", 0), "nobody needed (no conversion webhooks)");
  EXPECT_EQ(answer(t, "conversion-wiring", 1),
            "cannot tell: the CRDs of nvidia.example.com (the install's own) are not in the "
            "input, and only they say whether conversion goes through a webhook; add them (give "
            "this mode a directory holding its manifests and the CRD files, NAME=DIR)");
}

// The cert rotator's Role in dynamo-system lists secrets only by the name webhook-server-cert.
// Global: the manager ClusterRole, bound to the same account, lists secrets in every namespace,
// so an informer works wherever the operator runs. Restricted: the manager Role is in team-a and
// the webhook-ca ClusterRole covers only webhook configurations, so nothing lets the account
// list secrets in dynamo-system; the manager Role lets it list and watch every secret in team-a,
// an informer's rights, whose cache spans dynamo-system too: no (the field report's 161 crash
// loops).
TEST(DecisionTable, SeparateNamespacesFromTheRbacAuthorizer) {
  DecisionTable t = field_report_table();
  EXPECT_EQ(answer(t, "separate-namespaces", 0), "yes");
  EXPECT_EQ(answer(t, "separate-namespaces", 1),
            "no: ServiceAccount dynamo-system/dynamo-platform-controller-manager cannot list "
            "secrets in dynamo-system (resourceNames rule): add a Role (`footprint fix rbac`)");
}

// The row grades a trap as rbac-resourcenames-list-watch does. ServiceAccount op-system/reader
// may list and watch ConfigMaps in op-system only by the name op-settings. RequestInfo names a
// list or watch with field selector metadata.name=op-settings after that object, so such a watch
// is allowed; an informer's unnamed list is not. "unknown": nothing shows which the operator
// does, so the answer depends on it and says what to run. "named": its Deployment passes
// --settings=op-settings, the sign of an operator reading that one object by name: yes.
// "informer": it may also list and watch every ConfigMap in team-a, the rights of an informer
// whose cache, spanning its namespaces, lists op-system's too: no, even though its container
// also names the object (the check ranks the rights above the name). The check's severities
// (medium, low, high) are asserted beside the answers, a second reading of the same evidence.
TEST(DecisionTable, SeparateNamespacesFollowsTheListWatchEvidence) {
  const std::string trap = R"(
apiVersion: v1
kind: ServiceAccount
metadata: {name: reader, namespace: op-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: named-config, namespace: op-system}
rules:
- {apiGroups: [""], resources: [configmaps], resourceNames: [op-settings], verbs: [get, list, watch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: named-config, namespace: op-system}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: named-config}
subjects: [{kind: ServiceAccount, name: reader, namespace: op-system}]
)";
  const std::string names_it = R"(
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: reader, namespace: op-system}
spec:
  selector: {matchLabels: {app: r}}
  template:
    metadata: {labels: {app: r}}
    spec:
      serviceAccountName: reader
      containers: [{name: r, image: x, args: [--settings=op-settings]}]
)";
  const std::string informer = R"(
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: manager, namespace: team-a}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [get, list, watch]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: manager, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: manager}
subjects: [{kind: ServiceAccount, name: reader, namespace: op-system}]
)";
  Modes m;
  m.add("unknown", bundle_from(trap, "op-system"));
  m.add("named", bundle_from(trap + names_it, "op-system"));
  m.add("informer", bundle_from(trap + names_it + informer, "op-system"));
  DecisionTable t = m.table();
  EXPECT_EQ(answer(t, "separate-namespaces", 0),
            "depends: if ServiceAccount op-system/reader runs an informer over configmaps in "
            "op-system, it cannot list them (resourceNames rule): add a Role (`footprint fix "
            "rbac`); a watch by field selector metadata.name works");
  EXPECT_EQ(answer(t, "separate-namespaces", 1), "yes");
  EXPECT_NE(
      row(t, "separate-namespaces").answers[1].evidence.front().find("`--settings=op-settings`"),
      std::string::npos);
  EXPECT_EQ(answer(t, "separate-namespaces", 2),
            "no: ServiceAccount op-system/reader cannot list configmaps in op-system "
            "(resourceNames rule): add a Role (`footprint fix rbac`)");
  std::vector<Severity> graded;
  for (const std::vector<Finding>& findings : m.findings) {
    for (const Finding& f : findings) {
      if (f.check == "rbac-resourcenames-list-watch") graded.push_back(f.severity);
    }
  }
  EXPECT_EQ(graded, (std::vector<Severity>{Severity::kMedium, Severity::kLow, Severity::kHigh}));
}

// Counted from the files. Global: ClusterRoles dynamo-platform-manager and -webhook-ca, their
// two bindings, and six other cluster-scoped objects: four CRDs and one configuration of each
// webhook type; one Role, the cert rotator's.
// The manager's first rule gets and lists secrets in every namespace (reads secrets), and creates
// pods (creates workloads); reading secrets ranks first. Restricted: only webhook-ca stays
// cluster-wide, and it names its objects (resourceNames), so no risky right is cluster-wide;
// Roles: the manager in team-a and the cert rotator.
TEST(DecisionTable, ClusterFootprintCountedAndRanked) {
  DecisionTable t = field_report_table();
  EXPECT_EQ(answer(t, "cluster-footprint", 0),
            "2 ClusterRoles, 2 ClusterRoleBindings, 6 other cluster-scoped objects + 1 Role; "
            "riskiest cluster-wide right: ServiceAccount "
            "dynamo-system/dynamo-platform-controller-manager reads secrets");
  EXPECT_EQ(row(t, "cluster-footprint").answers[0].evidence.front(), "4 CRDs");
  EXPECT_EQ(answer(t, "cluster-footprint", 1),
            "1 ClusterRole, 1 ClusterRoleBinding, 2 other cluster-scoped objects + 2 Roles; no "
            "risky cluster-wide right");
}

// Who can install it: can-install's model for the built-in admin role bound in every namespace
// the install's objects land in. Both field report modes create a ClusterRole, which no
// namespace admin may (admin holds no cluster-wide right); a bundle of one ConfigMap and a Role
// that reads pods needs nothing admin lacks in its namespace (admin creates ConfigMaps and Roles,
// reads pods and keeps Helm's release Secrets).
TEST(DecisionTable, WhoInstallsAsANamespaceAdmin) {
  DecisionTable t = field_report_table();
  EXPECT_EQ(answer(t, "who-installs", 0), "cluster admin only");
  EXPECT_EQ(answer(t, "who-installs", 1), "cluster admin only");
  const std::vector<std::string>& why = row(t, "who-installs").answers[1].evidence;
  ASSERT_FALSE(why.empty());
  EXPECT_EQ(why.front(),
            "a namespace admin may not create customresourcedefinitions.apiextensions.k8s.io "
            "cluster-wide (the CRDs of nvidia.example.com (dynamographdeployments, "
            "dynamocomponentdeployments, dynamographdeploymentrequests, "
            "dynamographdeploymentscalingadapters), which the install needs and does not ship)");
  Modes m;
  m.add("small", bundle_from(R"(
apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader}
rules: [{apiGroups: [""], resources: [pods], verbs: [get, list, watch]}]
)",
                             "team-a"));
  EXPECT_EQ(answer(m.table(), "who-installs", 0), "a namespace admin of team-a");
}

// The worst finding is the first of analyze()'s order; field_report_test.cc argues which it is
// for each mode: creating workloads in every namespace, kube-system's controllers included
// (critical), in global, the resourceNames trap (high) in restricted.
TEST(DecisionTable, WorstFindingPerMode) {
  DecisionTable t = field_report_table();
  EXPECT_TRUE(
      answer(t, "worst-finding", 0).starts_with("critical rbac-workload-create-cluster-wide: "));
  EXPECT_TRUE(answer(t, "worst-finding", 1).starts_with("high rbac-resourcenames-list-watch: "));
  EXPECT_FALSE(row(t, "worst-finding").answers[0].evidence.empty());
}

// A mode that failed keeps its column: the first row says why, the others stay empty.
TEST(DecisionTable, FailedModeShowsItsError) {
  Modes m;
  m.add("global", field_report_bundle("global.yaml"));
  m.add_failed("broken", "Error: VALIDATION ERROR: incompatible values");
  DecisionTable t = m.table();
  ASSERT_EQ(t.rows.front().id, "renders");
  EXPECT_EQ(answer(t, "renders", 0), "yes");
  EXPECT_EQ(answer(t, "renders", 1), "no: Error: VALIDATION ERROR: incompatible values");
  EXPECT_EQ(answer(t, "pod-creation", 1), "");
  EXPECT_EQ(row(t, "pod-creation").answers.size(), 2u);
}

// A workload webhook that fails closed, excluding only ops and kube-system by name: the API
// server calls it on Deployment CREATE and UPDATE in kube-public, kube-node-lease, default and
// other-team, the four namespaces of other teams in the set for release namespace ops.
// failurePolicy defaults to Fail in admissionregistration/v1 (types.go: "Defaults to Fail").
TEST(DecisionTable, FailClosedWorkloadWebhookReachesOthers) {
  Modes m;
  m.add("a", bundle_from(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: deploy.example.com
  timeoutSeconds: 5
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE, UPDATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments]}]
  namespaceSelector:
    matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [ops, kube-system]}]
)",
                         "ops"));
  // A pod webhook that needs a label on the namespace reaches only teams that opt in.
  m.add("b", bundle_from(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: m}
webhooks:
- name: inject.example.com
  clientConfig: {service: {namespace: ops, name: hooks}, caBundle: LS0tCg==}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
  namespaceSelector: {matchLabels: {inject: "true"}}
)",
                         "ops"));
  DecisionTable t = m.table();
  EXPECT_EQ(answer(t, "pod-creation", 0),
            "yes: deploy.example.com (deployments.apps CREATE/UPDATE, Fail, 5 s) in 2 of 2 "
            "namespaces of other teams");
  EXPECT_EQ(answer(t, "pod-creation", 1),
            "no: only where teams opt in by label (inject.example.com)");
}

constexpr const char* kConversionCrd = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig: {service: {namespace: ops, name: conv, path: /convert}}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
  - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
)";

// Conversion: with neither the Service nor a caBundle nor anyone to inject it, the user wires
// both; with the Service present and the operator's account allowed to patch that CRD, the
// operator writes the CA (ca_injectors: a subject allowed to update or patch the object).
TEST(DecisionTable, ConversionWiring) {
  Modes m;
  m.add("bare", bundle_from(kConversionCrd, "ops"));
  m.add("operator", bundle_from(fmt::format("{}{}", kConversionCrd, R"(
---
apiVersion: v1
kind: Service
metadata: {name: conv, namespace: ops}
spec: {ports: [{port: 443}]}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: op, namespace: ops}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: crd-ca}
rules:
- apiGroups: [apiextensions.k8s.io]
  resources: [customresourcedefinitions]
  resourceNames: [widgets.example.com]
  verbs: [get, patch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: crd-ca}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: crd-ca}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)"),
                                "ops"));
  DecisionTable t = m.table();
  EXPECT_EQ(answer(t, "conversion-wiring", 0),
            "you: Service ops/conv and the CA of CRD widgets.example.com (`footprint fix crds` "
            "prints how)");
  EXPECT_EQ(answer(t, "conversion-wiring", 1),
            "the operator (ServiceAccount ops/op may patch CRDs)");
  // Both ship the CRD itself.
  EXPECT_EQ(answer(t, "crd-installer", 0), "the chart (1 CRD)");
}

// The CRD's file names Service ops/conv, which no mode creates, and ServiceAccount ops/op may
// patch the CRD (its CA injector, as above). "applier" also runs a container that applies the
// install's own CRDs (a command about CRDs with an applying verb, crd_install_command) and points
// their conversion webhook at Service ops/hooks whenever it applies them
// (--conversion-webhook-service-name, the model of ConversionWiring::rewriter): the operator
// wires both. "by-hand" has the same Service and account but nothing that applies the CRD: the
// file's reference is what the API server calls, and the user repoints it (no Service is close
// enough to conv to suggest). "elsewhere" applies it with a Service the bundle does not create:
// the user again, for that Service.
TEST(DecisionTable, ConversionWiringByTheOperatorThatAppliesItsCrds) {
  std::string shared = fmt::format("{}{}", kConversionCrd, R"(
---
apiVersion: v1
kind: Service
metadata: {name: hooks, namespace: ops}
spec: {ports: [{port: 443}]}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: op, namespace: ops}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: crd-ca}
rules:
- {apiGroups: [apiextensions.k8s.io], resources: [customresourcedefinitions], verbs: [get, patch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: crd-ca}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: crd-ca}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)");
  auto applier = [&](const char* service) {
    return fmt::format(R"({}
---
apiVersion: batch/v1
kind: Job
metadata: {{name: crd-apply, namespace: ops}}
spec:
  template:
    spec:
      containers:
      - name: apply
        image: i
        command: [/crd-apply, --crds-dir=/opt/crds/, --conversion-webhook-service-name={}]
)",
                       shared, service);
  };
  Modes m;
  m.add("applier", bundle_from(applier("hooks"), "ops"));
  m.add("by-hand", bundle_from(shared, "ops"));
  m.add("elsewhere", bundle_from(applier("gone"), "ops"));
  DecisionTable t = m.table();
  EXPECT_EQ(answer(t, "conversion-wiring", 0),
            "the operator (container apply of Job ops/crd-apply sets Service ops/hooks when it "
            "applies the CRDs; ServiceAccount ops/op may patch CRDs)");
  EXPECT_EQ(answer(t, "conversion-wiring", 1),
            "you: Service ops/conv of CRD widgets.example.com (`footprint fix crds` prints how)");
  EXPECT_EQ(answer(t, "conversion-wiring", 2),
            "you: Service ops/gone of CRD widgets.example.com (`footprint fix crds` prints how)");
}

// The field report's modes with the operator's CRD files given (crd-files.yaml: conversion at
// dynamo-operator-webhook-service, which neither mode creates, and no caBundle). Global runs the
// chart's crd-apply hook (crd-apply-hook.yaml), which points every CRD it applies at
// dynamo-system/dynamo-platform-webhook-service, a Service global.yaml creates, and its manager
// ClusterRole may update and patch CRDs, so the running operator writes the CA: the operator.
// The manager's binding comes first in the input (global.yaml), so it is the CA writer named.
// Restricted applies no CRD and may patch none (its only ClusterRole writes webhook
// configurations): the user points the files at the Service the admission webhooks call and puts
// the CA into each CRD, as the field report did by hand for all four.
TEST(DecisionTable, ConversionWiringWithTheFieldReportsCrdFiles) {
  Modes m;
  m.add("global", field_report_bundle("global.yaml", {"crd-files.yaml", "crd-apply-hook.yaml"}));
  m.add("restricted", field_report_bundle("restricted.yaml", {"crd-files.yaml"}));
  DecisionTable t = m.table();
  EXPECT_EQ(answer(t, "conversion-wiring", 0),
            "the operator (container crd-apply of Job dynamo-system/dynamo-platform-crd-apply sets "
            "Service dynamo-system/dynamo-platform-webhook-service when it applies the CRDs; "
            "ServiceAccount dynamo-system/dynamo-platform-controller-manager may patch CRDs)");
  EXPECT_EQ(answer(t, "conversion-wiring", 1),
            "you: Service dynamo-system/dynamo-platform-webhook-service and the CA of CRD "
            "dynamographdeployments.nvidia.example.com (`footprint fix crds` prints how)");
}

// A Job whose command applies CRD files installs them at run time (crd_install_command).
TEST(DecisionTable, RuntimeInstaller) {
  Modes m;
  m.add("a", bundle_from(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: upgrade-crd, namespace: ops}
spec:
  template:
    spec:
      containers: [{name: crds, image: i, command: [/usr/bin/manage-crds, apply, --filepath=/opt/example.com_widgets.yaml]}]
)",
                         "ops"));
  m.add("b", bundle_from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n", "ops"));
  DecisionTable t = m.table();
  EXPECT_EQ(answer(t, "crd-installer", 0),
            "the operator, at run time (crds of Job ops/upgrade-crd)");
  // The CRD file the Job applies (example.com_widgets.yaml, which makes example.com the
  // install's own group) is inside its image, not in the input: whether it converts through a
  // webhook cannot be told. Mode b has nothing custom, so nothing needs wiring.
  EXPECT_TRUE(answer(t, "conversion-wiring", 0)
                  .starts_with("cannot tell: the CRDs of example.com (the install's own) are not "
                               "in the input"));
  EXPECT_EQ(answer(t, "conversion-wiring", 1), "nobody needed (no conversion webhooks)");
  // Nothing custom at all: no CRD is needed, nothing must exist first.
  EXPECT_EQ(answer(t, "crd-installer", 1), "nobody needed");
  EXPECT_EQ(answer(t, "prerequisites", 1), "nothing beyond the release namespace");
  EXPECT_EQ(answer(t, "worst-finding", 1), "none");
}

// Another project's kind without its CRD, and a Role in a namespace the bundle neither creates
// nor installs into: both must exist before installing. The PodMonitor's group is not the
// install's own (no CRD, no status rule, no installer names it), so nobody installs it here.
TEST(DecisionTable, PrerequisitesOfOtherProjects) {
  Modes m;
  m.add("a", bundle_from(R"(
apiVersion: monitoring.coreos.com/v1
kind: PodMonitor
metadata: {name: op}
spec: {selector: {}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader, namespace: apps}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [get]}]
)",
                         "ops"));
  m.add("b", bundle_from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n", "ops"));
  DecisionTable t = m.table();
  EXPECT_EQ(answer(t, "prerequisites", 0),
            "CRDs of monitoring.coreos.com (PodMonitor); namespaces apps");
  EXPECT_EQ(answer(t, "crd-installer", 0), "nobody needed");
}

}  // namespace
}  // namespace footprint
