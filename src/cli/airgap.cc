#include "analysis/commands/airgap.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/check.h"
#include "analysis/context.h"
#include "analysis/models/images.h"
#include "analysis/models/inventory.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/image_options.h"
#include "load/chart_archive.h"
#include "report/report.h"

namespace footprint {

namespace fs = std::filesystem;

int run_airgap(int argc, char** argv) {
  CLI::App app{
      "The air-gap import list: every image, chart and model to bring into a closed network, "
      "with sizes where known and whether each is needed.",
      "footprint airgap"};
  ImageListArgs args;
  add_bundle_options(app, args.bundle);
  std::string chart_path;
  app.add_option("--chart", chart_path,
                 "The packaged chart (helm package output): its size, and images and switched-off "
                 "subcharts from its Chart.yaml and values.yaml");
  std::string extra_path;
  app.add_option("--extra-images", extra_path,
                 "A file of further image references, one per line, e.g. images an operator "
                 "starts at run time");
  add_image_list_options(app, args, kTextJsonMarkdown, /*only_with_sizes=*/false);
  if (auto code = parse_args(app, argc, argv)) return *code;

  ImageSizes sizes;
  std::optional<Config> config = check_image_list_options(args, sizes);
  if (!config) return kExitUsage;
  AirgapInputs inputs;
  std::optional<ChartArchive> chart;
  if (!chart_path.empty()) {
    auto read = read_chart_archive(chart_path);
    if (!read) {
      print_error(read.error());
      std::error_code ec;
      if (fs::is_directory(chart_path, ec)) {
        print_hint(fmt::format(
            "--chart takes the packaged chart that is carried into the closed network, not its "
            "folder: `helm package {}` writes NAME-VERSION.tgz; the folder itself goes among "
            "the inputs",
            chart_path));
      }
      return kExitUsage;
    }
    chart = std::move(*read);
    inputs.chart = &*chart;
  }
  if (!extra_path.empty()) {
    auto text = read_text_file(extra_path, uint64_t{64} << 20);
    if (!text) {
      print_error(fmt::format("--extra-images {}: cannot read: {}", extra_path, text.error()));
      return kExitUsage;
    }
    auto extra = parse_extra_images(extra_path, *text);
    if (!extra) {
      print_error(extra.error());
      return kExitUsage;
    }
    inputs.extra_images = std::move(*extra);
  }
  std::optional<Bundle> bundle = load_image_bundle(args, {chart_path, extra_path});
  if (!bundle) return kExitUsage;
  Context context(*bundle, Context::ImagesOnly{});
  const ImageInventory& images = context.images;
  inputs.sizes = &sizes;
  inputs.include_possible = args.include_possible;
  if (args.registry.asked()) {
    // Every image row of the list: from the manifests, Chart.yaml and --extra-images.
    std::vector<ImageRef> refs;
    for (const AirgapItem& item : airgap_items(*bundle, images, inputs)) {
      if (item.item != "image") continue;
      if (auto ref = parse_image_ref(item.name)) refs.push_back(std::move(*ref));
    }
    if (!query_registries(args.registry, refs, sizes)) return kExitUsage;
  }

  context.image_sizes = &sizes;
  return write_image_report(args, *bundle, context, *config,
                            airgap_section(airgap_items(*bundle, images, inputs), sizes));
}

}  // namespace footprint
