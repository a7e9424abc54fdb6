#include "model/secrets.h"

#include <fmt/format.h>

#include <cctype>

#include "model/kubectl_json.h"
#include "util/strings.h"

namespace footprint {

namespace {

bool surrounding(char c) {
  return std::isspace(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80;
}

std::string_view bare(std::string_view kind) {
  while (!kind.empty() && surrounding(kind.front()))
    kind.remove_prefix(1);
  while (!kind.empty() && surrounding(kind.back()))
    kind.remove_suffix(1);
  return kind;
}

}  // namespace

bool spells_secret(std::string_view kind) {
  return equals_any_case(bare(kind), "secret");
}

bool may_hold_secret_values(const yaml::Node& object, bool kind_known) {
  if (spells_secret(object.get("kind").str())) return true;
  if (kind_known) return false;
  return (object.get("data") || object.get("stringData")) && object.get("type");
}

bool may_hold_secret_values(const Object& object) {
  return may_hold_secret_values(object.node, object.scope != Scope::kUnknown);
}

std::optional<FieldTypeError> misspelled_secret_kind(const yaml::Node& object) {
  yaml::Node kind_node = object.get("kind");
  std::string_view kind = kind_node.str();
  if (kind == "Secret" || !spells_secret(kind)) return std::nullopt;
  std::string_view api_version = object.get("apiVersion").str();
  bool core = api_version.find('/') == std::string_view::npos;
  if (bare(kind) == kind && !core) return std::nullopt;  // a CRD may define "secret" there
  // kubectl's REST mapper matches kinds exactly, and fails with NoKindMatchError
  // (k8s.io/apimachinery/pkg/api/meta/errors.go) before anything is sent.
  std::string quoted = go_json_string(kind);
  return FieldTypeError{
      kind_node.position(),
      fmt::format("kind {} is not Secret: kinds are case-sensitive and hold no spaces, so kubectl "
                  "refuses the object (no matches for kind {} in version {}); its values are "
                  "never read",
                  quoted, quoted, go_json_string(api_version))};
}

}  // namespace footprint
