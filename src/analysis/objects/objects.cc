// Checks on objects themselves: whether the API server knows their kind and version, where they
// land, and whether two of them collide.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"

namespace footprint {

namespace {

// Every object's group, version and kind, against what a Kubernetes 1.34 API server serves:
// a kind that moved groups or lost a version (batch/v1beta1 CronJob, autoscaling/v2beta1
// HorizontalPodAutoscaler) fails to apply even though the kind still exists.
void run_api_version_removed(const Context& ctx, Findings& out) {
  const ResourceTable& table = ctx.bundle.resources;
  for (const Object& obj : ctx.bundle.objects) {
    if (!table.is_builtin_group(obj.group)) continue;
    const ResourceInfo* info = table.find_kind(obj.group, obj.kind);
    bool off_by_default = false;
    if (info) {
      if (!info->builtin) continue;
      bool served = std::find(info->versions.begin(), info->versions.end(), obj.version) !=
                    info->versions.end();
      off_by_default = std::find(info->off_by_default.begin(), info->off_by_default.end(),
                                 obj.version) != info->off_by_default.end();
      if (served && !off_by_default) continue;
    }
    // The current home of the kind, found by name: extensions -> networking.k8s.io, or a newer
    // version of the same group.
    const ResourceInfo* current = info;
    if (!current) {
      for (const ResourceInfo& candidate : table.all()) {
        if (candidate.builtin && candidate.kind == obj.kind) current = &candidate;
      }
    }
    std::string fix = current
                          ? fmt::format("Use apiVersion {}{} for {}.",
                                        current->group.empty() ? "" : current->group + "/",
                                        current->versions.front(), obj.kind)
                          : fmt::format(
                                "{} has no replacement in Kubernetes 1.34; remove the object or "
                                "use what its project documents instead.",
                                obj.kind);
    if (off_by_default) {
      Finding& f = out.add(
          obj, Severity::kMedium,
          fmt::format("{} is written with {}, which a Kubernetes 1.34 API server serves only when "
                      "that version is enabled with --runtime-config; on a default cluster the "
                      "apply fails with \"no matches for kind\".",
                      obj.display(), obj.api_version),
          std::move(fix), obj.node.get("apiVersion"));
      f.summary =
          fmt::format("{} needs {}, which is off by default", obj.display(), obj.api_version);
      continue;
    }
    const RemovedVersion* removed = table.find_removed(obj.group, obj.version, obj.kind);
    std::string why = removed ? fmt::format("{} was removed in Kubernetes {}", obj.api_version,
                                            removed->removed_in)
                              : fmt::format("Kubernetes 1.34 does not serve kind {} in {}",
                                            obj.kind, obj.api_version);
    Finding& f = out.add(
        obj, Severity::kHigh,
        fmt::format("{}; applying {} fails with \"no matches for kind\".", why, obj.display()),
        std::move(fix), obj.node.get("apiVersion"));
    f.summary = fmt::format("{} uses {}, which Kubernetes 1.34 does not serve", obj.display(),
                            obj.api_version);
  }
}

}  // namespace

extern const Check kApiVersionRemoved{
    .id = "api-version-removed",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kObjects,
    .description =
        "A built-in kind is written with an API version Kubernetes 1.34 does not serve by default.",
    .run = run_api_version_removed,
    .rationale =
        "A built-in kind written with an API version Kubernetes 1.34 no longer serves fails to "
        "apply (\"no matches for kind\"), and with Helm the whole release fails; every object's "
        "group, version and kind is checked, so a kind that still exists in another version "
        "(batch/v1beta1 CronJob) is caught too. High: the install does not work. Medium for a "
        "version a 1.34 API server serves only when enabled with --runtime-config.",
    .fix = "Use the version the message names (the kind's current group and version).",
    .breaks_on_install = true,
};

namespace {

void run_namespace_on_cluster_scoped(const Context& ctx, Findings& out) {
  for (const Object& obj : ctx.bundle.objects) {
    if (obj.scope != Scope::kCluster || obj.written_namespace.empty()) continue;
    Finding& f = out.add(
        obj, Severity::kLow,
        fmt::format("{} is cluster-scoped, so the API server ignores its metadata.namespace "
                    "\"{}\". It is not confined to that namespace: it applies to the whole "
                    "cluster.",
                    obj.kind, obj.written_namespace),
        "Remove metadata.namespace from this object so that it reads as what it is.",
        obj.node.at({"metadata", "namespace"}));
    f.summary = fmt::format("{} is cluster-wide despite its metadata.namespace", obj.display());
  }
}

}  // namespace

extern const Check kNamespaceOnClusterScoped{
    .id = "namespace-on-cluster-scoped",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kLow,
    .impact = Impact::kHygiene,
    .area = Area::kObjects,
    .description =
        "A cluster-scoped object carries metadata.namespace, which the API server ignores.",
    .run = run_namespace_on_cluster_scoped,
    .rationale =
        "The API server ignores metadata.namespace on cluster-scoped objects, so a ClusterRole or "
        "webhook configuration written with a namespace still applies to the whole cluster. Low: "
        "nothing breaks, but readers are misled about the scope.",
    .fix = "Remove metadata.namespace from cluster-scoped objects.",
};

namespace {

void run_duplicate_object(const Context& ctx, Findings& out) {
  const Bundle& bundle = ctx.bundle;
  for (const Object& obj : bundle.objects) {
    if (!obj.replaced()) continue;
    const Object& later = bundle.objects[obj.replaced_by];
    Finding& f = out.add(
        later, Severity::kMedium,
        fmt::format("{} is defined twice; the first definition is at {}:{}. Applying the bundle "
                    "writes both, and this later one silently replaces the first: the cluster, "
                    "and every model footprint builds (RBAC, admission, CRDs, images), keep this "
                    "one.",
                    later.display(), bundle.file_of(obj), obj.position.line),
        "Delete one of the two definitions, or give them different names.");
    f.summary = fmt::format("{} is defined twice; the later one wins", later.display());
  }
}

}  // namespace

extern const Check kDuplicateObject{
    .id = "duplicate-object",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kMedium,
    .impact = Impact::kHygiene,
    .area = Area::kObjects,
    .description =
        "The same kind, namespace and name appear twice; the later one overwrites the first.",
    .run = run_duplicate_object,
    .rationale =
        "kubectl apply and Helm write objects in order, so the last of two definitions with the "
        "same kind, namespace and name is what the cluster keeps. Medium: the first definition, "
        "which a reviewer may have read, is silently lost.",
    .fix = "Keep one definition, or give them different names.",
};

}  // namespace footprint
