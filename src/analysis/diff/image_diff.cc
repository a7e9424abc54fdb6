// Image deltas: images added, removed and retagged (same repository, another tag or digest),
// over the images each side needs (Context::images, certain and likely references).
#include <fmt/format.h>

#include <map>
#include <set>

#include "analysis/context.h"
#include "analysis/diff/diff.h"
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

}  // namespace

void diff_images(const DiffSide& old_side, const DiffSide& new_side, std::vector<Change>& out) {
  auto before = pulled(old_side.context.images);
  auto after = pulled(new_side.context.images);
  auto change = [&](std::string subject, std::string what, std::string consequence) {
    Change c;
    c.area = "images";
    c.subject = std::move(subject);
    c.change = std::move(what);
    c.consequence = std::move(consequence);
    out.push_back(std::move(c));
  };
  for (const auto& [repository, refs] : after) {
    auto it = before.find(repository);
    std::vector<std::string> now(refs.begin(), refs.end());
    if (it == before.end()) {
      change(repository, "added: " + joined(now),
             "A new image to pull (and to import into an air-gapped registry).");
    } else if (it->second != refs) {
      std::vector<std::string> was(it->second.begin(), it->second.end());
      change(repository, fmt::format("{} -> {}", joined(was), joined(now)),
             "Retagged: nodes pull the new reference on rollout.");
    }
  }
  for (const auto& [repository, refs] : before) {
    if (after.contains(repository)) continue;
    std::vector<std::string> was(refs.begin(), refs.end());
    change(repository, "removed: " + joined(was), "No longer pulled.");
  }
}

}  // namespace footprint
