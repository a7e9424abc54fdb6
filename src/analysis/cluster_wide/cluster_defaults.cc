// Cluster defaults: a StorageClass or IngressClass annotated as the default is what every team's
// new PersistentVolumeClaim or Ingress without a class gets.
#include "analysis/cluster_wide/cluster_defaults.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"

namespace footprint {

std::vector<ClusterDefault> cluster_defaults(const Bundle& bundle) {
  std::vector<ClusterDefault> out;
  // k8s.io/component-helpers/storage/volume IsDefaultStorageClassAnnotation: the GA or the beta
  // annotation, exactly "true".
  for (uint32_t index : bundle.of_kind("storage.k8s.io", "StorageClass")) {
    const Object& obj = bundle.objects[index];
    for (const char* key : {"storageclass.kubernetes.io/is-default-class",
                            "storageclass.beta.kubernetes.io/is-default-class"}) {
      if (obj.annotation(key) == "true") {
        out.push_back({&obj, key, std::string(obj.node.get("provisioner").str())});
        break;
      }
    }
  }
  // plugin/pkg/admission/network/defaultingressclass: exactly "true".
  for (uint32_t index : bundle.of_kind("networking.k8s.io", "IngressClass")) {
    const Object& obj = bundle.objects[index];
    if (obj.annotation("ingressclass.kubernetes.io/is-default-class") == "true") {
      out.push_back({&obj, "ingressclass.kubernetes.io/is-default-class",
                     std::string(obj.node.at({"spec", "controller"}).str())});
    }
  }
  std::sort(out.begin(), out.end(), [](const ClusterDefault& a, const ClusterDefault& b) {
    return a.object->index < b.object->index;
  });
  return out;
}

namespace {

void run_default_class(const Context& ctx, Findings& out) {
  for (const ClusterDefault& d : cluster_defaults(ctx.bundle)) {
    bool storage = d.object->kind == "StorageClass";
    std::string message =
        storage ? fmt::format(
                      "StorageClass {} is marked as the cluster's default ({}: \"true\"): every "
                      "PersistentVolumeClaim created without storageClassName, in every namespace, "
                      "is provisioned by {}, and claims without a class that are still pending are "
                      "assigned to it retroactively. If the cluster has a default already, the "
                      "newest default wins, so this install silently replaces it.",
                      d.object->name, d.annotation,
                      d.implementation.empty() ? "its provisioner" : d.implementation)
                : fmt::format(
                      "IngressClass {} is marked as the cluster's default ({}: \"true\"): every "
                      "Ingress created without ingressClassName, in every namespace, is given to "
                      "{} and exposed through it. If the cluster has a default already, the newest "
                      "default wins, so this install silently replaces it.",
                      d.object->name, d.annotation,
                      d.implementation.empty() ? "its controller" : d.implementation);
    Finding& f = out.add(
        *d.object, Severity::kHigh, std::move(message),
        fmt::format("Remove the {} annotation (or set it to \"false\"): the cluster's default "
                    "is the platform team's choice, and teams that want this class name it "
                    "in {}.",
                    d.annotation, storage ? "storageClassName" : "ingressClassName"),
        d.object->metadata.get("annotations").get(d.annotation));
    f.summary = fmt::format("{} {} becomes the cluster's default for every team", d.object->kind,
                            d.object->name);
  }
}

}  // namespace

extern const Check kDefaultClass{
    .id = "default-class",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kOtherTeams,
    .area = Area::kClusterWide,
    .description =
        "A StorageClass or IngressClass marked as the default changes what every team's new "
        "PersistentVolumeClaim or Ingress gets.",
    .run = run_default_class,
    .rationale =
        "A StorageClass or IngressClass annotated as the default decides what every team's new "
        "PersistentVolumeClaim or Ingress without a class gets; with several defaults the newest "
        "wins, so the install silently replaces the cluster's choice. High.",
    .fix = "Remove the default annotation; teams that want the class name it.",
};

}  // namespace footprint
