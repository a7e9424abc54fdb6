#include "report/labels.h"

#include <fmt/format.h>

#include "model/units.h"

namespace footprint {

std::string object_label(const ObjectId& id) {
  return id.namespace_.empty() ? id.kind + " " + id.name
                               : id.kind + " " + id.namespace_ + "/" + id.name;
}

Json object_json(const Object& obj) {
  Json j = {{"apiVersion", obj.api_version}, {"kind", obj.kind}};
  if (!obj.namespace_.empty()) j["namespace"] = obj.namespace_;
  j["name"] = obj.name;
  return j;
}

std::string baseline_mark(const Finding& f, std::string_view gap) {
  if (!f.severity_before) return f.known ? fmt::format("{}(known)", gap) : "";
  return fmt::format("{}({}: {} before)", gap, f.known ? "better" : "worse",
                     severity_name(*f.severity_before));
}

int64_t headroom(uint64_t limit, uint64_t value) {
  return static_cast<int64_t>(limit) - static_cast<int64_t>(value);
}

std::string signed_commas(int64_t n, std::string_view minus) {
  return n < 0 ? std::string(minus) + with_commas(static_cast<uint64_t>(-n))
               : with_commas(static_cast<uint64_t>(n));
}

}  // namespace footprint
