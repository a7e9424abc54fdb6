#include "analysis/context.h"

#include "analysis/rbac/escalation_paths.h"

namespace footprint {

Context::Context(const Bundle& b, std::vector<ClusterNamespace> ns, std::vector<Expectation> ex,
                 const Cluster* c)
    : bundle(b),
      cluster(c),
      pods(pod_templates(b)),
      rbac(RbacPolicy::build(b, c ? &c->objects : nullptr)),
      bound(bound_rules(rbac)),
      permissions(summarize_permissions(b, rbac)),
      admission(read_admission(b)),
      chain(c ? read_admission(b, &c->objects) : Admission{}),
      hidden(find_hidden_footprint(b, rbac, pods)),
      own(own_api_groups(b, rbac, admission, hidden)),
      namespaces(!ns.empty() ? std::move(ns)
                 : c         ? cluster_namespaces(*c, b)
                             : default_namespaces(b)),
      expectations(std::move(ex)),
      sizes(object_sizes(b)),
      crds(effective_crds(b)),
      conversions(conversion_wiring(b, crds, rbac, hidden, own)),
      missing_crds(footprint::missing_crds(b)),
      images(discover_images(b)) {
  if (c) {
    ResourceTable known = with_cluster_resources(b.resources, c);
    inventory = take_inventory(b, &known);
  } else {
    inventory = take_inventory(b);
  }
  // Both read the models above through the Context.
  aggregated_apis = footprint::aggregated_apis(*this);
  webhooks = summarize_webhooks(*this);
  escalations = held_escalations(*this);
}

Context::Context(const Bundle& b, ImagesOnly) : bundle(b), images(discover_images(b)) {}

Context::~Context() = default;

}  // namespace footprint
