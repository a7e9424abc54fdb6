#include "report/html.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <regex>

#include "analysis/check.h"
#include "analysis/context.h"
#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;

std::string audit_page(const Bundle& b) {
  Context context(b);
  Report report;
  report.bundle = &b;
  report.context = &context;
  report.inventory = take_inventory(b);
  report.analysis = analyze(context, Config{});
  return render_report(report, Format::kHtml, ReportOptions{});
}

TEST(Html, EscapesEveryMarkupCharacter) {
  EXPECT_EQ(html_escape(R"(<a href="x">'&'</a>)"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
}

// A finding's lists of what it affects are counted: one item is "1 subject", not "1 subjects"
// (trial item N-K3).
TEST(Html, AffectedListsOfOneAreSingular) {
  std::string page = audit_page(bundle_from(R"(apiVersion: v1
kind: ServiceAccount
metadata: {name: op, namespace: ops}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: op}
rules:
- {apiGroups: [""], resources: [secrets], verbs: [get, list, watch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: op}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: op}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)"));
  EXPECT_NE(page.find("<summary>1 subject</summary>"), std::string::npos);
  EXPECT_EQ(page.find("<summary>1 subjects</summary>"), std::string::npos);
  EXPECT_EQ(page.find("<summary>1 roles</summary>"), std::string::npos);
}

// The trial's compare and diff pages showed "add a Role (`footprint fix rbac`)" with its
// backticks: code spans are <code> elements, their content escaped; a lone backtick stays.
TEST(Html, ProseRendersCodeSpans) {
  EXPECT_EQ(html_prose("add a Role (`footprint fix rbac`)"),
            "add a Role (<code>footprint fix rbac</code>)");
  EXPECT_EQ(html_prose("`a<b` and `c`"), "<code>a&lt;b</code> and <code>c</code>");
  EXPECT_EQ(html_prose("a ` alone"), "a ` alone");
  EXPECT_EQ(html_prose("`x` then `y"), "<code>x</code> then `y");
}

// A validating webhook on pod CREATE that excludes kube-system by name and fails open, in the
// release namespace "ops": every other namespace of the default set is intercepted.
constexpr const char* kHtmlWebhook = R"(apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: guard}
webhooks:
- name: pods.guard.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Ignore
  clientConfig: {service: {name: guard, namespace: ops}}
  namespaceSelector:
    matchExpressions:
    - {key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}
  rules:
  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
)";

TEST(Html, BlastRadiusCellsFollowTheSelectorAndFailurePolicy) {
  Bundle b = bundle_from(kHtmlWebhook, "ops");
  std::string page = audit_page(b);
  EXPECT_NE(page.find("data-webhooks=\"1\""), std::string::npos);
  EXPECT_NE(page.find("data-pod-creation=\"1\""), std::string::npos);
  // NotIn excludes only the listed namespace (labels.Selector semantics).
  EXPECT_NE(page.find("data-ns=\"kube-system\" data-state=\"excluded\""), std::string::npos);
  EXPECT_NE(page.find("data-ns=\"default\" data-state=\"fail-open\""), std::string::npos);
  // In the install's own namespace the cost stays with the install.
  EXPECT_NE(page.find("data-ns=\"ops\" data-state=\"own\""), std::string::npos);
  EXPECT_EQ(page.find("data-state=\"fail-closed\""), std::string::npos);
  // A validating webhook that fails open on pods is webhook-intercepts-shared-resources at
  // medium: drawn, not highlighted.
  EXPECT_EQ(page.find("data-alarm=\"1\""), std::string::npos);
  EXPECT_NE(page.find("data-alarm-rows=\"0\""), std::string::npos);
}

// Two fail-closed webhooks without selectors, in release namespace ops: one on the install's own
// kind (webhook-fail-closed rates it low), one mutating pod creation (critical for other teams,
// and webhook-kube-system critical: DNS, CNI and kube-proxy pods are created in kube-system).
constexpr const char* kTwoWebhooks = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: guard}
webhooks:
- name: widgets.guard.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Fail
  clientConfig: {service: {name: guard, namespace: ops}}
  rules:
  - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}
- name: pods.guard.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Fail
  clientConfig: {service: {name: guard, namespace: ops}}
  rules:
  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
)";

TEST(Html, BlastRadiusColoursFollowTheFindings) {
  Bundle b = bundle_from(kTwoWebhooks, "ops");
  std::string page = audit_page(b);
  // Worst first: the pod webhook's row comes before the widget webhook's, as in the input's
  // reverse order.
  size_t pods = page.find("<tr class=\"namespaced alarm\" data-name=\"pods.guard.example.com\"");
  size_t widgets = page.find("<tr class=\"namespaced\" data-name=\"widgets.guard.example.com\"");
  ASSERT_NE(pods, std::string::npos);
  ASSERT_NE(widgets, std::string::npos);
  EXPECT_LT(pods, widgets);
  EXPECT_NE(page.find("data-alarm-rows=\"1\""), std::string::npos);
  std::string pod_row = page.substr(pods, widgets - pods);
  std::string widget_row = page.substr(widgets, page.find("</tr>", widgets) - widgets);
  // Other teams' namespaces and kube-system (the components' pods) are highlighted; kube-public
  // and kube-node-lease, where no component creates pods, are drawn but not highlighted; ops is
  // the install's own.
  for (const char* ns : {"default", "other-team", "kube-system"}) {
    EXPECT_NE(pod_row.find(fmt::format("data-ns=\"{}\" data-state=\"fail-closed\" "
                                       "data-alarm=\"1\"",
                                       ns)),
              std::string::npos)
        << ns;
  }
  for (const char* ns : {"kube-public", "kube-node-lease"}) {
    EXPECT_NE(pod_row.find(fmt::format("data-ns=\"{}\" data-state=\"fail-closed\" "
                                       "data-alarm=\"0\"",
                                       ns)),
              std::string::npos)
        << ns;
  }
  EXPECT_NE(pod_row.find("data-ns=\"ops\" data-state=\"own\" data-alarm=\"0\""), std::string::npos);
  // The widget webhook sees only the install's own kind: neutral in every namespace.
  EXPECT_EQ(widget_row.find("data-state=\"fail-closed\""), std::string::npos);
  EXPECT_EQ(widget_row.find("data-alarm=\"1\""), std::string::npos);
  EXPECT_NE(widget_row.find("data-ns=\"kube-system\" data-state=\"own\""), std::string::npos);
}

// A subject with a risky binding and two harmless ones: the risky path is drawn, the others are
// one line.
TEST(Html, RbacGraphCollapsesBindingsWithoutRiskyRights) {
  std::string rbac = R"(apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: reader}
rules: [{apiGroups: [""], resources: [secrets], verbs: [get, list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: reader}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: reader}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)";
  for (const char* name : {"a", "b"}) {
    rbac += fmt::format(R"(---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {{name: {0}, namespace: ops}}
rules: [{{apiGroups: [""], resources: [configmaps], verbs: [get]}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {{name: {0}, namespace: ops}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: Role, name: {0}}}
subjects: [{{kind: ServiceAccount, name: op, namespace: ops}}]
)",
                        name);
  }
  std::string page = audit_page(bundle_from(rbac, "ops"));
  EXPECT_NE(page.find("data-bindings=\"3\""), std::string::npos);
  EXPECT_NE(page.find("data-drawn-bindings=\"1\""), std::string::npos);
  EXPECT_NE(page.find("data-count=\"2\""), std::string::npos);
  EXPECT_NE(page.find("2 more bindings, no risky right"), std::string::npos);
  EXPECT_EQ(page.find("data-binding=\"RoleBinding ops/a\""), std::string::npos);
}

TEST(Html, CrdBarsAreProportionalToTheirSize) {
  std::string small =
      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: "
      "as.x.io}\nspec:\n  group: x.io\n  names: {kind: A, plural: as}\n  scope: Namespaced\n"
      "  versions: [{name: v1, served: true, storage: true}]\n";
  std::string large = small;
  large.replace(large.find("as.x.io"), 7, "bs.x.io");
  large.replace(large.find("plural: as"), 10, "plural: bs");
  large += "  description: " + std::string(100000, 'd') + "\n";
  Bundle b = bundle_from(small + "---\n" + large);
  std::string page = audit_page(b);
  std::regex bar(
      R"re(data-bytes="(\d+)">.*?<rect class="bar[^"]*" x="0" y="2" width="([\d.]+)")re");
  std::vector<std::pair<double, double>> bars;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), bar); it != std::sregex_iterator();
       ++it) {
    bars.emplace_back(std::stod((*it)[1]), std::stod((*it)[2]));
  }
  ASSERT_EQ(bars.size(), 2u);
  EXPECT_GT(bars[0].first, 100000);  // largest first
  EXPECT_NEAR(bars[0].second / bars[0].first, bars[1].second / bars[1].first, 1e-4);
}

TEST(Html, SecretValuesNeverAppear) {
  Bundle b = bundle_from(
      "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: ops}\n"
      "data: {k: c2VjcmV0LXZhbHVlLTE=}\nstringData: {t: plain-secret-value-2}\n",
      "ops");
  std::string page = audit_page(b);
  EXPECT_EQ(page.find("c2VjcmV0LXZhbHVlLTE"), std::string::npos);
  EXPECT_EQ(page.find("plain-secret-value-2"), std::string::npos);
}

TEST(Html, ComparisonHighlightsRowsThatDiffer) {
  Comparison c;
  c.modes = {"global", "<restricted>"};
  c.rows = {{"Kinds", "ClusterRole", {"3", "0"}, true}, {"Kinds", "Service", {"1", "1"}, false}};
  std::string page = render_comparison_html(c);
  EXPECT_NE(page.find("<tr class=\"differs\"><td>\u2260</td><td>ClusterRole</td>"),
            std::string::npos);
  EXPECT_NE(page.find("<tr><td></td><td>Service</td>"), std::string::npos);
  EXPECT_NE(page.find("&lt;restricted&gt;"), std::string::npos);
  EXPECT_EQ(page.find("<restricted>"), std::string::npos);
}

}  // namespace
}  // namespace footprint
