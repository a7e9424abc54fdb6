#include "model/namespaces.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_set>

#include "model/namespace_maker.h"

namespace footprint {

bool is_system_namespace(std::string_view name) {
  return name == "kube-system" || name == "kube-public" || name == "kube-node-lease";
}

bool every_cluster_has(std::string_view name) {
  return is_system_namespace(name) || name == "default";
}

namespace {

// Operator-owned: the release namespace, the namespaces the bundle creates, and those it puts
// objects in, such as the target namespace of a namespace-restricted install. Namespaces every
// cluster shares stay other teams' even when the bundle puts a RoleBinding there; `default` is
// the operator's only when it is the release namespace and the bundle's objects land there (it is
// also the release namespace when -n is not given, for a bundle that names its own namespaces).
bool owned_by_bundle(const Bundle& bundle, const std::unordered_set<std::string_view>& landed,
                     std::string_view name) {
  auto lands_there = [&] { return landed.contains(name); };
  if (name == "default") return name == bundle.default_namespace && lands_there();
  if (name == bundle.default_namespace || bundle.creates_namespace(name)) return true;
  if (is_system_namespace(name)) return false;
  if (std::find(bundle.own_namespaces.begin(), bundle.own_namespaces.end(), name) !=
      bundle.own_namespaces.end())
    return true;
  return lands_there();
}

// Namespaces a webhook configuration names in its namespaceSelectors through
// kubernetes.io/metadata.name (matchLabels, or matchExpressions with In): the namespaces its
// webhooks are pinned to, which the blast radius must include.
std::vector<std::string> pinned_namespaces(const Object& obj) {
  std::vector<std::string> out;
  if (obj.group != "admissionregistration.k8s.io" || !obj.kind.ends_with("WebhookConfiguration"))
    return out;
  yaml::Node webhooks = obj.node.get("webhooks");
  for (size_t i = 0; i < webhooks.size(); ++i) {
    yaml::Node selector = webhooks.item(i).get("namespaceSelector");
    std::string_view label = selector.at({"matchLabels", kNamespaceNameLabel}).str();
    if (!label.empty()) out.emplace_back(label);
    yaml::Node expressions = selector.get("matchExpressions");
    for (size_t e = 0; e < expressions.size(); ++e) {
      yaml::Node expr = expressions.item(e);
      if (expr.get("key").str() != kNamespaceNameLabel || expr.get("operator").str() != "In")
        continue;
      yaml::Node values = expr.get("values");
      for (size_t v = 0; v < values.size(); ++v)
        out.emplace_back(values.item(v).str());
    }
  }
  return out;
}

}  // namespace

NamespaceMaker::NamespaceMaker(const Bundle& bundle) : bundle_(bundle) {
  for (const Object& obj : bundle.objects)
    landed_.insert(obj.namespace_);
}

ClusterNamespace NamespaceMaker::operator()(const std::string& name, Labels labels) const {
  labels[kNamespaceNameLabel] = name;
  ClusterNamespace ns{name, std::move(labels), is_system_namespace(name),
                      owned_by_bundle(bundle_, landed_, name)};
  return ns;
}

ClusterNamespace make_namespace(const Bundle& bundle, const std::string& name, Labels labels) {
  return NamespaceMaker(bundle)(name, std::move(labels));
}

std::vector<ClusterNamespace> default_namespaces(const Bundle& bundle) {
  std::map<std::string, Labels> names;
  for (const char* n : {"kube-system", "kube-public", "kube-node-lease", "default"})
    names[n];
  names[bundle.default_namespace];
  for (const std::string& own : bundle.own_namespaces)
    names[own];
  for (const Object& obj : bundle.objects) {
    if (!obj.namespace_.empty()) names[obj.namespace_];
    if (obj.group.empty() && obj.kind == "Namespace") names[obj.name] = obj.labels();
    for (const std::string& pinned : pinned_namespaces(obj))
      names[pinned];
  }
  names[kOtherTeamNamespace];
  std::vector<ClusterNamespace> out;
  out.reserve(names.size());
  NamespaceMaker make(bundle);
  for (auto& [name, labels] : names)
    out.push_back(make(name, std::move(labels)));
  return out;
}

tl::expected<std::vector<ClusterNamespace>, std::vector<LoadError>> load_namespaces(
    const std::string& path, const Bundle& bundle) {
  auto loaded = load_inputs({path}, LoadOptions{});
  if (!loaded) return tl::unexpected(loaded.error());
  std::vector<ClusterNamespace> out;
  std::vector<LoadError> errors;
  NamespaceMaker make(bundle);
  for (const RawObject& raw : loaded->objects) {
    if (raw.node.get("kind").str() != "Namespace") {
      errors.push_back(LoadError{loaded->files[raw.file], raw.position,
                                 fmt::format("expected Namespace objects (kubectl get ns -o yaml), "
                                             "found {}",
                                             raw.node.get("kind").str())});
      continue;
    }
    std::string name(raw.node.at({"metadata", "name"}).str());
    out.push_back(make(name, read_labels(raw.node.at({"metadata", "labels"}))));
  }
  if (!errors.empty()) return tl::unexpected(std::move(errors));
  std::sort(out.begin(), out.end(),
            [](const ClusterNamespace& a, const ClusterNamespace& b) { return a.name < b.name; });
  return out;
}

}  // namespace footprint
