// The one test for "may hold Secret values", asked everywhere object contents are read or
// printed (image discovery, relocated manifests, sizes, cluster snapshots), so that a Secret
// spelled differently never has its values shown.
#pragma once

#include <optional>
#include <string_view>

#include "load/yaml.h"
#include "model/field_types.h"
#include "model/object.h"

namespace footprint {

// True for a kind that reads "Secret" once case is folded and surrounding white space is
// removed (Unicode's too: any non-ASCII byte at either end, which no kind has).
bool spells_secret(std::string_view kind);

// True for a kind that spells_secret, in any group (the API server rejects a misspelled one, but
// its values are still the user's), and, for a kind that is neither built in nor defined by a CRD
// (`kind_known` false), for fields that look like a Secret's: a top-level `data` or `stringData`
// beside `type`.
bool may_hold_secret_values(const yaml::Node& object, bool kind_known);
// The same for an object of a bundle: its kind is known when its scope is.
bool may_hold_secret_values(const Object& object);

// The error for an object whose kind spells Secret but is not "Secret" where no served kind can
// be so spelled: with white space around it (kinds are DNS-1035 labels in lower case), or
// mis-cased in the core group (which holds only built-in kinds). kubectl finds no such kind and
// never sends the object, so it is an invalid document, and none of its values is read.
std::optional<FieldTypeError> misspelled_secret_kind(const yaml::Node& object);

}  // namespace footprint
