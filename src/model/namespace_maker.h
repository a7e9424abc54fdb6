// make_namespace() (namespaces.h) for every namespace of a cluster: which namespaces the
// bundle's objects land in is gathered once instead of scanning every object per namespace.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>

#include "model/namespaces.h"

namespace footprint {

class NamespaceMaker {
 public:
  explicit NamespaceMaker(const Bundle& bundle);
  ClusterNamespace operator()(const std::string& name, Labels labels) const;

 private:
  const Bundle& bundle_;
  std::unordered_set<std::string_view> landed_;  // namespaces of the bundle's objects
};

}  // namespace footprint
