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

bool is_placeholder_tag(std::string_view tag) {
  std::string l = lower(tag);
  if (tag.empty() || has_digit(tag) || is_moving_name(l)) return false;
  for (std::string_view word : {"placeholder", "replace", "changeme"}) {
    if (l.find(word) != std::string::npos) return true;
  }
  bool upper = std::any_of(tag.begin(), tag.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  // VERSION, IMAGE_TAG, __TAG__: a shell or make variable's name.
  if (upper && tag.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == std::string_view::npos)
    return true;
  // linkerdVersionValue, imageTag: a camelCase variable's name that ends in what it stands for.
  bool camel = tag.front() >= 'a' && tag.front() <= 'z' && upper;
  return camel && (tag.ends_with("Value") || tag.ends_with("Version") || tag.ends_with("Tag"));
}

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
  if (is_placeholder_tag(tag)) return false;  // no build has it: it cannot move
  if (!is_variant_tag(tag)) return is_mutable_tag(tag);
  // "linux", "box": a variant names no version itself; the repository's name may
  // ("python3.12:slim"), and then the variant of that version is what is asked for.
  std::string_view last = std::string_view(ref.path).substr(ref.path.rfind('/') + 1);
  return !has_digit(last);
}

namespace {

bool in_container_field(const ImageUse& use) {
  return use.source == "container" || use.source == "initContainer" ||
         use.source == "ephemeralContainer";
}

std::string_view parent_path(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

}  // namespace

const Image* completed_from(const ImageInventory& inv, const Image& image) {
  std::string_view parent = parent_path(image.ref.path);
  if (!image.ref.tag.empty() || image.ref.pinned() || parent.empty() ||
      (image.ref.domain == "docker.io" && parent == "library"))
    return nullptr;  // Docker Hub's official images share no operator
  if (std::any_of(image.uses.begin(), image.uses.end(),
                  [&](size_t u) { return in_container_field(inv.uses[u]); }))
    return nullptr;
  const Image* sibling = nullptr;
  for (const Image& other : inv.images) {
    if (other.ref.tag.empty() || other.ref.domain != image.ref.domain ||
        parent_path(other.ref.path) != parent)
      continue;
    if (std::none_of(other.uses.begin(), other.uses.end(),
                     [&](size_t u) { return in_container_field(inv.uses[u]); }))
      continue;
    if (other.ref.path == image.ref.path) return &other;  // the same repository: its own tag
    if (!sibling) sibling = &other;
  }
  return sibling;
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
