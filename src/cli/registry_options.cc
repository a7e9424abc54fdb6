#include "cli/registry_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "cli/common.h"
#include "load/docker_config.h"
#include "load/registry.h"

namespace footprint {

namespace {

// "os/arch" or "os/arch/variant", lower case.
bool valid_platform(const std::string& text) {
  if (text == "all") return true;
  size_t parts = 1 + std::count(text.begin(), text.end(), '/');
  if (parts < 2 || parts > 3 || text.front() == '/' || text.back() == '/' ||
      text.find("//") != std::string::npos) {
    return false;
  }
  return std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' || c == '_' || c == '.';
  });
}

}  // namespace

void add_registry_options(CLI::App& app, RegistryArgs& args) {
  app.add_flag("--sizes", args.sizes,
               "Ask each image's registry for its size: manifest, config and layers as stored, "
               "read from the manifests without pulling layers");
  app.add_flag("--pin", args.pin,
               "Resolve each tag to the digest the registry serves: name:tag@digest lines with "
               "--format list, pinnedReference in JSON");
  app.add_option("--platform", args.platform,
                 "Which manifest of a multi-platform image to size: os/arch[/variant], or all")
      ->capture_default_str();
  app.add_option("--parallel", args.parallel, "Images to ask registries about at once")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_option("--insecure-registry", args.insecure,
                 "HOST[:PORT] to reach over plain HTTP, or HTTPS without verifying its "
                 "certificate (repeatable)");
  app.add_option("--ca-file", args.ca_file, "CA certificates (PEM) to verify registries with")
      ->check(CLI::ExistingFile);
  app.add_option("--registry-timeout", args.timeout_seconds,
                 "Seconds one registry request may take")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--registry-retries", args.retries,
                 "Retries of a request answered 429 or 5xx, with exponential backoff")
      ->check(CLI::Range(0, 10))
      ->capture_default_str();
}

bool query_registries(const RegistryArgs& args, const std::vector<ImageRef>& refs,
                      ImageSizes& sizes) {
  if (!args.asked()) return true;
  if (!valid_platform(args.platform)) {
    print_error(fmt::format("--platform: \"{}\" is not os/arch[/variant] or all", args.platform));
    return false;
  }
  for (const std::string& host : args.insecure) {
    if (host.empty() || host.find_first_of("/@ ") != std::string::npos) {
      print_error(fmt::format("--insecure-registry: \"{}\" is not HOST[:PORT]", host));
      return false;
    }
  }
  auto credentials = load_credentials();
  if (!credentials) {
    print_error(credentials.error());
    return false;
  }
  RegistryOptions options;
  options.platform = args.platform;
  options.insecure = args.insecure;
  options.ca_file = args.ca_file;
  options.parallel = args.parallel;
  options.timeout_ms = static_cast<long>(args.timeout_seconds * 1000);
  options.connect_timeout_ms = std::min<long>(options.timeout_ms, 10'000);
  options.retries = args.retries;
  options.sizes = args.sizes;
  options.credentials = std::move(*credentials);

  std::vector<RegistryTarget> targets;
  std::set<std::string> seen;
  for (const ImageRef& ref : refs) {
    if (seen.insert(ref.normalized()).second) targets.push_back(registry_target(ref));
  }
  std::vector<RegistryImage> images = inspect_images(targets, options);
  size_t failed = 0;
  for (const RegistryImage& image : images) {
    if (image.ok()) continue;
    ++failed;
    std::fprintf(stderr, "footprint: %s: %s\n", image.target.reference.c_str(),
                 image.error.c_str());
  }
  if (failed) {
    std::fprintf(stderr, "footprint: %zu of %zu image(s) could not be read from their registry\n",
                 failed, images.size());
  }
  sizes.sized = args.sizes;
  sizes.pinned = args.pin;
  sizes.platform = args.platform;
  add_registry_results(sizes, std::move(images));
  return true;
}

}  // namespace footprint
