// The one test for "may hold Secret values", asked everywhere object contents are read or
// printed (image discovery, relocated manifests, sizes, cluster snapshots), so that a Secret
// spelled differently never has its values shown.
#pragma once

#include "load/yaml.h"
#include "model/object.h"

namespace footprint {

// True for a kind spelled "secret" in any case and any group (the API server rejects a
// mis-cased one, but its values are still the user's), and, for a kind that is neither built in
// nor defined by a CRD (`kind_known` false), for fields that look like a Secret's: a top-level
// `data` or `stringData` beside `type`.
bool may_hold_secret_values(const yaml::Node& object, bool kind_known);
// The same for an object of a bundle: its kind is known when its scope is.
bool may_hold_secret_values(const Object& object);

}  // namespace footprint
