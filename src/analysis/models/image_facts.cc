// What footprint says of an image besides where it is used: whether its tag moves, and its size
// against the pull limits (images.h).
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "analysis/models/images.h"
#include "model/units.h"
#include "util/strings.h"

namespace footprint {

namespace {

bool has_digit(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// latest, main and the like, alone or with a qualifier ("main-latest", "v2-nightly").
bool is_moving_name(std::string_view lowered) {
  static constexpr std::array<std::string_view, 16> kMutable = {
      "latest", "main", "master", "devel",    "develop",  "dev",     "nightly", "edge",
      "stable", "head", "canary", "snapshot", "unstable", "rolling", "next",    "testing"};
  if (std::find(kMutable.begin(), kMutable.end(), lowered) != kMutable.end()) return true;
  return lowered.starts_with("latest-") ||
         std::any_of(kMutable.begin(), kMutable.begin() + 8,
                     [&](std::string_view m) { return lowered.ends_with(fmt::format("-{}", m)); });
}

}  // namespace

bool is_mutable_tag(std::string_view tag) {
  std::string l = lower(tag);
  if (is_moving_name(l)) return true;
  // "1.x", "v2.x.x", "1.*": a version with a wildcard part is a range, and moves within it.
  for (size_t start = 0; start <= l.size();) {
    size_t dot = l.find('.', start);
    std::string_view part = std::string_view(l).substr(start, dot - start);
    if (part == "x" || part == "*") return true;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  // "alpine", "bookworm", "slim": a name without any version number follows its base image's
  // releases, so it moves too.
  return !has_digit(l);
}

bool is_variant_tag(std::string_view tag) {
  return !tag.empty() && !has_digit(tag) && !is_moving_name(lower(tag));
}

bool moves(const ImageRef& ref) {
  std::string_view tag = ref.effective_tag();
  if (!is_variant_tag(tag)) return is_mutable_tag(tag);
  // "linux", "box": a variant names no version itself; the repository's name may
  // ("python3.12:slim"), and then the variant of that version is what is asked for.
  std::string_view last = std::string_view(ref.path).substr(ref.path.rfind('/') + 1);
  return !has_digit(last);
}

std::optional<LargeImage> large_image(uint64_t bytes, const PullLimits& limits) {
  if (bytes <= limits.large_bytes) return std::nullopt;
  return LargeImage{bytes, static_cast<double>(bytes) / limits.bytes_per_second};
}

const RegistryImage* ImageSizes::find(std::string_view reference) const {
  auto it = registry.find(reference);
  return it == registry.end() ? nullptr : &it->second;
}

RegistryTarget registry_target(const ImageRef& ref) {
  RegistryTarget target;
  target.domain = ref.domain;
  target.repository = ref.path;
  target.tag = ref.digest.empty() ? std::string(ref.effective_tag()) : ref.tag;
  target.digest = ref.digest;
  target.reference = ref.normalized();
  return target;
}

void add_registry_results(ImageSizes& sizes, std::vector<RegistryImage> images) {
  if (sizes.sized) sizes.total_bytes = distinct_bytes(images);
  for (RegistryImage& image : images) {
    if (image.ok() && sizes.sized) sizes.bytes[image.target.reference] = image.bytes;
    std::string reference = image.target.reference;
    sizes.registry.insert_or_assign(std::move(reference), std::move(image));
  }
}

}  // namespace footprint
