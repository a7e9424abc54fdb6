#include "cli/common.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "analysis/check.h"

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
  app.add_option("--jobs", args.jobs, "Threads (default: one per core)");
  add_chart_options(app, args);
}

void add_chart_options(CLI::App& app, BundleArgs& args) {
  app.add_option("-f,--values", args.chart.values_files,
                 "Chart inputs: a values file (repeatable)");
  app.add_option("--set", args.chart.set, "Chart inputs: set a value, key=value (repeatable)");
  app.add_option("--set-string", args.chart.set_string,
                 "Chart inputs: set a string value, key=value (repeatable)");
  app.add_option("--release", args.chart.release, "Chart inputs: the release name");
  app.add_option("--api-versions", args.chart.api_versions,
                 "Chart inputs: an API version the cluster serves, for .Capabilities (repeatable)");
  app.add_option("--kube-version", args.chart.kube_version,
                 "Chart inputs: the Kubernetes version for .Capabilities");
}

std::optional<Bundle> load_bundle(const BundleArgs& args, std::vector<RenderedChart>* charts,
                                  std::string* errors) {
  LoadOptions options;
  options.jobs = args.jobs;
  options.keep_texts = args.keep_texts;
  std::vector<std::string> files;
  std::vector<NamedText> rendered;
  ChartOptions chart_options = args.chart;
  chart_options.namespace_ = args.namespace_;
  for (const std::string& input : args.inputs) {
    if (!is_chart(input)) {
      files.push_back(input);
      continue;
    }
    auto chart = render_chart(input, chart_options);
    if (!chart) {
      if (errors) {
        *errors = chart.error().message;
      } else {
        print_error(chart.error().message);
      }
      return std::nullopt;
    }
    std::string root = std::filesystem::is_directory(input) ? input : "";
    rendered.push_back(NamedText{fmt::format("{} (rendered by helm)", input), chart->text, root});
    if (charts) {
      chart->capabilities = probe_capabilities(input, chart_options, *chart);
      charts->push_back(std::move(*chart));
    }
  }
  auto loaded = load_inputs(files, options, std::move(rendered));
  if (!loaded) {
    if (errors) {
      for (const LoadError& e : loaded.error())
        *errors += e.to_string() + "\n";
    } else {
      print_load_errors(loaded.error());
    }
    return std::nullopt;
  }
  return build_bundle(std::move(*loaded), BundleOptions{args.namespace_});
}

void add_policy_options(CLI::App& app, PolicyArgs& args) {
  app.add_option("--fail-on", args.fail_on,
                 "Exit 1 when a finding is at least this severe: info, low, medium, high, "
                 "critical or none (default: the config's failOn, else none)")
      ->check(CLI::IsMember({"info", "low", "medium", "high", "critical", "none"}));
  app.add_option("--config", args.config_path,
                 "Configuration file (default: .footprint.yaml in the current directory)");
  app.add_flag("--no-config", args.no_config, "Ignore .footprint.yaml");
}

std::optional<Config> load_policy(const PolicyArgs& args) {
  if (args.no_config) return Config{};
  auto loaded = load_config(args.config_path);
  if (!loaded) {
    print_load_errors({loaded.error()});
    return std::nullopt;
  }
  return std::move(*loaded);
}

bool reaches_fail_on(const AnalysisResult& result, const Config& config, const PolicyArgs& args) {
  std::optional<Severity> threshold = config.fail_on;
  if (!args.fail_on.empty()) {
    threshold = args.fail_on == "none" ? std::nullopt : parse_severity(args.fail_on);
  }
  if (!threshold) return false;
  return std::any_of(result.findings.begin(), result.findings.end(),
                     [&](const Finding& f) { return !f.suppressed && f.severity >= *threshold; });
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
