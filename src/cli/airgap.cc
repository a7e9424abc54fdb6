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
#include "cli/registry_options.h"
#include "load/chart_archive.h"
#include "model/units.h"
#include "report/report.h"

namespace footprint {

namespace fs = std::filesystem;

int run_airgap(int argc, char** argv) {
  CLI::App app{
      "The air-gap import list: every image, chart and model to bring into a closed network, "
      "with sizes where known and whether each is needed.",
      "footprint airgap"};
  BundleArgs bundle_args;
  add_bundle_options(app, bundle_args);
  std::string chart_path;
  app.add_option("--chart", chart_path,
                 "The packaged chart (helm package output): its size, and images and switched-off "
                 "subcharts from its Chart.yaml and values.yaml");
  std::string extra_path;
  app.add_option("--extra-images", extra_path,
                 "A file of further image references, one per line, e.g. images an operator "
                 "starts at run time");
  std::string large = "2GiB";
  app.add_option("--large-image", large, "Report images larger than this (image-very-large)")
      ->capture_default_str();
  std::string bandwidth = "15MB/s";
  app.add_option("--bandwidth", bandwidth,
                 "How fast a node pulls images, for the pull-time estimate")
      ->capture_default_str();
  bool include_possible = false;
  app.add_flag("--include-possible", include_possible,
               "Also list strings that only look like images");
  RegistryArgs registry;
  add_registry_options(app, registry);
  std::string format_name = "text";
  app.add_option("--format", format_name, "Output format: text, json or markdown")
      ->check(CLI::IsMember({"text", "json", "markdown", "md"}))
      ->capture_default_str();
  PolicyArgs policy;
  add_policy_options(app, policy);
  std::string output_path;
  app.add_option("-o,--output", output_path, "Write to this file");
  ColorOption color;
  add_color_option(app, color);
  if (auto code = parse_args(app, argc, argv)) return *code;

  ImageSizes sizes;
  auto large_bytes = parse_byte_size(large);
  auto rate = parse_bandwidth(bandwidth);
  if (!large_bytes || !rate) {
    print_error(fmt::format("{}: {}", large_bytes ? "--bandwidth" : "--large-image",
                            large_bytes ? rate.error() : large_bytes.error()));
    return kExitUsage;
  }
  sizes.limits = PullLimits{*large_bytes, *rate};
  if (!check_registry_options(registry)) return kExitUsage;

  std::optional<Config> config = load_policy(policy);
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
  std::optional<Bundle> bundle = load_bundle(bundle_args);
  if (!bundle) return kExitUsage;
  std::vector<std::string> read = input_paths(bundle_args, *bundle);
  read.insert(read.end(), {config_file(policy), registry.ca_file, chart_path, extra_path});
  if (!check_output(output_path, read)) return kExitUsage;
  Context context(*bundle, Context::ImagesOnly{});
  const ImageInventory& images = context.images;
  inputs.sizes = &sizes;
  inputs.include_possible = include_possible;
  if (registry.asked()) {
    // Every image row of the list: from the manifests, Chart.yaml and --extra-images.
    std::vector<ImageRef> refs;
    for (const AirgapItem& item : airgap_items(*bundle, images, inputs)) {
      if (item.item != "image") continue;
      if (auto ref = parse_image_ref(item.name)) refs.push_back(std::move(*ref));
    }
    if (!query_registries(registry, refs, sizes)) return kExitUsage;
  }

  Report report;
  report.bundle = &*bundle;
  report.inventory = take_inventory(*bundle);
  report.show_inventory = false;
  context.image_sizes = &sizes;
  report.analysis = analyze(context, *config, Area::kAirgap);
  report.sections.push_back(airgap_section(airgap_items(*bundle, images, inputs), sizes));
  ReportOptions options = text_options(color, output_path);
  if (!write_output(render_report(report, checked_format(format_name), options), output_path,
                    content_of(format_name))) {
    return kExitUsage;
  }
  return reaches_fail_on(report.analysis, *config, policy) ? kExitFindings : kExitOk;
}

}  // namespace footprint
