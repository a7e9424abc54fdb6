// ConfigMaps and Secrets whose data the API server refuses to store, whatever the client.
#include <fmt/format.h>

#include "analysis/context.h"
#include "model/units.h"

namespace footprint {

namespace {

void run_config_data_too_large(const Context& ctx, Findings& out) {
  for (const ObjectSize& s : ctx.sizes) {
    if (!s.data_bytes || !data_over_limit(s)) continue;
    const Object& obj = *s.object;
    bool secret = obj.kind == "Secret";
    std::string fields = secret ? "data and stringData" : "data and binaryData";
    Finding& f = out.add(
        obj, Severity::kHigh,
        fmt::format("The values of {}'s {} come to {} bytes; the API server refuses a {} over "
                    "{} bytes (\"{}Too long: must have at most {} bytes\"), so it cannot be "
                    "stored at all: neither server-side apply nor a larger etcd request limit "
                    "helps, and the install fails on it.",
                    obj.display(), fields, with_commas(*s.data_bytes), obj.kind,
                    with_commas(kMaxSecretSize), secret ? "data: " : "", kMaxSecretSize),
        secret ? "Split the values over several Secrets, or keep large files out of the cluster "
                 "(an image, or a volume the workload downloads into)."
               : "Split the values over several ConfigMaps, or ship large files another way (in "
                 "the image, or a volume the workload downloads into).",
        obj.node.get("data") ? obj.node.get("data") : obj.node);
    f.summary =
        fmt::format("{} holds over 1 MiB of data: the API server cannot store it", obj.display());
  }
}

}  // namespace

extern const Check kConfigDataTooLarge{
    .id = "config-data-too-large",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kObjects,
    .description =
        "A ConfigMap's or Secret's values total more than 1 MiB, which the API server never "
        "stores.",
    .run = run_config_data_too_large,
    .rationale =
        "The API server's validation rejects a ConfigMap or Secret whose values add up to more "
        "than 1 MiB (MaxSecretSize), whatever the client: server-side apply does not help, unlike "
        "for large CRDs. High: the install fails.",
    .fix = "Split the data over several objects, or ship large files in the image or a volume.",
    .breaks_on_install = true,
};

}  // namespace footprint
