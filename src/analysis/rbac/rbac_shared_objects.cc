// rbac-shared-object-write: the rights of the rights catalogue (models/rights_catalog.h) that
// reach other teams or the cluster and that no older check reports, from their escalation paths
// in Context::escalations, one finding per subject.
#include <algorithm>

#include "analysis/context.h"
#include "analysis/rbac/held_paths.h"

namespace footprint {

namespace {

// rbac-kube-system-grant reports ConfigMap updates and patches through a RoleBinding in
// kube-system: those rights are its finding, not this one's.
bool kube_system_grants(const Right& r) {
  const RbacBinding& b = *r.grant.binding;
  if (b.cluster || b.namespace_ != "kube-system") return false;
  return std::all_of(r.requests.begin(), r.requests.end(), [](const Request& q) {
    return q.api_group.empty() && q.resource == "configmaps" &&
           (q.verb == "update" || q.verb == "patch");
  });
}

void run_shared_object_write(const Context& ctx, Findings& out) {
  for (const std::vector<const HeldEscalation*>& group : held_by_subject(ctx, out.check())) {
    std::vector<HeldEscalation> kept;
    for (const HeldEscalation* h : group) {
      HeldEscalation copy = *h;
      std::erase_if(copy.rights.rights, kube_system_grants);
      if (!copy.rights.rights.empty()) kept.push_back(std::move(copy));
    }
    if (kept.empty()) continue;
    std::vector<const HeldEscalation*> pointers;
    for (const HeldEscalation& h : kept)
      pointers.push_back(&h);
    report_held_group(ctx, out, pointers);
  }
}

}  // namespace

extern const Check kRbacSharedObjectWrite{
    .id = "rbac-shared-object-write",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kHigh,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description =
        "A binding allows writing objects other teams or the control plane depend on: Nodes, "
        "Services and endpoints, storage and device classes, leases, ConfigMaps, scaling, "
        "priority and runtime classes, API priority and fairness, or deleting CRDs.",
    .run = run_shared_object_write,
    .rationale =
        "The rights catalogue gives, for every resource Kubernetes 1.34 serves and each class of "
        "verbs, what the right lets its holder do to others. This check reports the rights no "
        "other check reports: tainting or cordoning Nodes and writing their status, redirecting "
        "Services, endpoints and EndpointSlices (CVE-2020-8554), StorageClasses, CSIDrivers and "
        "VolumeAttachments, scaling (HorizontalPodAutoscalers and scale), ResourceClaims, their "
        "allocation and DeviceClasses, deleting CRDs (which deletes every object of the type), "
        "leases and ConfigMaps (kube-system's run leader election, cluster DNS and kube-proxy), "
        "PriorityClasses, RuntimeClasses, and FlowSchemas and PriorityLevelConfigurations. "
        "Severity per right by where it holds: cluster-wide or in kube-system high for what "
        "stops or redirects every team's workloads, medium for the rest; in another team's "
        "namespace medium or low; the operator's own namespace is its business. Rules limited "
        "by resourceNames to the operator's own classes or CRDs are low; to its own leases and "
        "ConfigMaps, not reported.",
    .fix =
        "Grant namespaced writes with Roles in the namespaces the operator manages, ship "
        "cluster-scoped objects in the bundle, and limit the rest with resourceNames.",
};

}  // namespace footprint
