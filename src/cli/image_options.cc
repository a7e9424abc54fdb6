#include "cli/image_options.h"

#include "analysis/check.h"
#include "analysis/models/inventory.h"
#include "report/report.h"

namespace footprint {

void add_image_list_options(CLI::App& app, ImageListArgs& args, std::span<const Format> formats,
                            bool only_with_sizes) {
  add_format_option(app, args.format, formats);
  app.add_flag("--include-possible", args.include_possible,
               "Also list strings that only look like images");
  add_registry_options(app, args.registry);
  add_pull_limit_options(app, args.limits, only_with_sizes);
  add_policy_options(app, args.policy);
  app.add_option("-o,--output", args.output_path, "Write to this file");
  add_color_option(app, args.color);
}

std::optional<Config> check_image_list_options(const ImageListArgs& args, ImageSizes& sizes) {
  if (!check_pull_options(args.limits, args.registry, sizes)) return std::nullopt;
  return load_policy(args.policy);
}

std::optional<Bundle> load_image_bundle(const ImageListArgs& args,
                                        const std::vector<std::string>& also_read) {
  std::optional<Bundle> bundle = load_bundle(args.bundle);
  if (!bundle) return std::nullopt;
  std::vector<std::string> read = input_paths(args.bundle, *bundle);
  read.insert(read.end(), {config_file(args.policy), args.registry.ca_file});
  read.insert(read.end(), also_read.begin(), also_read.end());
  if (!check_output(args.output_path, read)) return std::nullopt;
  return bundle;
}

int write_image_report(const ImageListArgs& args, const Bundle& bundle, const Context& context,
                       const Config& config, Section section) {
  Report report;
  report.bundle = &bundle;
  report.inventory = take_inventory(bundle);
  report.show_inventory = false;
  report.analysis = analyze(context, config, Area::kAirgap);
  report.sections.push_back(std::move(section));
  ReportOptions options = text_options(args.color, args.output_path);
  if (!write_output(render_report(report, args.format, options), args.output_path,
                    content_of(args.format))) {
    return kExitUsage;
  }
  return reaches_fail_on(report.analysis, config, args.policy) ? kExitFindings : kExitOk;
}

}  // namespace footprint
