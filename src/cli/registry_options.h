// The registry flags `images`, `airgap` and `diff` (no --pin) share: --sizes, --pin, --platform,
// --parallel, --insecure-registry, --ca-file, --registry-timeout, --registry-retries.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "analysis/models/images.h"

namespace footprint {

struct RegistryArgs {
  bool sizes = false;
  bool pin = false;
  bool has_pin = true;  // whether the command offers --pin (set by add_registry_options)
  std::string platform = "linux/amd64";
  unsigned parallel = 4;
  std::vector<std::string> insecure;
  std::string ca_file;
  double timeout_seconds = 60;
  int retries = 3;
  bool asked() const { return sizes || pin; }
};

// `with_pin` adds --pin, for the commands that print references (diff only sizes).
void add_registry_options(CLI::App& app, RegistryArgs& args, bool with_pin = true);

// Checks --platform, --insecure-registry and that --ca-file holds PEM certificates; prints an
// error and returns false when one is unusable.
bool check_registry_options(const RegistryArgs& args);

// --large-image and --bandwidth: when an image counts as very large, and how fast nodes pull.
struct PullLimitArgs {
  std::string large_image = "2GiB";
  std::string bandwidth = "15MB/s";
};
// `only_with_sizes`: the command knows sizes only from --sizes, which --large-image's help says.
void add_pull_limit_options(CLI::App& app, PullLimitArgs& args, bool only_with_sizes);
// Reads the limits into `sizes` and checks the registry options; prints an error and returns
// false when one is unusable.
bool check_pull_options(const PullLimitArgs& limits, const RegistryArgs& registry,
                        ImageSizes& sizes);

// Asks the registries about `refs` (when --sizes or --pin was given) and records the answers in
// `sizes`. An image that cannot be read is named on stderr and does not stop the others.
// Returns false after printing an error when the credential files are unusable.
bool query_registries(const RegistryArgs& args, const std::vector<ImageRef>& refs,
                      ImageSizes& sizes);

}  // namespace footprint
