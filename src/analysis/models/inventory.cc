#include "analysis/models/inventory.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "model/helm_hooks.h"

namespace footprint {

namespace {

bool same_kind(const Object& a, const Object& b) {
  return a.kind == b.kind && a.group == b.group;
}

// A namespace's counts, with its objects by kind key until they are listed.
struct NamespaceCounts {
  NamespaceUsage usage;
  std::map<std::string, uint32_t> kinds;
};

// Kind names are shown alone unless two groups in the bundle use the same one.
std::map<std::pair<std::string, std::string>, std::string> kind_keys(const Bundle& bundle) {
  std::map<std::string, std::set<std::string>> groups_of_kind;
  const Object* previous = nullptr;
  for (const Object& obj : bundle.objects) {
    if (!previous || !same_kind(obj, *previous)) groups_of_kind[obj.kind].insert(obj.group);
    previous = &obj;
  }
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
  std::map<std::string, NamespaceCounts> namespaces;
  // Objects of one kind come in runs: their key and count are looked up once per run.
  const Object* previous = nullptr;
  const std::string* key = nullptr;
  KindCount* count = nullptr;
  for (const Object& obj : bundle.objects) {
    if (std::string phases = later_hook_phases(obj); !phases.empty()) {
      inv.later_hooks.push_back({std::move(phases), obj.display()});
      continue;
    }
    ++inv.objects;
    if (!previous || !same_kind(obj, *previous)) {
      key = &keys[{obj.group, obj.kind}];
      count = &kinds[*key];
      count->key = *key;
      count->group = obj.group;
    }
    previous = &obj;
    Scope scope = obj.scope;
    if (scope == Scope::kUnknown && known) {
      const ResourceInfo* info = known->find_kind(obj.group, obj.kind);
      if (info) scope = info->scope;
    }
    switch (scope) {
      case Scope::kCluster:
        ++inv.cluster_scoped;
        ++count->cluster;
        break;
      case Scope::kNamespaced:
        ++inv.namespaced;
        ++count->namespaced;
        break;
      case Scope::kUnknown:
        ++inv.unknown_scope;
        ++count->unknown;
        break;
    }
    if (!obj.namespace_.empty()) {
      NamespaceCounts& ns = namespaces[obj.namespace_];
      ns.usage.name = obj.namespace_;
      ++ns.usage.objects;
      ++ns.kinds[*key];
    }
    if (obj.group.empty() && obj.kind == "Namespace") namespaces[obj.name].usage.name = obj.name;
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
    ns.usage.created = bundle.creates_namespace(name);
    ns.usage.release = name == bundle.default_namespace;
    for (const auto& [kind, n] : ns.kinds)
      ns.usage.kinds.emplace_back(kind, n);
    inv.namespaces.push_back(std::move(ns.usage));
  }
  return inv;
}

}  // namespace footprint
