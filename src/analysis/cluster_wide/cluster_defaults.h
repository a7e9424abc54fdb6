// StorageClasses and IngressClasses a bundle marks as the cluster's default.
#pragma once

#include <string>
#include <vector>

#include "model/object.h"

namespace footprint {

struct ClusterDefault {
  const Object* object = nullptr;  // a StorageClass or an IngressClass
  std::string annotation;          // the annotation that makes it the default
  std::string implementation;      // the StorageClass's provisioner, the IngressClass's controller
};

// In input order.
std::vector<ClusterDefault> cluster_defaults(const Bundle& bundle);

}  // namespace footprint
