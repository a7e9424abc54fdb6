#include "analysis/inventory.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace footprint {

namespace {

// Kind names are shown alone unless two groups in the bundle use the same one.
std::map<std::pair<std::string, std::string>, std::string> kind_keys(const Bundle& bundle) {
  std::map<std::string, std::set<std::string>> groups_of_kind;
  for (const Object& obj : bundle.objects)
    groups_of_kind[obj.kind].insert(obj.group);
  std::map<std::pair<std::string, std::string>, std::string> keys;
  for (const auto& [kind, groups] : groups_of_kind) {
    for (const std::string& group : groups) {
      bool qualify = groups.size() > 1 && !group.empty();
      keys[{group, kind}] = qualify ? fmt::format("{}.{}", kind, group) : kind;
    }
  }
  return keys;
}

}  // namespace

Inventory take_inventory(const Bundle& bundle, const ResourceTable* known) {
  Inventory inv;
  inv.files = static_cast<uint32_t>(bundle.input.files.size());
  for (uint64_t bytes : bundle.input.file_bytes)
    inv.input_bytes += bytes;
  auto keys = kind_keys(bundle);
  std::map<std::string, KindCount> kinds;
  std::map<std::string, NamespaceUsage> namespaces;
  std::map<std::string, std::map<std::string, uint32_t>> kinds_in_namespace;
  for (const Object& obj : bundle.objects) {
    ++inv.objects;
    const std::string& key = keys[{obj.group, obj.kind}];
    KindCount& count = kinds[key];
    count.key = key;
    count.group = obj.group;
    Scope scope = obj.scope;
    if (scope == Scope::kUnknown && known) {
      const ResourceInfo* info = known->find_kind(obj.group, obj.kind);
      if (info) scope = info->scope;
    }
    switch (scope) {
      case Scope::kCluster:
        ++inv.cluster_scoped;
        ++count.cluster;
        break;
      case Scope::kNamespaced:
        ++inv.namespaced;
        ++count.namespaced;
        break;
      case Scope::kUnknown:
        ++inv.unknown_scope;
        ++count.unknown;
        break;
    }
    if (!obj.namespace_.empty()) {
      NamespaceUsage& ns = namespaces[obj.namespace_];
      ns.name = obj.namespace_;
      ++ns.objects;
      ++kinds_in_namespace[obj.namespace_][key];
    }
    if (obj.group.empty() && obj.kind == "Namespace") namespaces[obj.name].name = obj.name;
    bool mutating = obj.kind == "MutatingWebhookConfiguration";
    if (obj.group == "admissionregistration.k8s.io" &&
        (mutating || obj.kind == "ValidatingWebhookConfiguration")) {
      uint32_t n = static_cast<uint32_t>(obj.node.get("webhooks").size());
      (mutating ? inv.mutating_configurations : inv.validating_configurations) += 1;
      (mutating ? inv.mutating_webhooks : inv.validating_webhooks) += n;
    }
  }
  for (auto& [key, count] : kinds)
    inv.kinds.push_back(std::move(count));
  for (auto& [name, ns] : namespaces) {
    ns.created = bundle.creates_namespace(name);
    ns.release = name == bundle.default_namespace;
    for (const auto& [kind, n] : kinds_in_namespace[name])
      ns.kinds.emplace_back(kind, n);
    inv.namespaces.push_back(std::move(ns));
  }
  return inv;
}

}  // namespace footprint
