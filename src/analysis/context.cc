#include "analysis/context.h"

#include <functional>

#include "analysis/models/escalation_paths.h"
#include "load/parallel.h"

namespace footprint {

Context::Context(const Bundle& b, std::vector<ClusterNamespace> ns, std::vector<Expectation> ex,
                 const Cluster* c)
    : bundle(b), cluster(c), namespaces(std::move(ns)), expectations(std::move(ex)) {
  // Each task reads the bundle, the cluster and the members it built itself, and writes only its
  // own members, so the tasks run at once (serially with --jobs 1). Longest first.
  const std::function<void()> tasks[] = {
      [&] { sizes = object_sizes(b); },
      [&] { images = discover_images(b); },
      [&] { node_footprints = footprint::node_footprints(b); },
      [&] { custom_resources = check_custom_resources(b, c); },
      [&] {
        pods = pod_templates(b);
        rbac = RbacPolicy::build(b, c ? &c->objects : nullptr);
        bound = bound_rules(rbac);
        permissions = summarize_permissions(b, rbac);
        admission = read_admission(b);
        hidden = find_hidden_footprint(b, rbac, pods);
        own = own_api_groups(b, rbac, admission, hidden);
        crds = effective_crds(b);
        conversions = conversion_wiring(b, pods, crds, rbac, hidden, own);
      },
      [&] {
        if (!c) {
          inventory = take_inventory(b);
          return;
        }
        ResourceTable known = with_cluster_resources(b.resources, c);
        inventory = take_inventory(b, &known);
      },
      [&] {
        if (!namespaces.empty()) {
          namespace_source = NamespaceSource::kGiven;
        } else if (c) {
          namespaces = cluster_namespaces(*c, b);
          // A snapshot without Namespaces gives the defaults (cluster_namespaces).
          if (!c->objects.of_kind("", "Namespace").empty())
            namespace_source = NamespaceSource::kCluster;
        } else {
          namespaces = default_namespaces(b);
        }
        missing_crds = footprint::missing_crds(b);
        if (c) chain = read_admission(b, &c->objects);
      },
  };
  parallel_for(std::size(tasks), b.input.jobs, [&](size_t i) { tasks[i](); });
  // These read models of the first group, passed as arguments, and none reads another's.
  const std::function<void()> readers[] = {
      [&] { webhooks = summarize_webhooks(b, pods, admission, own, namespaces); },
      [&] { escalations = held_escalations(b.resources, bound, namespaces); },
      [&] {
        identity_chains = footprint::identity_chains(rbac, b, pods, c ? &c->objects : nullptr);
      },
      [&] { aggregated_apis = footprint::aggregated_apis(b, pods, rbac); },
      [&] { list_watch_traps = find_list_watch_traps(pods, rbac); },
  };
  parallel_for(std::size(readers), b.input.jobs, [&](size_t i) { readers[i](); });
}

Context::Context(const Bundle& b, ImagesOnly) : bundle(b), images(discover_images(b)) {}

Context::~Context() = default;

}  // namespace footprint
