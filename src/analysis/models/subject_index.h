// Lookups by key for loops over every binding, subject or right: a cluster's bindings name
// thousands of subjects in thousands of namespaces, where a scan per item grows with the square.
#pragma once

#include <functional>
#include <span>
#include <string_view>
#include <unordered_map>

#include "model/namespaces.h"
#include "model/rbac.h"

namespace footprint {

struct SubjectHash {
  size_t operator()(const Subject& s) const noexcept {
    size_t h = std::hash<std::string_view>{}(s.name);
    h = h * 31 + std::hash<std::string_view>{}(s.namespace_);
    return h * 31 + static_cast<size_t>(s.kind);
  }
};

// foreign_namespace() (rights.h) by name instead of by a scan of the namespaces.
class ForeignNamespaces {
 public:
  explicit ForeignNamespaces(std::span<const ClusterNamespace> namespaces) {
    foreign_.reserve(namespaces.size());
    for (const ClusterNamespace& n : namespaces)
      foreign_.try_emplace(n.name, !n.operator_owned);  // the first of a name, as the scan
  }
  bool operator()(std::string_view ns) const {
    auto it = foreign_.find(ns);
    return it == foreign_.end() || it->second;
  }

 private:
  std::unordered_map<std::string_view, bool> foreign_;
};

}  // namespace footprint
