// Objects kubectl cannot send: values its JSON encoder refuses, such as `.nan` and `.inf`.
#include <fmt/format.h>

#include "analysis/check.h"

namespace footprint {

namespace {

void run_object_not_encodable(const Context& ctx, Findings& out) {
  for (const ObjectSize& size : ctx.sizes) {
    if (size.sizes) continue;
    out.add(*size.object, Severity::kHigh,
            fmt::format("kubectl cannot encode {} as JSON ({}), so `kubectl apply` and helm "
                        "fail on it, and its size is left out of the size checks.",
                        size.object->display(), size.error),
            "Change the value on that line to one JSON can hold: a finite number, or a quoted "
            "string (\".nan\") where the field is a string.");
  }
}

}  // namespace

extern const Check kObjectNotEncodable{
    "object-not-encodable", Severity::kHigh, "objects",
    "An object holds a value kubectl cannot encode as JSON (.nan, .inf), so it cannot be applied.",
    run_object_not_encodable};

}  // namespace footprint
