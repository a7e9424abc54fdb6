// Objects kubectl cannot send: values its JSON encoder refuses, such as `.nan` and `.inf`.
#include <fmt/format.h>

#include "analysis/context.h"

namespace footprint {

namespace {

void run_object_not_encodable(const Context& ctx, Findings& out) {
  for (const ObjectSize& size : ctx.sizes) {
    if (size.sizes) continue;
    Finding& f =
        out.add(*size.object, Severity::kHigh,
                fmt::format("kubectl cannot encode {} as JSON ({}), so `kubectl apply` and helm "
                            "fail on it, and its size is left out of the size checks.",
                            size.object->display(), size.error),
                "Change the value on that line to one JSON can hold: a finite number, or the same "
                "text in quotes where the field is a string.");
    f.summary = fmt::format("kubectl cannot send {}: it holds a value JSON cannot encode",
                            size.object->display());
    // The line of the value to change, which the fix names, rather than the object's first line.
    if (size.error_at.line != 0) f.position = size.error_at;
  }
}

}  // namespace

extern const Check kObjectNotEncodable{
    .id = "object-not-encodable",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kObjects,
    .description =
        "An object holds a value kubectl cannot encode as JSON (.nan, .inf), so it cannot be "
        "applied.",
    .run = run_object_not_encodable,
    .rationale =
        "kubectl and Helm send objects as JSON, which has no NaN or infinity: YAML's .nan and .inf "
        "make the encoder fail, so the object is never sent. High: the install does not work.",
    .fix = "Use a finite number, or a quoted string where the field is a string.",
    .breaks_on_install = true,
};

}  // namespace footprint
