#include "analysis/models/images.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <map>

#include "analysis/check.h"
#include "analysis/context.h"
#include "analysis/models/inventory.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/image_options.h"
#include "model/units.h"
#include "report/fix/relocate.h"
#include "report/report.h"

namespace footprint {

namespace {

namespace fs = std::filesystem;

// Where each input file's rewritten text goes under `output_dir`: the input tree mirrored from
// the deepest folder that holds every input, so kustomize bases and overlays that share file
// names keep apart. A chart's rendered stream is written as CHART.yaml beside where the chart is.
tl::expected<std::vector<std::string>, std::string> mirrored_paths(const LoadedInput& input,
                                                                   const std::string& output_dir) {
  std::vector<fs::path> sources;
  for (size_t f = 0; f < input.files.size(); ++f) {
    const std::string& file = input.files[f];
    if (file == "<stdin>") {
      sources.emplace_back();
      continue;
    }
    std::error_code ec;
    fs::path path = fs::absolute(file, ec).lexically_normal();
    if (!path.has_filename()) path = path.parent_path();
    if (!input.renderer_of(file).empty()) {
      std::string name = path.filename().string();
      for (std::string_view suffix : {".tgz", ".tar.gz"}) {
        if (name.ends_with(suffix)) name.resize(name.size() - suffix.size());
      }
      path = path.parent_path() / (name + ".yaml");
    }
    sources.push_back(std::move(path));
  }
  std::optional<fs::path> base;
  for (const fs::path& source : sources) {
    if (source.empty()) continue;
    fs::path dir = source.parent_path();
    if (!base) {
      base = dir;
      continue;
    }
    fs::path common;
    for (auto a = base->begin(), b = dir.begin(); a != base->end() && b != dir.end() && *a == *b;
         ++a, ++b) {
      common /= *a;
    }
    base = common;
  }
  std::vector<std::string> out;
  std::map<std::string, std::string> taken;
  for (size_t f = 0; f < sources.size(); ++f) {
    fs::path relative =
        sources[f].empty() || !base ? fs::path("stdin.yaml") : sources[f].lexically_relative(*base);
    std::string path = (fs::path(output_dir) / relative).lexically_normal().string();
    auto [it, fresh] = taken.emplace(path, input.files[f]);
    if (!fresh) {
      return tl::unexpected(
          fmt::format("{} and {} would both be written to {}; relocate them "
                      "separately",
                      it->second, input.files[f], path));
    }
    out.push_back(std::move(path));
  }
  return out;
}

int run_relocate(int argc, char** argv) {
  CLI::App app{
      "Rewrite every image reference in the manifests to a private registry, keeping path, tag "
      "and digest, and write the skopeo copy plan that fills that registry. Nothing is written "
      "when anything fails, and no input is ever overwritten.",
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
                 "Write the rewritten files into this directory, mirroring the inputs' folders, "
                 "with copy-images.sh (default: manifests to stdout)");
  std::string plan_path;
  app.add_option("--plan", plan_path,
                 "Write the skopeo copy plan here (default: copy-images.sh in the -o directory)");
  bool include_possible = false;
  app.add_flag(
      "--include-possible", include_possible,
      "Also rewrite strings that only read as images: flags and variables not named as images, "
      "and ConfigMap values without a registry");
  bool force = false;
  app.add_flag("--force", force, "Replace files in the -o directory that exist with other content");
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

  bool plan_named = !plan_path.empty();
  std::vector<OutputFile> files;
  std::string manifests;
  if (output_dir.empty()) {
    for (const std::string& text : result->texts) {
      if (!manifests.empty()) manifests += manifests.ends_with('\n') ? "---\n" : "\n---\n";
      manifests += text;
    }
  } else {
    auto paths = mirrored_paths(bundle->input, output_dir);
    if (!paths) {
      print_error(paths.error());
      return kExitUsage;
    }
    for (size_t f = 0; f < result->texts.size(); ++f)
      files.push_back(OutputFile{(*paths)[f], result->texts[f]});
    if (plan_path.empty()) plan_path = (fs::path(output_dir) / "copy-images.sh").string();
  }
  files.push_back(OutputFile{plan_path, copy_plan_script(result->copies), true});
  std::vector<std::string> inputs = input_paths(bundle_args, *bundle);
  std::map<std::string, std::string> seen;
  for (const OutputFile& file : files) {
    if (!check_output(file.path, inputs)) return kExitUsage;
    std::error_code ec;
    auto [it, fresh] =
        seen.emplace(fs::absolute(file.path, ec).lexically_normal().string(), file.path);
    if (!fresh) {
      print_error(fmt::format("--plan {} is also where a rewritten manifest goes", plan_path));
      return kExitUsage;
    }
  }
  // The files footprint names inside -o DIR; a --plan FILE the user named is theirs to replace.
  std::vector<OutputFile> in_dir(files.begin(), files.end() - (plan_named ? 1 : 0));
  if (!force && !check_not_replacing(in_dir)) return kExitUsage;
  if (!write_files(files)) return kExitUsage;
  if (output_dir.empty() && !write_output(manifests, "", Content::kData)) return kExitUsage;

  print_stderr(fmt::format("footprint: rewrote {} to {}; copy plan: {}\n",
                           count_of(result->rewritten, "reference"),
                           count_of(result->copies.size(), "image"), plan_path));
  if (!result->left_unchanged.empty()) {
    print_stderr(fmt::format(
        "footprint: left {} as {} (--include-possible rewrites {} too):\n",
        result->left_unchanged.size() == 1
            ? std::string("1 string that only reads as an image")
            : fmt::format("{} strings that only read as images", result->left_unchanged.size()),
        result->left_unchanged.size() == 1 ? "it was" : "they were",
        result->left_unchanged.size() == 1 ? "it" : "them"));
    for (const std::string& s : result->left_unchanged)
      print_stderr("  " + s + "\n");
  }
  if (!result->already_on_mirror.empty()) {
    std::fprintf(stderr, "footprint: left %s already on the mirror as %s:\n",
                 count_of(result->already_on_mirror.size(), "reference").c_str(),
                 result->already_on_mirror.size() == 1 ? "it was" : "they were");
    for (const std::string& s : result->already_on_mirror)
      std::fprintf(stderr, "  %s\n", s.c_str());
  }
  if (!result->omitted_secrets.empty()) {
    print_stderr(fmt::format(
        "footprint: left out {}, whose values are never copied; apply them from the original "
        "manifests:\n",
        count_of(result->omitted_secrets.size(), "Secret")));
    for (const std::string& s : result->omitted_secrets)
      print_stderr("  " + s + "\n");
  }
  return kExitOk;
}

constexpr Format kImagesFormats[] = {Format::kText, Format::kJson, Format::kMarkdown,
                                     Format::kList};

}  // namespace

int run_images(int argc, char** argv) {
  if (argc >= 2 && std::string_view(argv[1]) == "relocate") return run_relocate(argc - 1, argv + 1);
  CLI::App app{
      "List every container image and Hugging Face model the manifests need, where each is "
      "used, and whether it is pinned. `footprint images relocate` rewrites them to a mirror "
      "(see `footprint images relocate --help`).",
      "footprint images"};
  ImageListArgs args;
  add_bundle_options(app, args.bundle);
  add_image_list_options(app, args, kImagesFormats, /*only_with_sizes=*/true);
  if (auto code = parse_args(app, argc, argv)) return *code;

  ImageSizes sizes;
  std::optional<Config> config = check_image_list_options(args, sizes);
  if (!config) return kExitUsage;
  std::optional<Bundle> bundle = load_image_bundle(args, {});
  if (!bundle) return kExitUsage;
  Context context(*bundle, Context::ImagesOnly{});
  const ImageInventory& images = context.images;
  std::vector<ImageRef> shown;
  for (const Image& image : images.images) {
    if (image.confidence == Confidence::kPossible && !args.include_possible) continue;
    shown.push_back(image.ref);
  }
  if (!query_registries(args.registry, shown, sizes)) return kExitUsage;

  if (args.format == Format::kList) {
    std::string out;
    std::vector<std::string> unpinned;
    for (const ImageRef& ref : shown) {
      const RegistryImage* answer = sizes.find(ref.normalized());
      bool pin = args.registry.pin && answer != nullptr && answer->ok();
      if (args.registry.pin && !pin && !ref.pinned()) unpinned.push_back(ref.normalized());
      out += (pin ? answer->pinned() : ref.normalized()) + "\n";
    }
    if (!write_output(out, args.output_path, Content::kText)) return kExitUsage;
    std::vector<std::string> invalid;
    for (const ImageUse& use : images.uses) {
      if (!use.ref && (use.confidence != Confidence::kPossible || args.include_possible)) {
        invalid.push_back(fmt::format("{} ({}:{})", use.written,
                                      bundle->file_of(bundle->objects[use.object]),
                                      use.position.line));
      }
    }
    if (!invalid.empty()) {
      print_stderr(fmt::format("footprint: not listed: {} no valid image reference: {}\n",
                               invalid.size() == 1
                                   ? std::string("1 image field holds")
                                   : fmt::format("{} image fields hold", invalid.size()),
                               fmt::join(invalid, ", ")));
    }
    if (!unpinned.empty()) {
      // A mirroring tool reading the list cannot tell these lines apart: fail the command.
      print_error(
          fmt::format("--pin: {} could not be resolved to a digest and {} listed unpinned: {}",
                      count_of(unpinned.size(), "image"), unpinned.size() == 1 ? "is" : "are",
                      fmt::join(unpinned, ", ")));
      return kExitUsage;
    }
    return kExitOk;
  }

  context.image_sizes = args.registry.sizes ? &sizes : nullptr;
  return write_image_report(args, *bundle, context, *config,
                            images_section(*bundle, images, args.include_possible,
                                           args.registry.asked() ? &sizes : nullptr));
}

}  // namespace footprint
