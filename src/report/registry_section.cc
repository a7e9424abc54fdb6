// Registry results shared by the images and airgap sections.
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "model/units.h"
#include "report/report.h"

namespace footprint {

void add_registry_json(Json& j, const ImageSizes& sizes, const std::string& reference) {
  const RegistryImage* image = sizes.find(reference);
  if (image == nullptr) return;
  if (!image->ok()) {
    j["registryError"] = image->error;
    return;
  }
  j["manifestDigest"] = image->digest;
  j["mediaType"] = image->media_type;
  if (sizes.pinned) j["pinnedReference"] = image->pinned();
  if (!sizes.sized) return;
  j["bytes"] = image->bytes;
  Json platforms = Json::array();
  for (const PlatformManifest& p : image->platforms) {
    platforms.push_back({{"platform", p.platform.empty() ? Json(nullptr) : Json(p.platform)},
                         {"digest", p.digest},
                         {"mediaType", p.media_type},
                         {"bytes", p.bytes}});
  }
  j["platforms"] = platforms;
}

Json total_bytes_json(const ImageSizes& sizes) {
  bool any_read = std::any_of(sizes.registry.begin(), sizes.registry.end(),
                              [](const auto& entry) { return entry.second.ok(); });
  return any_read ? Json(sizes.total_bytes) : Json(nullptr);
}

std::vector<Block> registry_blocks(const ImageSizes& sizes) {
  std::vector<Block> out;
  if (sizes.registry.empty()) return out;
  size_t read = 0;
  for (const auto& [reference, image] : sizes.registry) {
    if (image.ok()) ++read;
  }
  Block summary;
  if (sizes.sized) {
    std::string platform = sizes.platform == "all" ? "every platform" : sizes.platform;
    size_t total = sizes.registry.size();
    if (read == 0) {
      // Nothing read is no size: "0 bytes" would read as nothing to bring in.
      summary.lines.push_back(fmt::format(
          "Sizes from the registries, for {}: {} could be read, so the size to transfer is "
          "unknown.",
          platform, total == 1 ? "the image" : fmt::format("none of the {} images", total)));
    } else {
      summary.lines.push_back(fmt::format(
          "Sizes from the registries, for {}: {} of {} read; {}{} to transfer in total "
          "(manifests, configs and compressed layers, each blob counted once across images){}.",
          platform, read, count_of(total, "image"), read < total ? "at least " : "",
          format_bytes(sizes.total_bytes),
          read < total ? fmt::format(", plus the unknown size of the {} unread", total - read)
                       : ""));
    }
  } else {
    summary.lines.push_back(fmt::format("Digests from the registries: {} of {} read.", read,
                                        count_of(sizes.registry.size(), "image")));
  }
  out.push_back(std::move(summary));
  if (sizes.pinned && read > 0) {
    // Whole references are longer than a text line: they are in JSON and in list output.
    out.back().lines.emplace_back(
        "Tags are resolved to the digests the registries serve now: `footprint images --pin "
        "--format list` prints the pinned references (name:tag@digest) one per line, and JSON "
        "has them as pinnedReference.");
  }
  if (read < sizes.registry.size()) {
    Block errors;
    errors.lines.emplace_back("These images could not be read from their registry:");
    Table table;
    table.header = {"IMAGE", "ERROR"};
    for (const auto& [reference, image] : sizes.registry) {
      if (!image.ok()) table.rows.push_back({reference, image.error});
    }
    errors.table = std::move(table);
    out.push_back(std::move(errors));
  }
  return out;
}

}  // namespace footprint
