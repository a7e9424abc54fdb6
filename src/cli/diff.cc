// footprint diff OLD NEW: the upgrade review. Each side is loaded and modelled as audit does,
// then analysis/diff compares the models area by area.
#include "analysis/diff/diff.h"

#include <fmt/format.h>

#include "analysis/context.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/deploy_options.h"
#include "cli/registry_options.h"
#include "report/diff_report.h"

namespace footprint {

namespace {

// One side, loaded and modelled; the Context points into the bundle, so both live here.
struct LoadedSide {
  Bundle bundle;
  std::unique_ptr<Context> context;
  AnalysisResult analysis;
};

// Loads and models one side; analyze() runs once the image sizes, if asked, are known.
std::unique_ptr<LoadedSide> load_side(const BundleArgs& args, std::vector<std::string>& inputs) {
  std::vector<RenderedChart> charts;
  std::optional<Bundle> bundle = load_bundle(args, &charts);
  if (!bundle) return nullptr;
  auto side = std::make_unique<LoadedSide>(LoadedSide{std::move(*bundle), nullptr, {}});
  std::vector<std::string> read = input_paths(args, side->bundle);
  inputs.insert(inputs.end(), read.begin(), read.end());
  side->context = std::make_unique<Context>(side->bundle);
  if (charts.size() == 1) side->context->release = charts.front().release;
  return side;
}

bool reaches(const UpgradeDiff& diff, Severity threshold) {
  for (const Change& c : diff.changes)
    if (c.severity >= threshold) return true;
  for (const std::vector<Finding>* findings : {&diff.findings.added, &diff.findings.worse}) {
    for (const Finding& f : *findings)
      if (f.severity >= threshold && !f.suppressed) return true;
  }
  return false;
}

}  // namespace

int run_diff(int argc, char** argv) {
  CLI::App app{
      "Review an upgrade: what installing NEW over OLD changes in effect (CRD upgrade safety, "
      "rights per subject, admission, footprint, images, findings). OLD and NEW are rendered "
      "manifests, directories, charts or Helm release manifests. With --sizes, the registries "
      "say how many bytes the new images add to an air-gapped mirror.",
      "footprint diff"};
  BundleArgs base;
  std::vector<std::string> sides;
  app.add_option("sides", sides, "OLD NEW")->required()->expected(2);
  add_namespace_option(app, "-n,--namespace", base.namespace_, "Release namespace");
  add_chart_options(app, base);
  std::vector<std::string> old_values;
  std::vector<std::string> new_values;
  add_repeatable(app, "--old-values", old_values, "A values file for OLD only (a chart)");
  add_repeatable(app, "--new-values", new_values, "A values file for NEW only (a chart)");
  ComparisonArgs comparison_args;
  add_comparison_options(app, comparison_args, "review");
  DeployArgs deploy;
  add_deploy_options(app, deploy);
  RegistryArgs registry;
  add_registry_options(app, registry, /*with_pin=*/false);
  ColorOption color;
  add_color_option(app, color);
  if (auto code = parse_args(app, argc, argv)) return *code;
  if (!check_registry_options(registry)) return kExitUsage;

  std::optional<Config> config = load_policy(comparison_args.policy);
  if (!config) return kExitUsage;
  base.command = "footprint diff";
  // -f, --set and the other chart options apply to the sides that are charts; --old-values and
  // --new-values to their own side, which must then be one. With no chart at all, loading OLD
  // says that the options apply to none.
  bool any_chart = is_chart(sides[0]) || is_chart(sides[1]);
  auto side_args = [&](const std::string& input, const std::vector<std::string>& own_values,
                       std::string_view option, std::string_view side) {
    std::optional<BundleArgs> args = base;
    args->inputs = {input};
    bool chart = is_chart(input);
    if (!own_values.empty() && !chart) {
      print_error(fmt::format(
          "{} applies to a chart, and {} ({}) is not one (a directory with Chart.yaml, or a .tgz)",
          option, side, input));
      return std::optional<BundleArgs>();
    }
    if (!chart && any_chart) args->chart = ChartOptions{};
    args->chart.values_files.insert(args->chart.values_files.end(), own_values.begin(),
                                    own_values.end());
    return args;
  };
  std::optional<BundleArgs> old_args = side_args(sides[0], old_values, "--old-values", "OLD");
  if (!old_args) return kExitUsage;
  std::optional<BundleArgs> new_args = side_args(sides[1], new_values, "--new-values", "NEW");
  if (!new_args) return kExitUsage;

  std::vector<std::string> inputs = {config_file(comparison_args.policy), registry.ca_file};
  std::unique_ptr<LoadedSide> before = load_side(*old_args, inputs);
  if (!before) return kExitUsage;
  std::unique_ptr<LoadedSide> after = load_side(*new_args, inputs);
  if (!after) return kExitUsage;
  if (!check_output(comparison_args.output_path, inputs)) return kExitUsage;
  // Both sides' images are sized, OLD's too: the blobs they hold are already in a mirror.
  ImageSizes sizes;
  if (!query_registries(registry, pulled_images(*before->context, *after->context), sizes))
    return kExitUsage;
  for (LoadedSide* side : {before.get(), after.get()}) {
    if (registry.sizes) side->context->image_sizes = &sizes;
    side->context->deploy_with = deploy.paths();
    side->analysis = analyze(*side->context, *config);
  }

  UpgradeDiff diff = diff_upgrade({*before->context, before->analysis, before->context->inventory},
                                  {*after->context, after->analysis, after->context->inventory});
  ReportOptions options = text_options(color, comparison_args.output_path);
  std::string out = render_diff(diff, sides[0], sides[1], comparison_args.format, options);
  if (!write_output(out, comparison_args.output_path, content_of(comparison_args.format)))
    return kExitUsage;
  std::optional<Severity> threshold = fail_on_threshold(*config, comparison_args.policy);
  if (threshold && reaches(diff, *threshold)) return kExitFindings;
  return kExitOk;
}

}  // namespace footprint
