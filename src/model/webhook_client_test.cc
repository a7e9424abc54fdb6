#include "model/webhook_client.h"

#include <gtest/gtest.h>

#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;

constexpr const char* kBackend = R"(
apiVersion: v1
kind: Service
metadata: {name: dynamo-platform-dynamo-operator-webhook-service, namespace: dynamo-system}
spec:
  selector: {app: operator}
  ports: [{port: 443, targetPort: 9443}]
---
apiVersion: v1
kind: Service
metadata: {name: metrics, namespace: dynamo-system}
spec:
  ports: [{port: 8443}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: operator, namespace: dynamo-system}
spec:
  template:
    metadata: {labels: {app: operator, tier: control}}
    spec: {containers: [{name: m, image: x}]}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: other, namespace: dynamo-system}
spec:
  jobTemplate:
    spec:
      template:
        metadata: {labels: {app: other}}
        spec: {containers: [{name: c, image: y}]}
)";

yaml::Node client_node(const Bundle& b, size_t object, std::initializer_list<std::string_view> at) {
  return b.objects[object].node.at(at);
}

// admissionregistration.k8s.io/v1 ServiceReference: "port ... Defaults to 443".
TEST(WebhookClient, PortDefaultsTo443) {
  Bundle b = bundle_from(
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: holder}\ndata: {}\n"
      "a: {service: {namespace: ns, name: svc, path: /convert}, caBundle: ''}\n"
      "b: {service: {namespace: ns, name: svc, port: 8443}, caBundle: LS0t}\n"
      "c: {url: 'https://hooks.example.com/v'}\n");
  WebhookClient a = read_webhook_client(client_node(b, 0, {"a"}));
  EXPECT_TRUE(a.is_service);
  EXPECT_EQ(a.port, 443);
  EXPECT_FALSE(a.port_written);
  EXPECT_EQ(a.path, "/convert");
  EXPECT_FALSE(a.has_ca_bundle);
  WebhookClient bb = read_webhook_client(client_node(b, 0, {"b"}));
  EXPECT_EQ(bb.port, 8443);
  EXPECT_TRUE(bb.has_ca_bundle);
  WebhookClient c = read_webhook_client(client_node(b, 0, {"c"}));
  EXPECT_FALSE(c.is_service);
  EXPECT_EQ(c.url, "https://hooks.example.com/v");
}

TEST(WebhookClient, ResolvesServicePortAndPods) {
  Bundle b = bundle_from(kBackend);
  WebhookClient client;
  client.is_service = true;
  client.service_namespace = "dynamo-system";
  client.service_name = "dynamo-platform-dynamo-operator-webhook-service";
  std::vector<PodTemplate> pods = pod_templates(b);
  ServiceBackend backend = resolve_service(b, pods, client);
  ASSERT_NE(backend.service, nullptr);
  EXPECT_TRUE(backend.port_found);
  ASSERT_EQ(backend.backends.size(), 1u);
  EXPECT_EQ(backend.backends[0]->name, "operator");
  client.port = 8443;
  EXPECT_FALSE(resolve_service(b, pods, client).port_found);
  client.service_name = "metrics";
  ServiceBackend no_selector = resolve_service(b, pods, client);
  EXPECT_TRUE(no_selector.port_found);
  EXPECT_FALSE(no_selector.has_selector);
  client.service_name = "absent";
  EXPECT_EQ(resolve_service(b, pods, client).service, nullptr);
}

TEST(WebhookClient, PodTemplatesOfEveryWorkloadKind) {
  Bundle b = bundle_from(kBackend);
  auto templates = pod_templates(b);
  ASSERT_EQ(templates.size(), 2u);
  EXPECT_EQ(templates[1].owner->kind, "CronJob");
  EXPECT_EQ(templates[1].metadata.at({"labels", "app"}).text(), "other");
}

// The field report's case: the CRD points at dynamo-operator-webhook-service, the chart
// creates <release>-dynamo-operator-webhook-service.
TEST(WebhookClient, SuggestsTheReleasePrefixedService) {
  Bundle b = bundle_from(kBackend);
  auto similar = similar_services(b, "dynamo-operator-webhook-service");
  ASSERT_EQ(similar.size(), 2u);
  EXPECT_EQ(similar[0]->name, "dynamo-platform-dynamo-operator-webhook-service");
}

TEST(WebhookClient, CaInjectors) {
  Bundle b = bundle_from(R"(
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: injected
  annotations: {cert-manager.io/inject-ca-from: ops/serving-cert}
webhooks: []
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: patched-by-operator}
webhooks: []
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: nobody}
webhooks: []
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: patcher}
rules:
- apiGroups: [admissionregistration.k8s.io]
  resources: [validatingwebhookconfigurations]
  resourceNames: [patched-by-operator]
  verbs: [get, patch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: patcher}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: patcher}
subjects: [{kind: ServiceAccount, name: op, namespace: ops}]
)");
  RbacPolicy policy = RbacPolicy::build(b);
  EXPECT_EQ(
      ca_injectors(b.objects[0], policy),
      std::vector<std::string>{"cert-manager's CA injector, from Certificate ops/serving-cert"});
  EXPECT_EQ(ca_injectors(b.objects[1], policy),
            std::vector<std::string>{
                "ServiceAccount ops/op (may patch it, through ClusterRoleBinding patcher)"});
  EXPECT_TRUE(ca_injectors(b.objects[2], policy).empty());
}

}  // namespace
}  // namespace footprint
