#include "analysis/images.h"

#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "analysis/check.h"
#include "analysis/inventory.h"
#include "analysis/relocate.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/registry_options.h"
#include "report/report.h"

namespace footprint {

namespace {

int run_relocate(int argc, char** argv) {
  CLI::App app{
      "Rewrite every image reference in the manifests to a private registry, keeping path, tag "
      "and digest, and write the skopeo copy plan that fills that registry.",
      "footprint images relocate"};
  BundleArgs bundle_args;
  bundle_args.keep_texts = true;
  add_bundle_options(app, bundle_args);
  std::string registry_text;
  app.add_option("--registry", registry_text,
                 "The mirror: a host with a '.' or a port, or localhost, and an optional path "
                 "prefix, e.g. mirror.internal:5000/team")
      ->required();
  std::string output_dir;
  app.add_option("-o,--output", output_dir,
                 "Write each rewritten file and copy-images.sh into this directory (default: "
                 "manifests to stdout)");
  std::string plan_path;
  app.add_option("--plan", plan_path,
                 "Write the skopeo copy plan here (default: copy-images.sh in the -o directory)");
  bool include_possible = false;
  app.add_flag("--include-possible", include_possible,
               "Also rewrite strings that only look like images");
  if (auto code = parse_args(app, argc, argv)) return *code;

  auto registry = parse_registry_prefix(registry_text);
  if (!registry) {
    print_error(fmt::format("--registry: {}", registry.error()));
    return kExitUsage;
  }
  if (output_dir.empty() && plan_path.empty()) {
    print_error("give --plan FILE, or -o DIR, for the skopeo copy plan");
    return kExitUsage;
  }
  std::optional<Bundle> bundle = load_bundle(bundle_args);
  if (!bundle) return kExitUsage;
  ImageInventory images = discover_images(*bundle);
  auto result = relocate(*bundle, images, RelocateOptions{*registry, include_possible});
  if (!result) {
    print_error(result.error());
    return kExitUsage;
  }

  namespace fs = std::filesystem;
  if (output_dir.empty()) {
    std::string all;
    for (const std::string& text : result->texts) {
      if (!all.empty()) all += all.ends_with('\n') ? "---\n" : "\n---\n";
      all += text;
    }
    if (!write_output(all, "")) return kExitUsage;
  } else {
    std::error_code ec;
    fs::create_directories(output_dir, ec);
    if (ec) {
      print_error(fmt::format("cannot create {}: {}", output_dir, ec.message()));
      return kExitUsage;
    }
    std::set<std::string> names;
    for (size_t f = 0; f < result->texts.size(); ++f) {
      std::string name = bundle->input.files[f] == "<stdin>"
                             ? "stdin.yaml"
                             : fs::path(bundle->input.files[f]).filename().string();
      if (!names.insert(name).second) {
        print_error(fmt::format("two inputs are named {}; relocate them separately", name));
        return kExitUsage;
      }
      if (!write_output(result->texts[f], (fs::path(output_dir) / name).string()))
        return kExitUsage;
    }
    if (plan_path.empty()) plan_path = (fs::path(output_dir) / "copy-images.sh").string();
  }
  if (!write_output(copy_plan_script(result->copies), plan_path)) return kExitUsage;
  std::error_code ec;
  fs::permissions(plan_path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add, ec);

  std::fprintf(stderr, "footprint: rewrote %zu reference(s) to %zu image(s); copy plan: %s\n",
               result->rewritten, result->copies.size(), plan_path.c_str());
  if (result->skipped_possible) {
    std::fprintf(stderr,
                 "footprint: left %zu string(s) that only look like images as they were "
                 "(--include-possible rewrites them)\n",
                 result->skipped_possible);
  }
  if (!result->omitted_secrets.empty()) {
    std::fprintf(stderr,
                 "footprint: left out %zu Secret(s), whose values are never copied; apply them "
                 "from the original manifests:\n",
                 result->omitted_secrets.size());
    for (const std::string& s : result->omitted_secrets)
      std::fprintf(stderr, "  %s\n", s.c_str());
  }
  return kExitOk;
}

}  // namespace

int run_images(int argc, char** argv) {
  if (argc >= 2 && std::string_view(argv[1]) == "relocate") return run_relocate(argc - 1, argv + 1);
  CLI::App app{
      "List every container image and Hugging Face model the manifests need, where each is "
      "used, and whether it is pinned. `footprint images relocate --help` rewrites them to a "
      "mirror.",
      "footprint images"};
  BundleArgs bundle_args;
  add_bundle_options(app, bundle_args);
  std::string format_name = "text";
  app.add_option("--format", format_name,
                 "Output format: text, json, markdown, or list (one reference per line, for "
                 "mirroring tools)")
      ->check(CLI::IsMember({"text", "json", "markdown", "md", "list"}))
      ->capture_default_str();
  bool include_possible = false;
  app.add_flag("--include-possible", include_possible,
               "Also list strings that only look like images");
  RegistryArgs registry;
  add_registry_options(app, registry);
  std::string large = "2GiB";
  app.add_option("--large-image", large,
                 "With --sizes, report images larger than this (image-very-large)")
      ->capture_default_str();
  std::string bandwidth = "15MB/s";
  app.add_option("--bandwidth", bandwidth,
                 "How fast a node pulls images, for the pull-time estimate")
      ->capture_default_str();
  PolicyArgs policy;
  add_policy_options(app, policy);
  std::string output_path;
  app.add_option("-o,--output", output_path, "Write to this file");
  ColorMode color = ColorMode::kAuto;
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
  std::optional<Config> config = load_policy(policy);
  if (!config) return kExitUsage;
  std::optional<Bundle> bundle = load_bundle(bundle_args);
  if (!bundle) return kExitUsage;
  Context context(*bundle, Context::ImagesOnly{});
  const ImageInventory& images = context.images;
  std::vector<ImageRef> shown;
  for (const Image& image : images.images) {
    if (image.confidence == Confidence::kPossible && !include_possible) continue;
    shown.push_back(image.ref);
  }
  if (!query_registries(registry, shown, sizes)) return kExitUsage;

  if (format_name == "list") {
    std::string out;
    for (const ImageRef& ref : shown) {
      const RegistryImage* answer = sizes.find(ref.normalized());
      bool pin = registry.pin && answer != nullptr && answer->ok();
      out += (pin ? answer->pinned() : ref.normalized()) + "\n";
    }
    return write_output(out, output_path) ? kExitOk : kExitUsage;
  }

  Report report;
  report.bundle = &*bundle;
  report.inventory = take_inventory(*bundle);
  report.show_inventory = false;
  context.image_sizes = registry.sizes ? &sizes : nullptr;
  report.analysis = analyze(context, *config, "airgap");
  report.sections.push_back(
      images_section(*bundle, images, include_possible, registry.asked() ? &sizes : nullptr));
  ReportOptions options;
  options.color = use_color(color, output_path);
  if (!write_output(render_report(report, *parse_format(format_name), options), output_path)) {
    return kExitUsage;
  }
  return reaches_fail_on(report.analysis, *config, policy) ? kExitFindings : kExitOk;
}

}  // namespace footprint
