#include "cli/registry_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "cli/common.h"
#include "load/docker_config.h"
#include "load/registry.h"
#include "model/units.h"
#include "report/fix/crds_fix.h"
#include "util/strings.h"

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

// What TLS libraries say when the other side answers a TLS handshake in plain HTTP.
bool speaks_plain_http(const std::string& error) {
  return error.find("wrong version number") != std::string::npos ||
         error.find("record layer failure") != std::string::npos ||
         error.find("unknown protocol") != std::string::npos;
}

}  // namespace

void add_registry_options(CLI::App& app, RegistryArgs& args, bool with_pin) {
  args.has_pin = with_pin;
  app.add_flag("--sizes", args.sizes,
               "Ask each image's registry for its size: manifest, config and layers as stored, "
               "read from the manifests without pulling layers");
  if (with_pin) {
    app.add_flag("--pin", args.pin,
                 "Resolve each tag to the digest the registry serves: name:tag@digest lines with "
                 "--format list, pinnedReference in JSON");
  }
  app.add_option("--platform", args.platform,
                 "Which manifest of a multi-platform image to size: os/arch[/variant], or all")
      ->capture_default_str();
  app.add_option("--parallel", args.parallel, "Images to ask registries about at once, 1 to 64")
      ->check(CLI::Range(1, 64).description(""))
      ->type_name("N")
      ->capture_default_str();
  add_repeatable(app, "--insecure-registry", args.insecure,
                 "HOST[:PORT] to reach over plain HTTP, or HTTPS without verifying its "
                 "certificate");
  app.add_option("--ca-file", args.ca_file, "CA certificates (PEM) to verify registries with");
  // curl reads 0 as "no limit"; here a request is always limited, so 0 is refused in words.
  CLI::Validator seconds(
      [](std::string& text) -> std::string {
        double value = 0;
        if (CLI::detail::lexical_cast(text, value) && value > 0) return "";
        return fmt::format(
            "\"{}\" is not a number of seconds above 0: every registry request has a limit "
            "(a large one, such as 600, waits longer)",
            text);
      },
      "SECONDS");
  app.add_option("--registry-timeout", args.timeout_seconds,
                 "Seconds one registry request may take")
      ->check(seconds)
      ->capture_default_str();
  app.add_option("--registry-retries", args.retries,
                 "Retries of a request answered 429 or 5xx, with exponential backoff")
      ->check(CLI::Range(0, 10))
      ->capture_default_str();
}

bool check_registry_options(const RegistryArgs& args) {
  // Options that shape registry requests do nothing when none is made: say so, rather than let a
  // reader think a plain-HTTP registry was reached.
  if (!args.asked()) {
    std::vector<std::string> unused;
    if (!args.insecure.empty()) unused.emplace_back("--insecure-registry");
    if (!args.ca_file.empty()) unused.emplace_back("--ca-file");
    // Name only the options this command has: diff has --sizes but no --pin.
    if (!unused.empty()) {
      print_stderr(
          fmt::format("footprint: warning: {} {} nothing without {}, which {} registries\n",
                      fmt::join(unused, " and "), unused.size() == 1 ? "does" : "do",
                      args.has_pin ? "--sizes or --pin" : "--sizes",
                      args.has_pin ? "are what ask" : "is what asks"));
    }
  }
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
  if (!args.ca_file.empty()) {
    auto text = read_text_file(args.ca_file, uint64_t{16} << 20);
    auto pem =
        text ? read_ca_pem(*text)
             : tl::expected<std::string, std::string>(tl::unexpect, "cannot read: " + text.error());
    if (!pem) {
      print_error(fmt::format("--ca-file {}: {}", args.ca_file, pem.error()));
      return false;
    }
  }
  return true;
}

void add_pull_limit_options(CLI::App& app, PullLimitArgs& args, bool only_with_sizes) {
  app.add_option("--large-image", args.large_image,
                 only_with_sizes ? "With --sizes, report images larger than this (image-very-large)"
                                 : "Report images larger than this (image-very-large)")
      ->capture_default_str();
  app.add_option("--bandwidth", args.bandwidth,
                 "How fast a node pulls images, for the pull-time estimate")
      ->capture_default_str();
}

bool check_pull_options(const PullLimitArgs& limits, const RegistryArgs& registry,
                        ImageSizes& sizes) {
  auto large_bytes = parse_byte_size(limits.large_image);
  auto rate = parse_bandwidth(limits.bandwidth);
  if (!large_bytes || !rate) {
    print_error(fmt::format("{}: {}", large_bytes ? "--bandwidth" : "--large-image",
                            large_bytes ? rate.error() : large_bytes.error()));
    return false;
  }
  sizes.limits = PullLimits{*large_bytes, *rate};
  return check_registry_options(registry);
}

namespace {

// An --insecure-registry that names no image's registry changes nothing: say so. The port is
// part of a registry's name, as in docker's insecure-registries, so 127.0.0.1 does not match
// 127.0.0.1:5000; the warning names the hosts with a port that were probably meant.
void warn_unmatched_insecure(const std::vector<std::string>& insecure,
                             const std::vector<RegistryTarget>& targets) {
  for (const std::string& host : insecure) {
    std::set<std::string> with_port;
    bool matched = false;
    for (const RegistryTarget& t : targets) {
      matched = matched || t.domain == host;
      if (t.domain.starts_with(host + ":")) with_port.insert(t.domain);
    }
    if (matched) continue;
    std::vector<std::string> hosts(with_port.begin(), with_port.end());
    print_stderr(fmt::format(
        "footprint: warning: --insecure-registry {} names no registry of these images{}\n", host,
        hosts.empty() ? std::string(", so it changes nothing")
                      : fmt::format("; the port is part of a registry's name: did you mean "
                                    "--insecure-registry {}?",
                                    joined(hosts, " --insecure-registry "))));
  }
}

}  // namespace

bool query_registries(const RegistryArgs& args, const std::vector<ImageRef>& refs,
                      ImageSizes& sizes) {
  if (!args.asked()) return true;
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
  warn_unmatched_insecure(args.insecure, targets);
  std::vector<RegistryImage> images = inspect_images(targets, options);
  size_t failed = 0;
  std::set<std::string> plain_http;
  for (const RegistryImage& image : images) {
    if (image.ok()) continue;
    ++failed;
    print_stderr(fmt::format("footprint: {}: {}\n", image.target.reference, image.error));
    if (speaks_plain_http(image.error) &&
        !std::count(args.insecure.begin(), args.insecure.end(), image.target.domain)) {
      plain_http.insert(image.target.domain);
    }
  }
  if (failed) {
    print_stderr(fmt::format("footprint: {} of {} could not be read from their registry\n", failed,
                             count_of(images.size(), "image")));
  }
  for (const std::string& host : plain_http) {
    print_hint(fmt::format(
        "{} answered HTTPS with something else: if it serves plain HTTP, add --insecure-registry "
        "{}",
        host, host));
  }
  sizes.sized = args.sizes;
  sizes.pinned = args.pin;
  sizes.platform = args.platform;
  add_registry_results(sizes, std::move(images));
  return true;
}

}  // namespace footprint
