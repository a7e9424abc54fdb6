// Where the API server sends admission and conversion webhook calls, and how it trusts them:
// the clientConfig of a webhook (admissionregistration.k8s.io) or of a CRD's conversion webhook
// (apiextensions.k8s.io), resolved against the bundle's Services and pods, and who fills in its
// caBundle.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/object.h"
#include "model/rbac.h"
#include "model/workloads.h"

namespace footprint {

struct WebhookClient {
  // Either a Service reference or a URL.
  bool is_service = false;
  std::string service_namespace;
  std::string service_name;
  int32_t port = 443;  // the API default when clientConfig.service.port is absent
  bool port_written = false;
  std::string path;
  std::string url;
  bool has_ca_bundle = false;  // a non-empty caBundle is written
  yaml::Node node;             // the clientConfig
};

// Reads a clientConfig mapping. The service namespace is as written (it is required by the API).
WebhookClient read_webhook_client(const yaml::Node& client_config);

// What the bundle provides behind a Service reference.
struct ServiceBackend {
  const Object* service = nullptr;  // null: no such Service in the bundle
  std::vector<int32_t> ports;       // the Service's ports
  bool port_found = false;          // the referenced port is one of them
  bool has_selector = false;
  // Workloads whose pod template the Service selects (in its namespace).
  std::vector<const Object*> backends;
};

// `pods` are the bundle's pod templates (pod_templates(bundle)), passed in so that callers
// resolving many references walk the workloads once.
ServiceBackend resolve_service(const Bundle& bundle, std::span<const PodTemplate> pods,
                               const WebhookClient& client);

// The bundle's Services ranked as the likely target of a reference to `name`: names that end
// with it first (charts prefix the release name), then by edit distance, closest first.
std::vector<const Object*> similar_services(const Bundle& bundle, std::string_view name);

// Who would fill in a missing caBundle of `target` (a webhook configuration or a CRD):
// cert-manager's CA injector (cert-manager.io/inject-ca-from, -from-secret,
// inject-apiserver-ca), OpenShift's service CA operator
// (service.beta.openshift.io/inject-cabundle), or a subject of the bundle allowed to update or
// patch that object. Empty when nobody will.
std::vector<std::string> ca_injectors(const Object& target, const RbacPolicy& policy);

}  // namespace footprint
