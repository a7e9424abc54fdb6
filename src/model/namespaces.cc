#include "model/namespaces.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace footprint {

namespace {

bool is_system(std::string_view name) {
  return name == "kube-system" || name == "kube-public" || name == "kube-node-lease";
}

// Operator-owned: the release namespace and the namespaces the bundle creates.
bool owned_by_bundle(const Bundle& bundle, std::string_view name) {
  return name == bundle.default_namespace || bundle.creates_namespace(name);
}

ClusterNamespace make(const Bundle& bundle, const std::string& name, Labels labels) {
  labels[kNamespaceNameLabel] = name;
  ClusterNamespace ns{name, std::move(labels), is_system(name), owned_by_bundle(bundle, name)};
  return ns;
}

}  // namespace

std::vector<ClusterNamespace> default_namespaces(const Bundle& bundle) {
  std::map<std::string, Labels> names;
  for (const char* n : {"kube-system", "kube-public", "kube-node-lease", "default"})
    names[n];
  names[bundle.default_namespace];
  for (const Object& obj : bundle.objects) {
    if (!obj.namespace_.empty()) names[obj.namespace_];
    if (obj.group.empty() && obj.kind == "Namespace") names[obj.name] = obj.labels();
  }
  names[kOtherTeamNamespace];
  std::vector<ClusterNamespace> out;
  out.reserve(names.size());
  for (auto& [name, labels] : names)
    out.push_back(make(bundle, name, std::move(labels)));
  return out;
}

tl::expected<std::vector<ClusterNamespace>, std::vector<LoadError>> load_namespaces(
    const std::string& path, const Bundle& bundle) {
  auto loaded = load_inputs({path}, LoadOptions{});
  if (!loaded) return tl::unexpected(loaded.error());
  std::vector<ClusterNamespace> out;
  std::vector<LoadError> errors;
  for (const RawObject& raw : loaded->objects) {
    if (raw.node.get("kind").str() != "Namespace") {
      errors.push_back(LoadError{loaded->files[raw.file], raw.position,
                                 fmt::format("expected Namespace objects (kubectl get ns -o yaml), "
                                             "found {}",
                                             raw.node.get("kind").str())});
      continue;
    }
    std::string name(raw.node.at({"metadata", "name"}).str());
    out.push_back(make(bundle, name, read_labels(raw.node.at({"metadata", "labels"}))));
  }
  if (!errors.empty()) return tl::unexpected(std::move(errors));
  std::sort(out.begin(), out.end(),
            [](const ClusterNamespace& a, const ClusterNamespace& b) { return a.name < b.name; });
  return out;
}

}  // namespace footprint
