// What a webhook reaches: its namespace selector's scope and the resources the matcher admits.
#include "analysis/models/webhook_reach.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/check_testing.h"
#include "analysis/context.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::with_webhook_operator;

TEST(SelectorScope, Classifies) {
  auto scope = [](const char* yaml) {
    auto docs = yaml::parse(yaml);
    return selector_scope(*parse_label_selector(docs->front().root));
  };
  EXPECT_EQ(scope("{}"), "none");
  EXPECT_EQ(scope("matchExpressions: [{key: a, operator: NotIn, values: [x]}]"), "opt-out");
  EXPECT_EQ(scope("matchExpressions: [{key: a, operator: DoesNotExist}]"), "opt-out");
  EXPECT_EQ(scope("matchLabels: {inject: enabled}"), "opt-in");
  EXPECT_EQ(scope("matchExpressions: [{key: a, operator: Exists}, {key: b, operator: NotIn, "
                  "values: [x]}]"),
            "opt-in");
  EXPECT_EQ(scope("matchLabels: {kubernetes.io/metadata.name: ops}"),
            "kubernetes.io/metadata.name=ops");
  // The API server sets the immutable label kubernetes.io/metadata.name to every namespace's name
  // (feature NamespaceDefaultLabelName, GA in 1.22), so an In on it names namespaces even with
  // other requirements ANDed: nobody opts in by labelling.
  EXPECT_EQ(scope("matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: "
                  "[ops, team-a]}, {key: a, operator: NotIn, values: [x]}]"),
            "kubernetes.io/metadata.name in (ops, team-a)");
  EXPECT_EQ(scope("matchLabels: {inject: enabled, kubernetes.io/metadata.name: ops}"),
            "kubernetes.io/metadata.name=ops");
}

// What a webhook reaches is asked of the matcher for every served resource. rules.go treats
// "pods/*" as matching pods itself (sub == "*" matches the empty subresource), so it reaches pod
// creation; "*" alone never reaches a subresource.
TEST(WebhookReach, AskedOfTheMatcherForEveryResource) {
  auto reach = [](const char* rules) {
    Bundle b = bundle_from(with_webhook_operator(fmt::format(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {{name: v}}
webhooks:
- name: v.example.com
  clientConfig: {{service: {{namespace: ops, name: hooks}}}}
  rules: {}
)",
                                                             rules)),
                           "ops");
    Context ctx(b);
    return ctx.webhooks.front().reach;
  };
  WebhookReach pods_star = reach(
      R"([{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: ["pods/*"]}])");
  EXPECT_EQ(pods_star.pod_creation, std::vector<std::string>{"pods CREATE"});
  // Of the subresources, only those the API server creates: eviction and binding. exec is a
  // CONNECT and log is never admitted (the REST interfaces of pkg/registry/core/pod/rest).
  EXPECT_NE(std::find(pods_star.builtin.begin(), pods_star.builtin.end(), "pods/eviction CREATE"),
            pods_star.builtin.end());
  for (const std::string& r : pods_star.builtin) {
    EXPECT_FALSE(r.starts_with("pods/exec") || r.starts_with("pods/log") ||
                 r.starts_with("pods/status"))
        << r;
  }
  // TokenReviews and the access reviews are only created, componentstatuses only read.
  WebhookReach everything = reach(
      R"([{operations: [CREATE, UPDATE], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"]}])");
  auto listed = [&](const std::string& r) {
    return std::find(everything.builtin.begin(), everything.builtin.end(), r) !=
           everything.builtin.end();
  };
  EXPECT_TRUE(listed("tokenreviews.authentication.k8s.io CREATE"));
  EXPECT_FALSE(listed("tokenreviews.authentication.k8s.io CREATE/UPDATE"));
  for (const std::string& r : everything.builtin)
    EXPECT_FALSE(r.starts_with("componentstatuses"));
  WebhookReach connect = reach(
      R"([{operations: [CONNECT, UPDATE], apiGroups: [""], apiVersions: [v1], resources: ["pods/exec", "pods/status"]}])");
  EXPECT_EQ(connect.builtin, (std::vector<std::string>{"pods/exec CONNECT", "pods/status UPDATE"}));
  // Workloads count on CREATE and UPDATE: blocking either stops rollouts.
  WebhookReach deploy = reach(
      R"([{operations: [UPDATE], apiGroups: [apps], apiVersions: ["*"], resources: [deployments]}])");
  EXPECT_EQ(deploy.pod_creation, std::vector<std::string>{"deployments.apps UPDATE"});
  // The bundle's CRD is its own API; a group nothing defines is another project's.
  WebhookReach own = reach(
      R"([{operations: [CREATE], apiGroups: [example.com], apiVersions: [v1], resources: [widgets]}])");
  EXPECT_EQ(own.own, std::vector<std::string>{"widgets.example.com CREATE"});
  EXPECT_FALSE(own.shared());
  WebhookReach other = reach(
      R"([{operations: [CREATE], apiGroups: [ray.io], apiVersions: [v1], resources: [rayjobs]}])");
  EXPECT_EQ(other.other_custom, std::vector<std::string>{"rayjobs.ray.io CREATE"});
  // deployments are served by apps, not the core group: such a rule matches nothing.
  EXPECT_TRUE(
      reach(
          R"([{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [deployments]}])")
          .matches_nothing());
}

}  // namespace
}  // namespace footprint
