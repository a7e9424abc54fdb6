#include "model/secrets.h"

#include "util/strings.h"

namespace footprint {

bool may_hold_secret_values(const yaml::Node& object, bool kind_known) {
  if (equals_any_case(object.get("kind").str(), "secret")) return true;
  if (kind_known) return false;
  return (object.get("data") || object.get("stringData")) && object.get("type");
}

bool may_hold_secret_values(const Object& object) {
  return may_hold_secret_values(object.node, object.scope != Scope::kUnknown);
}

}  // namespace footprint
