#include "model/secrets.h"

#include "util/strings.h"

namespace footprint {

bool may_hold_secret_values(const yaml::Node& object, bool kind_known) {
  // Only a six-letter kind is Secret in any case: no lowered copy of every other object's kind.
  std::string_view kind = object.get("kind").str();
  if (kind.size() == 6 && lower(kind) == "secret") return true;
  if (kind_known) return false;
  return (object.get("data") || object.get("stringData")) && object.get("type");
}

bool may_hold_secret_values(const Object& object) {
  return may_hold_secret_values(object.node, object.scope != Scope::kUnknown);
}

}  // namespace footprint
