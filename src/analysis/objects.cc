// Checks on objects themselves: whether the API server knows their kind and version, where they
// land, and whether two of them collide.
#include <fmt/format.h>

#include <map>

#include "analysis/check.h"

namespace footprint {

namespace {

void run_crd_missing(const Context& ctx, Findings& out) {
  const Bundle& bundle = ctx.bundle;
  std::map<std::pair<std::string, std::string>, std::vector<const Object*>> missing;
  for (const Object& obj : bundle.objects) {
    if (obj.scope != Scope::kUnknown) continue;
    if (bundle.resources.is_builtin_group(obj.group)) continue;  // api-version-removed's case
    missing[{obj.group, obj.kind}].push_back(&obj);
  }
  for (const auto& [key, objects] : missing) {
    const auto& [group, kind] = key;
    const Object& first = *objects.front();
    out.add(
        first, Severity::kMedium,
        fmt::format("{} {} object(s) use kind {} of group {}, and the bundle ships no "
                    "CustomResourceDefinition for it: the cluster must already have this CRD. "
                    "Without it the install fails with \"no matches for kind {} in version {}\".",
                    objects.size(), kind, kind, group, kind, first.api_version),
        fmt::format("Install the CRDs of group {} before this bundle (from the project that "
                    "owns that API), or turn these objects off in the chart's values.",
                    group));
  }
}

}  // namespace

extern const Check kCrdMissing{
    "crd-missing", Severity::kMedium, "objects",
    "An object's kind is neither built into Kubernetes 1.34 nor defined by a CRD in the bundle.",
    run_crd_missing};

namespace {

void run_api_version_removed(const Context& ctx, Findings& out) {
  const ResourceTable& table = ctx.bundle.resources;
  for (const Object& obj : ctx.bundle.objects) {
    if (obj.scope != Scope::kUnknown || !table.is_builtin_group(obj.group)) continue;
    // A kind that moved groups (extensions -> networking.k8s.io) is found by name.
    const ResourceInfo* current = nullptr;
    for (const ResourceInfo& info : table.all()) {
      if (info.builtin && info.kind == obj.kind) current = &info;
    }
    std::string fix = current
                          ? fmt::format("Use apiVersion {}{} for {}.",
                                        current->group.empty() ? "" : current->group + "/",
                                        current->versions.front(), obj.kind)
                          : fmt::format(
                                "{} has no replacement in Kubernetes 1.34; remove the object or "
                                "use what its project documents instead.",
                                obj.kind);
    const RemovedVersion* removed = table.find_removed(obj.group, obj.version, obj.kind);
    std::string why = removed ? fmt::format("{} was removed in Kubernetes {}", obj.api_version,
                                            removed->removed_in)
                              : fmt::format("Kubernetes 1.34 does not serve kind {} in {}",
                                            obj.kind, obj.api_version);
    out.add(obj, Severity::kHigh,
            fmt::format("{}; applying {} fails with \"no matches for kind\".", why, obj.display()),
            std::move(fix), obj.node.get("apiVersion"));
  }
}

}  // namespace

extern const Check kApiVersionRemoved{
    "api-version-removed", Severity::kHigh, "objects",
    "A built-in kind is written with an API version Kubernetes 1.34 no longer serves.",
    run_api_version_removed};

namespace {

void run_namespace_on_cluster_scoped(const Context& ctx, Findings& out) {
  for (const Object& obj : ctx.bundle.objects) {
    if (obj.scope != Scope::kCluster || obj.written_namespace.empty()) continue;
    out.add(obj, Severity::kLow,
            fmt::format("{} is cluster-scoped, so the API server ignores its metadata.namespace "
                        "\"{}\". It is not confined to that namespace: it applies to the whole "
                        "cluster.",
                        obj.kind, obj.written_namespace),
            "Remove metadata.namespace from this object so that it reads as what it is.",
            obj.node.at({"metadata", "namespace"}));
  }
}

}  // namespace

extern const Check kNamespaceOnClusterScoped{
    "namespace-on-cluster-scoped", Severity::kLow, "objects",
    "A cluster-scoped object carries metadata.namespace, which the API server ignores.",
    run_namespace_on_cluster_scoped};

namespace {

void run_duplicate_object(const Context& ctx, Findings& out) {
  const Bundle& bundle = ctx.bundle;
  for (const Object& obj : bundle.objects) {
    const Object* first = bundle.find(obj.group, obj.kind, obj.namespace_, obj.name);
    if (first == nullptr || first->index == obj.index) continue;
    out.add(obj, Severity::kMedium,
            fmt::format("{} is defined twice; the first definition is at {}:{}. Applying the "
                        "bundle writes both, and this later one silently replaces the first.",
                        obj.display(), bundle.file_of(*first), first->position.line),
            "Delete one of the two definitions, or give them different names.");
  }
}

}  // namespace

extern const Check kDuplicateObject{
    "duplicate-object", Severity::kMedium, "objects",
    "The same kind, namespace and name appear twice; the later one overwrites the first.",
    run_duplicate_object};

}  // namespace footprint
