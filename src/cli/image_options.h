// What images and airgap share: --format, --include-possible, the registry options, --large-image
// and --bandwidth, the policy options, -o and --color; loading their input, and their report.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/context.h"
#include "cli/common.h"
#include "cli/registry_options.h"

namespace footprint {

struct ImageListArgs {
  BundleArgs bundle;
  Format format = Format::kText;
  bool include_possible = false;
  RegistryArgs registry;
  PullLimitArgs limits;
  PolicyArgs policy;
  std::string output_path;
  ColorOption color;
};
// Adds every option but the bundle's, in that order; `only_with_sizes` as for
// add_pull_limit_options.
void add_image_list_options(CLI::App& app, ImageListArgs& args, std::span<const Format> formats,
                            bool only_with_sizes);
// Reads the pull limits into `sizes`, checks the registry options and loads the policy; prints the
// error and returns nullopt when one is unusable.
std::optional<Config> check_image_list_options(const ImageListArgs& args, ImageSizes& sizes);
// Loads the bundle, refusing an output that would overwrite an input or one of `also_read`.
std::optional<Bundle> load_image_bundle(const ImageListArgs& args,
                                        const std::vector<std::string>& also_read);
// Writes the findings of the airgap area with `section`, and returns the exit code.
int write_image_report(const ImageListArgs& args, const Bundle& bundle, const Context& context,
                       const Config& config, Section section);

}  // namespace footprint
