// CRD models: the Helm release against its Secret's limit; conversion
// webhooks, their Service and their CA; the CRDs a bundle needs but lacks; and CRDs installed at
// run time, beyond the bundle. The Context builds them once; the crd-* checks, the CRDs report
// section and `footprint fix crds` read them there.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/models/object_sizes.h"
#include "model/kubectl_json.h"
#include "model/object.h"
#include "model/rbac.h"
#include "model/webhook_client.h"
#include "model/workloads.h"

namespace footprint {

// A Secret's data, where Helm keeps a release.
constexpr uint64_t kHelmReleaseLimit = kMaxSecretSize;

// Helm stores a release gzipped and base64-encoded in a Secret. From the manifests alone this is
// a lower bound: the release also holds the chart's templates, files and values.
struct HelmReleaseEstimate {
  uint64_t gzip_bytes = 0;
  uint64_t estimate_bytes = 0;  // base64 of the gzip
  bool complete = true;         // false: compression stopped once the estimate passed the limit
};

// Nullopt when no input file was rendered by Helm.
std::optional<HelmReleaseEstimate> helm_release_estimate(const Bundle& bundle);

// The CustomResourceDefinitions the API server ends up with: for each name, the last definition
// in the input, since applying the bundle writes them in order.
std::vector<const Object*> effective_crds(const Bundle& bundle);

enum class CaBundleState : uint8_t { kSet, kPlaceholder, kEmpty };

struct CrdInstallCommand;
struct HiddenFootprint;
struct OwnApis;  // analysis/models/ownership.h

// A CRD's conversion webhook, resolved against the bundle.
struct ConversionWiring {
  const Object* crd = nullptr;
  WebhookClient client;
  ServiceBackend backend;
  size_t versions = 0;                 // conversion only happens with more than one
  std::string storage_version;         // where the API server stores objects
  const Object* suggestion = nullptr;  // the likely intended Service, when the named one is missing
  std::string suggestion_reason;
  int32_t suggested_port = 0;      // a port of the Service to use, when the written one is wrong
  bool namespace_differs = false;  // the Service namespace is not the release namespace
  CaBundleState ca = CaBundleState::kEmpty;
  std::vector<std::string> injectors;  // who fills caBundle in (model/webhook_client.h)
  // Why a cert-manager.io/inject-ca-from annotation will not inject anything, when it will not.
  std::string injection_problem;
  // A container that applies this CRD at run time and points its conversion webhook at a Service
  // of its own choosing (its --conversion-webhook-service-name): the Service the API server ends
  // up calling, not the file's. Null when no container does.
  const CrdInstallCommand* rewriter = nullptr;
  const Object* rewritten_service = nullptr;  // the Service it names, when the bundle creates it

  bool service_missing() const { return client.is_service && !backend.service; }
  bool port_mismatch() const { return client.is_service && backend.service && !backend.port_found; }
  bool ca_missing() const { return ca != CaBundleState::kSet && injectors.empty(); }
  // The Service and port the webhook should use: the written one, or the suggestion.
  const Object* target_service() const { return backend.service ? backend.service : suggestion; }
};

// For `crds`, the effective CRDs; `hidden` and `own` say which containers apply them at run time.
// `pods` are the bundle's pod templates, behind the Services the webhooks call.
std::vector<ConversionWiring> conversion_wiring(const Bundle& bundle,
                                                std::span<const PodTemplate> pods,
                                                const std::vector<const Object*>& crds,
                                                const RbacPolicy& policy,
                                                const HiddenFootprint& hidden, const OwnApis& own);

// The port to call a Service on: the written one when the Service has it, else 443 when it has
// that, else its first port.
int32_t conversion_port(const ServiceBackend& backend, int32_t written);

// Kinds the bundle uses whose CRD it does not ship, by group.
struct MissingCrd {
  std::string group;
  std::vector<std::pair<std::string, uint32_t>> kinds;  // kind -> objects, by kind
};
std::vector<MissingCrd> missing_crds(const Bundle& bundle);

// A subject of the bundle allowed to create or change any CustomResourceDefinition.
struct CrdWriter {
  Subject subject;
  std::vector<std::string> verbs;        // of create, update, patch
  std::vector<std::string> via;          // bindings that grant them
  std::vector<const Object*> workloads;  // that run as this ServiceAccount
  std::vector<std::string> crd_names;    // CRDs its rules name, when they name any
  const Object* anchor = nullptr;        // the ServiceAccount, else the first binding
  bool creates() const;
};

// A container whose command or arguments install CRDs, such as `manage-crds apply`.
struct CrdInstallCommand {
  const Object* workload = nullptr;
  std::string container;
  std::string evidence;                // its command line, shortened
  std::vector<std::string> crd_names;  // from file names such as group_plural.yaml
  // The conversion Service it writes into every CRD it applies, from
  // `--conversion-webhook-service-name[=]NAME` and `--conversion-webhook-service-namespace[=]NS`
  // (Dynamo's crd-apply overrides both before it applies each CRD); the namespace is the
  // workload's when no flag sets it. Empty name: it keeps the files' reference.
  std::string conversion_service_name;
  std::string conversion_service_namespace;
};

// The cluster-scoped footprint the bundle does not show: CRDs created or rewritten at run time.
struct HiddenFootprint {
  std::vector<CrdWriter> writers;
  std::vector<CrdInstallCommand> commands;
  bool empty() const { return writers.empty() && commands.empty(); }
};

HiddenFootprint find_hidden_footprint(const Bundle& bundle, const RbacPolicy& policy,
                                      const std::vector<PodTemplate>& pods);

// One sentence per writer and command, for the install footprint.
std::vector<std::string> hidden_footprint_summary(const HiddenFootprint& hidden);

}  // namespace footprint
