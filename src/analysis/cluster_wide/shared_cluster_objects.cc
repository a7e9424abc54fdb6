// Cluster-scoped objects that act outside the operator's namespace: a RuntimeClass or CSIDriver
// that every team's pods share, and a MutatingAdmissionPolicy that rewrites other teams'
// requests inside the API server.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"
#include "model/kubectl_json.h"

namespace footprint {

namespace {

std::string runtime_class_effect(const Object& obj) {
  std::vector<std::string> parts;
  parts.push_back(fmt::format("runs with handler {}", obj.node.get("handler").str()));
  yaml::Node selector = obj.node.at({"scheduling", "nodeSelector"});
  if (selector.is_mapping() && selector.size() > 0) {
    std::vector<std::string> labels;
    for (size_t i = 0; i < selector.size(); ++i)
      labels.push_back(fmt::format("{}={}", selector.key(i).str(), selector.value(i).str()));
    parts.push_back(fmt::format("is placed on nodes labelled {}", fmt::join(labels, ", ")));
  }
  if (obj.node.at({"overhead", "podFixed"}).is_mapping()) {
    parts.emplace_back("is charged the class's pod overhead against quotas and node capacity");
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string csi_driver_effect(const Object& obj) {
  std::vector<std::string> set;
  yaml::Node spec = obj.node.get("spec");
  for (size_t i = 0; spec.is_mapping() && i < spec.size(); ++i) {
    std::string_view key = spec.key(i).str();
    yaml::Node value = spec.value(i);
    set.push_back(value.is_scalar() ? fmt::format("{}: {}", key, value.str()) : std::string(key));
  }
  return set.empty() ? "with the API defaults" : fmt::format("with {}", fmt::join(set, ", "));
}

void run_shared_objects(const Context& ctx, Findings& out) {
  std::vector<const Object*> objects;
  for (uint32_t i : ctx.bundle.of_kind("node.k8s.io", "RuntimeClass"))
    objects.push_back(&ctx.bundle.objects[i]);
  for (uint32_t i : ctx.bundle.of_kind("storage.k8s.io", "CSIDriver"))
    objects.push_back(&ctx.bundle.objects[i]);
  std::sort(objects.begin(), objects.end(),
            [](const Object* a, const Object* b) { return a->index < b->index; });
  for (const Object* obj : objects) {
    if (obj->kind == "RuntimeClass") {
      Finding& f = out.add(
          *obj, Severity::kLow,
          fmt::format("RuntimeClass {} is cluster-wide: a pod of any team that names it {}. "
                      "Its name is unique in the cluster, so an existing RuntimeClass {} (from "
                      "another install or the node image's setup) is replaced or blocks the "
                      "install.",
                      obj->name, runtime_class_effect(*obj), obj->name),
          "Check with the platform team that no RuntimeClass of that name exists, and that "
          "the handler is configured on the nodes it selects.");
      f.summary =
          fmt::format("RuntimeClass {} is one per cluster, shared by every team", obj->name);
    } else {
      Finding& f = out.add(
          *obj, Severity::kLow,
          fmt::format("CSIDriver {} tells every kubelet how to attach and mount every volume "
                      "of driver {}, whoever's it is, {}. There is one per driver name in the "
                      "cluster, so an existing one (from another install of the driver) is "
                      "replaced or blocks the install.",
                      obj->name, obj->name, csi_driver_effect(*obj)),
          "Install the driver once per cluster, owned by the platform team, and check that "
          "no other release manages a CSIDriver of that name.");
      f.summary = fmt::format("CSIDriver {} is one per cluster, shared by every team", obj->name);
    }
  }
}

}  // namespace

extern const Check kClusterObjectShared{
    .id = "cluster-object-shared",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kLow,
    .impact = Impact::kOtherTeams,
    .area = Area::kClusterWide,
    .description =
        "A RuntimeClass or CSIDriver is one per cluster and applies to every team's pods that use "
        "it.",
    .run = run_shared_objects,
    .rationale =
        "RuntimeClasses and CSIDrivers are one per name in the cluster and apply to every team's "
        "pods that use them; an existing one of the same name is replaced or blocks the install. "
        "Low.",
    .fix = "Check with the platform team that no object of that name exists.",
};

namespace {

constexpr std::string_view kWorkloadResources[] = {
    "pods", "deployments", "statefulsets", "daemonsets", "replicasets", "replicationcontrollers",
    "jobs", "cronjobs"};

bool is_workload(std::string_view resource) {
  return resource == "*" || std::find(std::begin(kWorkloadResources), std::end(kWorkloadResources),
                                      resource) != std::end(kWorkloadResources);
}

// A request the policy's rules name, in namespace `ns` (or cluster-scoped).
AdmissionRequest request_for(const Context& ctx, const AdmissionRule& rule, std::string group,
                             std::string resource, const ClusterNamespace& ns) {
  AdmissionRequest r;
  r.operation =
      rule.operations.empty() || rule.operations[0] == "*" ? "CREATE" : rule.operations[0];
  r.api_group = group == "*" ? "" : std::move(group);
  r.api_version =
      rule.api_versions.empty() || rule.api_versions[0] == "*" ? "v1" : rule.api_versions[0];
  r.resource = resource == "*" ? "pods" : std::move(resource);
  const ResourceInfo* info = ctx.bundle.resources.find_resource(r.api_group, r.resource);
  if (info) r.served_versions = info->versions;
  if (!info || info->scope != Scope::kCluster) {
    r.namespace_ = ns.name;
    r.namespace_labels = ns.labels;
  }
  return r;
}

void run_mutating_policies(const Context& ctx, Findings& out) {
  for (const AdmissionPolicy& p : ctx.admission.policies) {
    if (!p.mutating || !p.binding) continue;
    std::vector<std::string> namespaces;
    bool workloads = false, cluster_scoped = false;
    for (const ClusterNamespace& ns : ctx.namespaces) {
      if (ns.operator_owned) continue;
      for (const AdmissionRule& rule : p.rules) {
        for (const std::string& g : rule.api_groups) {
          for (const std::string& full : rule.resources) {
            std::string resource = full.substr(0, full.find('/'));
            AdmissionRequest request = request_for(ctx, rule, g, resource, ns);
            if (!policy_matches(p, request)) continue;
            if (request.namespace_.empty()) {
              cluster_scoped = true;
            } else if (std::find(namespaces.begin(), namespaces.end(), ns.name) ==
                       namespaces.end()) {
              namespaces.push_back(ns.name);
            }
            workloads = workloads || is_workload(request.resource);
          }
        }
      }
    }
    if (namespaces.empty() && !cluster_scoped) continue;
    bool object_scoped = !p.object_selector.empty();
    Severity severity = workloads && !object_scoped ? Severity::kHigh : Severity::kMedium;
    std::string where =
        namespaces.empty()
            ? "cluster-scoped objects"
            : fmt::format("namespaces the operator does not own ({})", fmt::join(namespaces, ", "));
    Finding& f = out.add(
        *p.policy, severity,
        fmt::format("MutatingAdmissionPolicy {} (bound by {}) rewrites {} in {} inside the "
                    "API server: other teams' objects change without their knowledge{}.",
                    p.name, p.binding->name, describe_rules(p.rules), where,
                    p.failure_policy == FailurePolicy::kFail
                        ? ", and a mutation that fails to evaluate rejects their request "
                          "(failurePolicy Fail)"
                        : ""),
        "Narrow the binding's matchResources with a namespaceSelector that opts in only the "
        "operator's namespaces, or an objectSelector on the operator's own labels.",
        p.binding->node);
    f.summary = fmt::format("MutatingAdmissionPolicy {} rewrites other teams' objects", p.name);
  }
}

}  // namespace

extern const Check kMutatingPolicySharedResources{
    .id = "mutating-policy-shared-resources",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kHigh,
    .impact = Impact::kOtherTeams,
    .area = Area::kClusterWide,
    .description =
        "A MutatingAdmissionPolicy rewrites other teams' objects in namespaces the operator does "
        "not own.",
    .run = run_mutating_policies,
    .rationale =
        "A bound MutatingAdmissionPolicy rewrites matching objects inside the API server. High "
        "when it reaches other teams' workloads without an objectSelector; medium otherwise.",
    .fix = "Narrow the binding's matchResources to the operator's namespaces or objects.",
};

}  // namespace footprint
