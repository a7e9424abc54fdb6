#include "model/cluster.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "model/namespace_maker.h"
#include "model/secrets.h"

namespace footprint {

std::string snapshot_command() {
  return fmt::format("kubectl get {} -A -o yaml > cluster.yaml",
                     fmt::join(kSnapshotResources, ","));
}

bool Cluster::serves(std::string_view group, std::string_view name) const {
  const ResourceInfo* info = objects.resources.find_kind(group, name);
  if (!info) info = objects.resources.find_resource(group, name);
  return info && !info->builtin;
}

bool Cluster::has_group(std::string_view group) const {
  const std::vector<ResourceInfo>& all = objects.resources.all();
  return std::any_of(all.begin(), all.end(),
                     [&](const ResourceInfo& r) { return !r.builtin && r.group == group; });
}

namespace {

// Read before the bundle knows the kinds: anything that looks like a Secret is dropped.
bool is_secret(const RawObject& raw) {
  return may_hold_secret_values(raw.node, false);
}

Cluster make_cluster(LoadedInput input) {
  size_t before = input.objects.size();
  std::erase_if(input.objects, is_secret);
  Cluster cluster;
  cluster.secrets_dropped = before - input.objects.size();
  cluster.objects = build_bundle(std::move(input), BundleOptions{});
  return cluster;
}

LoadOptions snapshot_options(unsigned jobs) {
  LoadOptions options;
  options.jobs = jobs;
  // `kubectl get -o yaml` writes one List document holding every object.
  options.max_document_bytes = options.max_file_bytes;
  return options;
}

}  // namespace

tl::expected<Cluster, std::vector<LoadError>> load_cluster(const std::string& path, unsigned jobs) {
  auto loaded = load_inputs({path}, snapshot_options(jobs));
  if (!loaded) return tl::unexpected(loaded.error());
  return make_cluster(std::move(*loaded));
}

tl::expected<Cluster, std::vector<LoadError>> load_cluster_text(const std::string& name,
                                                                std::string text) {
  auto loaded = load_texts({NamedText{name, std::move(text)}}, snapshot_options(1));
  if (!loaded) return tl::unexpected(loaded.error());
  return make_cluster(std::move(*loaded));
}

std::vector<ClusterNamespace> cluster_namespaces(const Cluster& cluster, const Bundle& bundle) {
  // Every cluster has kube-system and default: a snapshot without Namespaces was taken without
  // them, and would shrink the blast radius to the bundle's own namespaces.
  if (cluster.objects.of_kind("", "Namespace").empty()) return default_namespaces(bundle);
  std::map<std::string, Labels> names;
  for (uint32_t i : cluster.objects.of_kind("", "Namespace")) {
    const Object& ns = cluster.objects.objects[i];
    names[ns.name] = ns.labels();
  }
  // Namespaces the install creates join the cluster's with the labels the bundle gives them.
  for (uint32_t i : bundle.of_kind("", "Namespace")) {
    const Object& ns = bundle.objects[i];
    if (!names.count(ns.name)) names[ns.name] = ns.labels();
  }
  if (!names.count(bundle.default_namespace)) names[bundle.default_namespace];
  std::vector<ClusterNamespace> out;
  out.reserve(names.size());
  NamespaceMaker make(bundle);
  for (auto& [name, labels] : names)
    out.push_back(make(name, std::move(labels)));
  return out;
}

ResourceTable with_cluster_resources(const ResourceTable& bundle, const Cluster* cluster) {
  ResourceTable table = bundle;
  if (!cluster) return table;
  for (const ResourceInfo& r : cluster->objects.resources.all()) {
    if (r.builtin || table.find_kind(r.group, r.kind)) continue;
    ResourceInfo added = r;
    added.defining_object = UINT32_MAX;  // an object of the snapshot, not of the bundle
    table.add(std::move(added));
  }
  return table;
}

}  // namespace footprint
