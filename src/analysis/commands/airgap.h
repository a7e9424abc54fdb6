// The air-gap import list: every image, chart and model to bring into a closed network, with its
// size when known and whether it is needed, like the hand-made table in the seed's field report.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/models/images.h"
#include "load/chart_archive.h"
#include "model/object.h"

namespace footprint {

struct AirgapItem {
  std::string item;  // "image", "chart", "subchart" or "model"
  std::string name;  // normalised reference, archive name, "nats 1.0.0", "org/name@rev"
  std::optional<uint64_t> bytes;  // unknown until a registry or hub reports it
  bool needed = true;
  std::string note;    // why it is not needed, or where it is used
  std::string source;  // "manifests", "Chart.yaml", "--extra-images", "--chart"
};

struct ExtraImage {
  std::string text;
  std::string origin;  // "file:line"
};

struct AirgapInputs {
  const ChartArchive* chart = nullptr;
  std::vector<ExtraImage> extra_images;
  const ImageSizes* sizes = nullptr;
  bool include_possible = false;
};

std::vector<AirgapItem> airgap_items(const Bundle& bundle, const ImageInventory& images,
                                     const AirgapInputs& inputs);

// One reference per line; blank lines and # comments are skipped. Errors carry file:line:col.
tl::expected<std::vector<ExtraImage>, std::string> parse_extra_images(const std::string& file,
                                                                      std::string_view text);

}  // namespace footprint
