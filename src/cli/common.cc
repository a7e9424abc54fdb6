#include "cli/common.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace footprint {

namespace {
constexpr size_t kMaxErrorsShown = 20;
}

std::optional<int> parse_args(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  return std::nullopt;
}

void print_error(const std::string& message) {
  std::fprintf(stderr, "footprint: error: %s\n", message.c_str());
}

void print_load_errors(const std::vector<LoadError>& errors) {
  for (size_t i = 0; i < errors.size() && i < kMaxErrorsShown; ++i) {
    print_error(errors[i].to_string());
  }
  if (errors.size() > kMaxErrorsShown) {
    print_error(fmt::format("... and {} more errors", errors.size() - kMaxErrorsShown));
  }
}

void add_bundle_options(CLI::App& app, BundleArgs& args, const std::string& release_flag) {
  app.add_option("inputs", args.inputs,
                 "Manifest files, directories (searched for *.yaml, *.yml, *.json) or - for stdin")
      ->required();
  app.add_option(release_flag, args.namespace_,
                 "Release namespace: where objects without a namespace land")
      ->capture_default_str();
  app.add_option("--jobs", args.jobs, "Parser threads (default: one per core)");
}

std::optional<Bundle> load_bundle(const BundleArgs& args) {
  LoadOptions options;
  options.jobs = args.jobs;
  auto loaded = load_inputs(args.inputs, options);
  if (!loaded) {
    print_load_errors(loaded.error());
    return std::nullopt;
  }
  return build_bundle(std::move(*loaded), BundleOptions{args.namespace_});
}

void add_color_option(CLI::App& app, ColorMode& mode) {
  static const std::map<std::string, ColorMode> kModes = {
      {"auto", ColorMode::kAuto}, {"always", ColorMode::kAlways}, {"never", ColorMode::kNever}};
  app.add_option("--color", mode, "Colour text output: auto, always or never")
      ->transform(CLI::CheckedTransformer(kModes, CLI::ignore_case));
}

bool use_color(ColorMode mode, const std::string& output_path) {
  if (mode == ColorMode::kAlways) return true;
  if (mode == ColorMode::kNever) return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  bool to_stdout = output_path.empty() || output_path == "-";
  return to_stdout && isatty(STDOUT_FILENO);
}

bool write_output(const std::string& text, const std::string& path) {
  if (path.empty() || path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (std::fflush(stdout) != 0) {
      print_error("cannot write to standard output");
      return false;
    }
    return true;
  }
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) {
    print_error(fmt::format("cannot write {}", path));
    return false;
  }
  return true;
}

}  // namespace footprint
