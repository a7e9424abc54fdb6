// The Context: the bundle and every model derived from it that more than one check, report
// section or command reads, each built once when the Context is made. Checks, sections and
// commands read them here and never derive them again.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/check.h"
#include "analysis/models/aggregated_apis.h"
#include "analysis/models/control_plane.h"
#include "analysis/models/crd_models.h"
#include "analysis/models/custom_resources.h"
#include "analysis/models/delivery_paths.h"
#include "analysis/models/identity_chains.h"
#include "analysis/models/images.h"
#include "analysis/models/inventory.h"
#include "analysis/models/node_footprints.h"
#include "analysis/models/object_sizes.h"
#include "analysis/models/ownership.h"
#include "analysis/models/rbac_models.h"
#include "analysis/models/rights.h"
#include "analysis/models/webhook_reach.h"
#include "model/admission.h"
#include "model/cluster.h"
#include "model/namespaces.h"
#include "model/object.h"
#include "model/rbac.h"
#include "model/workloads.h"

namespace footprint {

struct HeldEscalation;  // analysis/models/escalation_paths.h

// Where Context::namespaces come from: default_namespaces(bundle), whose labels are known only for
// the Namespaces the bundle creates; --namespaces; or the --cluster snapshot's Namespaces.
enum class NamespaceSource : uint8_t { kDefault, kGiven, kCluster };

struct Context {
  // `namespaces` is the set blast radius is measured against; empty means
  // default_namespaces(bundle), or the cluster's with `cluster`. `expectations` come from
  // --expect. `cluster`, a snapshot from --cluster, must outlive the Context.
  explicit Context(const Bundle& bundle, std::vector<ClusterNamespace> namespaces = {},
                   std::vector<Expectation> expectations = {}, const Cluster* cluster = nullptr);
  // Only the bundle and its images: all that the checks of the airgap area read, for the images
  // and airgap commands.
  struct ImagesOnly {};
  Context(const Bundle& bundle, ImagesOnly);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const Bundle& bundle;
  // The snapshot of the cluster the install goes into (--cluster), or null: the RBAC policy then
  // includes its roles and bindings, and namespaces are its namespaces.
  const Cluster* cluster = nullptr;
  // The Helm release the bundle is installed as, when a command knows it (a rendered chart's);
  // empty: inferred from the objects' app.kubernetes.io/instance label where needed.
  std::string release;
  // The delivery paths --deploy-with names; empty: unknown, so the report compares them all.
  std::vector<DeliveryPath> deploy_with;
  // The control plane of --provider: which pod ports it reaches, where its webhook calls come from.
  Provider provider = Provider::kGeneric;

  // Pod templates of the bundle's workloads, in input order.
  std::vector<PodTemplate> pods;
  RbacPolicy rbac;  // the bundle's, on top of the cluster's or the built-in policy
  // Every rule of every role the bundle's bindings refer to, binding by binding.
  std::vector<BoundRule> bound;
  // What each subject the bundle creates or binds may do, for the Permissions table.
  std::vector<SubjectPermissions> permissions;
  // Who holds each privilege-escalation and denial-of-service path of escalation_paths(), per
  // subject of the bundle's bindings, as the RBAC engine answers the path's requests.
  std::vector<HeldEscalation> escalations;
  // Per subject of the bundle's bindings, the shortest chain of identities it can become that
  // ends at cluster-admin (identity_chains.h).
  std::vector<IdentityChain> identity_chains;
  Admission admission;
  // With a cluster: its webhooks and policies together with the bundle's, in the order the API
  // server calls them (read_admission(bundle, cluster)); empty without one.
  Admission chain;
  // CRDs written at run time: subjects that may write them, containers that install them.
  HiddenFootprint hidden;
  OwnApis own;  // the install's own API groups
  std::vector<ClusterNamespace> namespaces;
  NamespaceSource namespace_source = NamespaceSource::kDefault;
  std::vector<Expectation> expectations;
  std::vector<ObjectSize> sizes;  // object_sizes(bundle), for the size checks and the report
  // The CustomResourceDefinitions the API server ends up with, and their conversion webhooks.
  std::vector<const Object*> crds;
  std::vector<ConversionWiring> conversions;
  std::vector<MissingCrd> missing_crds;  // kinds the bundle uses without shipping their CRD
  // The custom resources whose CRD the bundle or the cluster has, checked against it.
  std::vector<CustomResourceCheck> custom_resources;
  std::vector<AggregatedApi> aggregated_apis;
  ImageInventory images;  // discover_images(bundle)
  // The install footprint by kind and namespace; with a cluster, kinds its CRDs serve are known.
  Inventory inventory;
  // What each webhook of `admission` reaches and where, and its resolved backend, for checks
  // and sections; webhooks[i] is the summary of admission.webhooks[i].
  std::vector<WebhookSummary> webhooks;
  // What each DaemonSet holds on the nodes it runs on, in input order.
  std::vector<NodeFootprint> node_footprints;
  // Rules granting list or watch only for named objects (rbac-resourcenames-list-watch, and the
  // decision table of `compare`, per mode).
  std::vector<ListWatchTrap> list_watch_traps;
  // Registry sizes of the bundle's images, when a command has them; image-very-large needs them.
  const ImageSizes* image_sizes = nullptr;
};

}  // namespace footprint
