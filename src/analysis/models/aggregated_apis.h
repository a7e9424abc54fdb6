// Aggregated APIs: APIServices whose group the API server proxies to a Service. While the
// backend is unavailable, discovery of its group fails for every client and controller of the
// cluster. docs/cluster-wide.md explains the consequences and the severities.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "model/object.h"
#include "model/rbac.h"
#include "model/webhook_client.h"
#include "model/workloads.h"

namespace footprint {

struct AggregatedApi {
  const Object* api_service = nullptr;
  std::string group_version;  // "visibility.kueue.x-k8s.io/v1beta1"
  WebhookClient client;       // spec.service (port 443 by default) and spec.caBundle
  bool insecure_skip_tls_verify = false;
  ServiceBackend backend;
  std::vector<std::string> ca_injectors;
  // Why the API server can never reach it (no Service, no such port, no pods behind the Service,
  // a certificate it cannot verify); empty when the bundle wires it.
  std::vector<std::string> broken;
  // Replicas of the workloads behind the Service; 0 when the bundle does not say.
  int replicas = 0;

  std::string backend_name() const;  // "service kueue-system/kueue-visibility-server:443"
};

// For Context::aggregated_apis: APIServices with spec.service, in input order (those without one
// are served by the API server itself), their backends among the bundle's Services and `pods`,
// and the CA injectors `policy` lets write their caBundle.
std::vector<AggregatedApi> aggregated_apis(const Bundle& bundle, std::span<const PodTemplate> pods,
                                           const RbacPolicy& policy);

}  // namespace footprint
