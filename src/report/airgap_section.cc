#include <fmt/format.h>

#include "model/units.h"
#include "report/report.h"

namespace footprint {

namespace {

// A digest's first 12 hex digits identify it in a table; JSON keeps all 64.
std::string short_name(const std::string& name) {
  size_t at = name.find('@');
  return at != std::string::npos && name.size() > at + 20 ? name.substr(0, at + 20) + "..." : name;
}

std::string size_text(const AirgapItem& item) {
  if (item.bytes) return human_bytes(*item.bytes);
  return item.item == "subchart" ? "in the chart" : "unknown";
}

}  // namespace

Section airgap_section(const std::vector<AirgapItem>& items, const ImageSizes& sizes) {
  const PullLimits& limits = sizes.limits;
  Section s;
  s.id = "airgap";
  s.title = "Air-gap import list";
  Table table;
  table.header = {"ITEM", "NAME", "SIZE", "NEEDED", "NOTE"};
  table.right_aligned = {false, false, true, false, false};
  Json rows = Json::array();
  size_t unknown = 0;
  size_t unknown_images = 0;
  size_t needed = 0;
  for (const AirgapItem& item : items) {
    if (!item.bytes && item.item != "subchart") ++unknown;
    if (!item.bytes && item.item == "image") ++unknown_images;
    if (item.needed) ++needed;
    table.rows.push_back(
        {item.item, short_name(item.name), size_text(item), item.needed ? "yes" : "no", item.note});
    Json j = {{"item", item.item},
              {"name", item.name},
              {"bytes", item.bytes ? Json(*item.bytes) : Json(nullptr)},
              {"needed", item.needed},
              {"note", item.note},
              {"source", item.source}};
    if (item.item == "image") {
      Json registry = Json::object();
      add_registry_json(registry, sizes, item.name);
      registry.erase("bytes");  // the row's own
      for (auto& [key, value] : registry.items())
        j[key] = value;
    }
    rows.push_back(std::move(j));
  }
  Block list;
  list.lines.push_back(
      fmt::format("{} to bring in, {} of them needed.", count_of(items.size(), "item"), needed));
  if (!table.rows.empty()) list.table = std::move(table);
  s.blocks.push_back(std::move(list));
  for (Block& b : registry_blocks(sizes))
    s.blocks.push_back(std::move(b));
  if (unknown) {
    s.blocks.push_back(Block{});
    if (unknown_images) {
      s.blocks.back().lines.push_back(
          fmt::format("{} unknown: {}.",
                      unknown_images == 1 ? "1 image size is"
                                          : fmt::format("{} image sizes are", unknown_images),
                      sizes.sized ? "their registry could not be read (see above)"
                                  : "image sizes come from the registries with --sizes"));
    }
    if (unknown > unknown_images) {
      s.blocks.back().lines.push_back(
          fmt::format("{} unknown: footprint does not ask the Hugging Face Hub.",
                      unknown - unknown_images == 1
                          ? "1 model size is"
                          : fmt::format("{} model sizes are", unknown - unknown_images)));
    }
    s.blocks.back().lines.push_back(fmt::format(
        "Once sizes are known, image-very-large reports images over {} and how long a node takes "
        "to pull them at {}.",
        format_limit(limits.large_bytes), format_rate(limits.bytes_per_second)));
  }
  s.json = {{"items", rows},
            {"largeImageBytes", limits.large_bytes},
            {"bandwidthBytesPerSecond", limits.bytes_per_second}};
  if (sizes.sized) {
    s.json["platform"] = sizes.platform;
    s.json["totalBytes"] = total_bytes_json(sizes);
  }
  return s;
}

}  // namespace footprint
