// Pieces every command shares: exit codes, error printing, loading a bundle, writing output.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/config.h"
#include "load/helm.h"
#include "load/loader.h"
#include "model/object.h"

namespace footprint {

// Exit codes, as documented in the README.
constexpr int kExitOk = 0;
constexpr int kExitFindings = 1;  // a finding reached --fail-on
constexpr int kExitUsage = 2;     // bad arguments or bad input

// Parses argv with CLI11; returns an exit code when the command should stop (help or error).
std::optional<int> parse_args(CLI::App& app, int argc, char** argv);

void print_error(const std::string& message);
void print_load_errors(const std::vector<LoadError>& errors);

struct BundleArgs {
  std::vector<std::string> inputs;
  std::string namespace_ = "default";
  unsigned jobs = 0;
  ChartOptions chart;       // for inputs that are charts
  bool keep_texts = false;  // keep each file's text, for commands that rewrite it
};

// Adds INPUT..., --jobs, the chart options, and the release namespace as -n/--namespace, or
// as `release_flag` for commands whose -n names something else.
void add_bundle_options(CLI::App& app, BundleArgs& args,
                        const std::string& release_flag = "-n,--namespace");
// Adds helm's options for chart inputs: -f, --set, --set-string, --release, --api-versions,
// --kube-version.
void add_chart_options(CLI::App& app, BundleArgs& args);

// Loads and models the inputs, rendering charts with helm; prints errors and returns nullopt
// when they cannot be read. Rendered charts are appended to `charts` when given, with their
// capability checks probed.
// With `errors`, messages are collected there instead of printed.
std::optional<Bundle> load_bundle(const BundleArgs& args,
                                  std::vector<RenderedChart>* charts = nullptr,
                                  std::string* errors = nullptr);

// --config, --no-config and --fail-on, as audit has them.
struct PolicyArgs {
  std::string config_path;
  bool no_config = false;
  std::string fail_on;
};
void add_policy_options(CLI::App& app, PolicyArgs& args);
// The configuration the options name; prints errors and returns nullopt when it cannot be read.
std::optional<Config> load_policy(const PolicyArgs& args);
// True when an unsuppressed finding reaches --fail-on, or the config's failOn.
bool reaches_fail_on(const AnalysisResult& result, const Config& config, const PolicyArgs& args);

enum class ColorMode { kAuto, kAlways, kNever };
void add_color_option(CLI::App& app, ColorMode& mode);
// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
bool use_color(ColorMode mode, const std::string& output_path);

// Writes to `path`, or stdout when it is empty or "-". Returns false after printing an error.
bool write_output(const std::string& text, const std::string& path);

}  // namespace footprint
