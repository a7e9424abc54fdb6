// Image deltas: images added, removed and retagged (same repository, another tag or digest),
// over the images each side needs (Context::images, certain and likely references); and, when
// --sizes asked the registries, what the upgrade adds to an air-gapped mirror.
#include <fmt/format.h>

#include <map>
#include <set>

#include "analysis/context.h"
#include "analysis/diff/diff.h"
#include "model/units.h"
#include "util/strings.h"

namespace footprint {

namespace {

// Repository -> the references of it each side pulls, normalised (name:tag or name@digest).
std::map<std::string, std::set<std::string>> pulled(const ImageInventory& images) {
  std::map<std::string, std::set<std::string>> out;
  for (const Image& image : images.images) {
    if (!image.needed() || image.confidence == Confidence::kPossible) continue;
    out[image.ref.name()].insert(image.ref.normalized());
  }
  return out;
}

// The registries' answers, when --sizes asked for sizes; null otherwise.
const ImageSizes* sizes_of(const DiffSide& side) {
  const ImageSizes* sizes = side.context.image_sizes;
  return sizes && sizes->sized ? sizes : nullptr;
}

// The image's size as the registry gave it; nullopt when it could not be read.
std::optional<uint64_t> size_of(const ImageSizes& sizes, const std::string& reference) {
  auto it = sizes.bytes.find(reference);
  if (it == sizes.bytes.end()) return std::nullopt;
  return it->second;
}

// Whether the registry answered that the image is not there (HTTP 404), as opposed to not
// being reachable or refusing credentials.
bool not_in_registry(const ImageSizes& sizes, const std::string& reference) {
  const RegistryImage* image = sizes.find(reference);
  return image && image->error.starts_with("not found (404)");
}

// "registry.example.com/op:1.1: 14.2 MB" or "...: size unknown"; adds the size to `sum`, which
// becomes nullopt once one size is unknown.
std::string sized_line(const ImageSizes& sizes, const std::string& reference,
                       std::optional<uint64_t>& sum) {
  std::optional<uint64_t> bytes = size_of(sizes, reference);
  if (!bytes) {
    sum.reset();
    const RegistryImage* image = sizes.find(reference);
    // The registry's own answer, e.g. "not found (404): ... is not in the registry", says more
    // than "could not be read": a registry that answered was read.
    return image && !image->ok() ? fmt::format("{}: size unknown: {}", reference, image->error)
                                 : reference + ": size unknown (its registry could not be read)";
  }
  if (sum) *sum += *bytes;
  return fmt::format("{}: {}", reference, format_bytes(*bytes));
}

}  // namespace

std::vector<ImageRef> pulled_images(const Context& old_context, const Context& new_context) {
  std::vector<ImageRef> out;
  std::set<std::string> seen;
  for (const Context* ctx : {&old_context, &new_context}) {
    for (const Image& image : ctx->images.images) {
      if (!image.needed() || image.confidence == Confidence::kPossible) continue;
      if (seen.insert(image.ref.normalized()).second) out.push_back(image.ref);
    }
  }
  return out;
}

void diff_images(const DiffSide& old_side, const DiffSide& new_side, std::vector<Change>& out) {
  auto before = pulled(old_side.context.images);
  auto after = pulled(new_side.context.images);
  const ImageSizes* sizes = sizes_of(new_side);
  auto change = [&](std::string subject, std::string what, std::string consequence,
                    const std::vector<std::string>& sized_refs) {
    Change c;
    c.area = "images";
    c.subject = std::move(subject);
    c.change = std::move(what);
    c.consequence = std::move(consequence);
    if (sizes) {
      c.mirror_bytes = 0;
      std::vector<std::string> missing;
      for (const std::string& ref : sized_refs) {
        c.details.push_back(sized_line(*sizes, ref, c.mirror_bytes));
        if (not_in_registry(*sizes, ref)) missing.push_back(ref);
      }
      if (!missing.empty()) {
        // Pods of the new version then end in ImagePullBackOff, unless it is published first.
        c.severity = Severity::kMedium;
        c.consequence += fmt::format(
            " Its registry says {} does not exist: pods that use {} cannot start "
            "(ImagePullBackOff) until {} published, and an air-gapped mirror cannot copy {}.",
            joined(missing), missing.size() == 1 ? "it" : "them",
            missing.size() == 1 ? "it is" : "they are", missing.size() == 1 ? "it" : "them");
      }
    }
    out.push_back(std::move(c));
  };
  for (const auto& [repository, refs] : after) {
    auto it = before.find(repository);
    std::vector<std::string> now(refs.begin(), refs.end());
    if (it == before.end()) {
      change(repository, "added: " + joined(now),
             "A new image to pull (and to import into an air-gapped registry).", now);
    } else if (it->second != refs) {
      std::vector<std::string> was(it->second.begin(), it->second.end());
      std::vector<std::string> fresh;
      for (const std::string& ref : now)
        if (!it->second.contains(ref)) fresh.push_back(ref);
      change(repository, fmt::format("{} -> {}", joined(was), joined(now)),
             "Retagged: nodes pull the new reference on rollout (import it into an air-gapped "
             "registry first).",
             fresh);
    }
  }
  for (const auto& [repository, refs] : before) {
    if (after.contains(repository)) continue;
    std::vector<std::string> was(refs.begin(), refs.end());
    change(repository, "removed: " + joined(was), "No longer pulled.", {});
  }
}

MirrorDelta diff_mirror(const DiffSide& old_side, const DiffSide& new_side) {
  MirrorDelta delta;
  const ImageSizes* sizes = sizes_of(new_side);
  if (!sizes) return delta;
  delta.sized = true;
  std::set<std::string> old_refs;
  for (const auto& [repository, refs] : pulled(old_side.context.images))
    old_refs.insert(refs.begin(), refs.end());
  // A registry stores blobs by digest, so a blob any image of OLD has is already mirrored.
  std::set<std::string> have;
  for (const std::string& ref : old_refs) {
    const RegistryImage* image = sizes->find(ref);
    if (!image || !image->ok()) {
      delta.old_unknown.push_back(ref);
      continue;
    }
    for (const Blob& blob : image->blobs)
      have.insert(blob.digest);
  }
  for (const auto& [repository, refs] : pulled(new_side.context.images)) {
    for (const std::string& ref : refs) {
      if (old_refs.contains(ref)) continue;
      delta.images.push_back(ref);
      const RegistryImage* image = sizes->find(ref);
      if (!image || !image->ok()) {
        delta.unknown.push_back(ref);
        continue;
      }
      for (const Blob& blob : image->blobs)
        if (have.insert(blob.digest).second) delta.bytes += blob.bytes;
    }
  }
  return delta;
}

}  // namespace footprint
