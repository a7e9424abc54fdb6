// The bundle's custom resources checked against their CRDs, taken from the bundle or else from
// the --cluster snapshot: the version they name must exist and be served, and the object must
// meet that version's structural schema (crd_schema.h). A kind no CRD defines is crd-missing's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/models/crd_schema.h"
#include "model/cluster.h"
#include "model/object.h"

namespace footprint {

struct CustomResourceCheck {
  const Object* object = nullptr;
  const Object* crd = nullptr;
  bool crd_from_cluster = false;
  // kMissing: the CRD has no such version; kNotServed: it has, with served: false. Either way
  // discovery does not list it and the install fails with "no matches for kind".
  enum class Version : uint8_t { kServed, kMissing, kNotServed };
  Version version = Version::kServed;
  std::vector<std::string> served;  // the CRD's served versions
  bool has_schema = false;          // false: a v1beta1 CRD without one, nothing to validate
  SchemaValidation schema;
};

// Every custom resource of the bundle that ends up in the cluster whose CRD is known, in input
// order.
std::vector<CustomResourceCheck> check_custom_resources(const Bundle& bundle,
                                                        const Cluster* cluster);

}  // namespace footprint
