// The sizes of object_sizes.h.
#include "analysis/models/object_sizes.h"

#include <fmt/format.h>

#include "load/parallel.h"
#include "model/secrets.h"

namespace footprint {

bool near_limit(uint64_t value, uint64_t limit) {
  return value * 100 >= limit * kNearPercent;
}

namespace {

// The length of what a base64 value decodes to ([]byte fields); the text's own length when it is
// not base64 of whole quanta (the API server then rejects it for that reason instead).
uint64_t decoded_bytes(std::string_view text) {
  if (text.size() % 4 != 0) return text.size();
  size_t padding = text.ends_with("==") ? 2 : text.ends_with('=') ? 1 : 0;
  return text.size() / 4 * 3 - padding;
}

// What ValidateConfigMap and ValidateSecret sum: len(value) over data and binaryData, or over
// data after stringData was merged into it (a stringData key replaces the same data key).
std::optional<uint64_t> stored_data_bytes(const Object& obj) {
  if (!obj.group.empty() || (obj.kind != "ConfigMap" && obj.kind != "Secret")) return std::nullopt;
  uint64_t total = 0;
  bool secret = obj.kind == "Secret";
  yaml::Node data = obj.node.get("data");
  yaml::Node string_data = secret ? obj.node.get("stringData") : yaml::Node();
  for (size_t i = 0; data.is_mapping() && i < data.size(); ++i) {
    if (string_data.is_mapping() && string_data.get(data.key(i).str())) continue;
    std::string_view value = data.value(i).str();
    total += secret ? decoded_bytes(value) : value.size();
  }
  for (size_t i = 0; string_data.is_mapping() && i < string_data.size(); ++i)
    total += string_data.value(i).str().size();
  yaml::Node binary = secret ? yaml::Node() : obj.node.get("binaryData");
  for (size_t i = 0; binary.is_mapping() && i < binary.size(); ++i)
    total += decoded_bytes(binary.value(i).str());
  return total;
}

}  // namespace

bool data_over_limit(const ObjectSize& size) {
  return size.data_bytes && *size.data_bytes > kMaxSecretSize;
}

std::vector<ObjectSize> object_sizes(const Bundle& bundle) {
  // Counting every object as JSON is the largest part of the analysis; objects are independent.
  std::vector<ObjectSize> out(bundle.objects.size());
  parallel_for(out.size(), bundle.input.jobs, [&](size_t i) {
    const Object& obj = bundle.objects[i];
    ObjectSize& s = out[i];
    s.object = &obj;
    s.yaml_bytes = obj.yaml_bytes;
    s.data_bytes = stored_data_bytes(obj);
    auto sizes = apply_sizes(obj);
    if (sizes) {
      s.sizes = *sizes;
    } else {
      s.error_at = sizes.error().position;
      // The encoder's message quotes the value, which must not reach a report for a Secret.
      s.error = fmt::format("line {}: {}", sizes.error().position.line,
                            may_hold_secret_values(obj)
                                ? "a value JSON cannot encode (not shown: it may be a Secret value)"
                                : sizes.error().message);
    }
  });
  return out;
}

bool size_needs_attention(const ObjectSize& s) {
  if (!s.sizes) return false;
  return near_limit(s.sizes->annotation_bytes, kAnnotationLimit) ||
         near_limit(s.sizes->request_bytes, kRequestBodyLimit) ||
         near_limit(s.sizes->json_bytes, kEtcdRequestLimit);
}

}  // namespace footprint
