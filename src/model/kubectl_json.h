// The JSON that kubectl sends for a manifest, byte for byte.
//
// kubectl reads YAML with sigs.k8s.io/yaml: go-yaml v2 resolves every plain scalar by YAML 1.1
// rules (yes/no/on/off/y/n are booleans, 0777 is octal, 1e3 is a float), Go's encoding/json
// writes the result with sorted keys and HTML-safe escapes, and the object then goes through
// kubectl's unstructured decoder and encoder once more, which turns integral numbers into
// integers. docs/crds.md lists the rules with their sources; kubectl_json_test.cc checks them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tl/expected.hpp>
#include <vector>

#include "load/yaml.h"
#include "model/object.h"

namespace footprint {

// What kubectl cannot encode (for example `.nan`, which JSON has no number for), and where.
struct JsonError {
  yaml::Position position;
  std::string message;
};

// An edit applied while encoding: set a member of a mapping to raw JSON, remove it, or edit
// inside it (creating it when absent).
struct JsonEdit {
  enum class Op : uint8_t { kSet, kRemove, kNested };
  std::string key;
  Op op = Op::kSet;
  std::string raw;              // kSet: the member's JSON
  std::vector<JsonEdit> edits;  // kNested: edits of the member's mapping
};

// Compact JSON of `node` as kubectl writes it, with `edits` applied to the top mapping.
tl::expected<std::string, JsonError> kubectl_json(const yaml::Node& node,
                                                  const std::vector<JsonEdit>& edits = {});

// The same, counting bytes without building the text.
tl::expected<uint64_t, JsonError> kubectl_json_size(const yaml::Node& node,
                                                    const std::vector<JsonEdit>& edits = {});

// A string as Go's encoding/json quotes it: <, > and & as \u003c, \u003e, \u0026, U+2028 and
// U+2029 escaped, invalid UTF-8 replaced by \ufffd, other non-ASCII text kept as UTF-8.
std::string go_json_string(std::string_view text);

// What kubectl reads a scalar as: "string", or the YAML 1.1 type go-yaml v2 resolves it to
// ("int", "float", "bool", "null"), so `image: 12345` is an int where a string is needed.
std::string_view kubectl_scalar_type(const yaml::Node& scalar);
// A scalar as a typed API field receives it through kubectl (go-yaml v2's YAML 1.1 resolution):
// `yes` and `on` are true, and an integral float such as 1e9 is an integer, as kubectl's decoder
// makes it. Nothing when the node is absent, null, quoted, or of another type.
std::optional<bool> kubectl_bool(const yaml::Node& node);
std::optional<int64_t> kubectl_int(const yaml::Node& node);
// An int or float scalar's value as a float64, as Go's encoding/json reads a number.
std::optional<double> kubectl_float(const yaml::Node& node);

// The edits kubectl makes before sending an object: it sets metadata.namespace on a namespaced
// object that has none (to -n) and removes it from a cluster-scoped one.
std::vector<JsonEdit> kubectl_namespace_edits(const Object& object);

// The key client-side `kubectl apply` stores the applied object under.
constexpr std::string_view kLastAppliedAnnotation =
    "kubectl.kubernetes.io/last-applied-configuration";

// Sizes of one object as kubectl sends and the API server stores it.
struct ApplySizes {
  uint64_t json_bytes = 0;  // the compact JSON kubectl sends (create, replace, server-side apply)
  // The request body: the JSON and the newline Go's json.Encoder ends it with.
  uint64_t request_bytes = 0;
  // metadata.annotations after client-side apply adds the last-applied configuration: the sum of
  // len(key) + len(value) over every annotation, which the API server limits to 256 KiB.
  uint64_t annotation_bytes = 0;
};

tl::expected<ApplySizes, JsonError> apply_sizes(const Object& object);

}  // namespace footprint
