// Pieces every command shares: exit codes, option parsing, error printing, loading a bundle,
// colour and width of text output.
#pragma once

#include <fmt/color.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/config.h"
#include "analysis/context.h"
#include "analysis/models/rbac_models.h"
#include "cli/output.h"
#include "load/chart_ref.h"
#include "load/helm.h"
#include "load/loader.h"
#include "model/cluster.h"
#include "model/namespaces.h"
#include "model/object.h"
#include "report/report.h"
#include "util/display_text.h"

namespace footprint {

// Exit codes, as documented in the README.
constexpr int kExitOk = 0;
constexpr int kExitFindings = 1;  // a finding reached --fail-on
constexpr int kExitUsage = 2;     // bad arguments or bad input

// Parses argv with CLI11, after adding --version; returns an exit code when the command should
// stop (help, version or an error, printed as `footprint: error: ...` with a hint where one helps).
std::optional<int> parse_args(CLI::App& app, int argc, char** argv);

// An option that may be given many times, one value each time, before, between or after the
// inputs, as `--opt v` or `--opt=v` (as helm, kubectl and docker read theirs).
CLI::Option* add_repeatable(CLI::App& app, const std::string& names,
                            std::vector<std::string>& values, const std::string& description);

// --jobs: a number of threads from 1; left out, one per core.
CLI::Option* add_jobs_option(CLI::App& app, const std::string& names, unsigned& value,
                             const std::string& description);
// A namespace option: the value must be a DNS label (RFC 1123), as Kubernetes requires.
CLI::Option* add_namespace_option(CLI::App& app, const std::string& names, std::string& value,
                                  const std::string& description);

void print_error(const std::string& message);
// "footprint 0.1.0 (commit HASH)", what --version prints on every command.
std::string version_line();
// Prints `hint: ...` under an error.
void print_hint(const std::string& hint);
void print_load_errors(const std::vector<LoadError>& errors);

struct BundleArgs {
  std::vector<std::string> inputs;
  std::string namespace_ = "default";
  unsigned jobs = 0;
  ChartOptions chart;       // for inputs that are charts
  bool keep_texts = false;  // keep each file's text, for commands that rewrite it
  // Load the valid objects when some documents are invalid (LoadedInput::invalid_documents);
  // the command must report them and exit 2.
  bool keep_valid_documents = false;
  // --release names the release of manifest inputs too (can-install), not only a chart's.
  bool release_without_chart = false;
  std::string command;  // "footprint audit", for hints
  // --own-namespace, for commands that take it: namespaces the operator manages beyond the
  // bundle's (Bundle::own_namespaces).
  std::vector<std::string> own_namespaces;
  std::vector<std::string> kustomizations;  // -k: inputs that must be kustomizations
  ChartPullOptions pull;                    // for chart references (oci://..., REPO/CHART)
  std::string install_mode;                 // --install-mode, for OLM bundle inputs
  std::string image;                        // --image, for OLM bundle images
  std::vector<std::string> git_sources;     // --source URL=DIR, for GitOps objects
};

// Adds INPUT..., --jobs, the chart options, and the release namespace as -n/--namespace, or
// as `release_flag` for commands whose -n names something else.
void add_bundle_options(CLI::App& app, BundleArgs& args,
                        const std::string& release_flag = "-n,--namespace");
// Adds helm's options for chart inputs: -f, --set, --set-string, --release, --api-versions,
// --kube-version.
void add_chart_options(CLI::App& app, BundleArgs& args);

// Loads and models the inputs, rendering charts with helm; prints errors and returns nullopt
// when they cannot be read. Chart options without a chart input, and a chart's templates/
// folder given instead of the chart, are errors with a hint. Rendered charts are appended to
// `charts` when given, with their capability checks probed. With `errors`, messages are collected
// there instead of printed.
std::optional<Bundle> load_bundle(const BundleArgs& args,
                                  std::vector<RenderedChart>* charts = nullptr,
                                  std::string* errors = nullptr);

// --config, --no-config, --fail-on and --trust-annotations, as audit has them.
struct PolicyArgs {
  std::string config_path;
  bool no_config = false;
  std::string fail_on;
  bool trust_annotations = false;
};
void add_policy_options(CLI::App& app, PolicyArgs& args);
// The configuration file the options name, or "" with --no-config.
std::string config_file(const PolicyArgs& args);
// Today's date in UTC as YYYY-MM-DD, which waivers expire against; FOOTPRINT_TODAY overrides it
// (for tests). Prints an error and returns nullopt when that is not a date.
std::optional<std::string> today_utc();
// The configuration the options name, with `today` set; prints errors and returns nullopt when it
// cannot be read.
std::optional<Config> load_policy(const PolicyArgs& args);
// The severity --fail-on names, else the config's failOn; none for "none".
std::optional<Severity> fail_on_threshold(const Config& config, const PolicyArgs& args);
// True when a finding neither suppressed nor known from --baseline reaches --fail-on, or the
// config's failOn.
bool reaches_fail_on(const AnalysisResult& result, const Config& config, const PolicyArgs& args);

// What compare and diff both offer: --format (text, json, markdown or html), the policy options
// and -o, whose help names what is `written`.
struct ComparisonArgs {
  Format format = Format::kText;
  PolicyArgs policy;
  std::string output_path;
};
void add_comparison_options(CLI::App& app, ComparisonArgs& args, std::string_view written);

// False, with an error, when two of `uses` (an option and its path) name standard input ("-"),
// which can be read only once.
bool stdin_read_once(const std::vector<std::pair<std::string, std::string>>& uses);

// Every file the command reads for `args`: the inputs as given, the files found in directories,
// and the values files; for refusing outputs that would overwrite one (see output_clash).
std::vector<std::string> input_paths(const BundleArgs& args, const Bundle& bundle);
// Prints the error and returns false when `output` is one of `inputs`.
bool check_output(const std::string& output, const std::vector<std::string>& inputs);

// --namespaces, --cluster and --expect: what the cluster holds and must allow, for the commands
// that judge a bundle against it.
struct ContextArgs {
  std::string namespaces;  // the cluster's namespaces (kubectl get ns -o yaml)
  std::string cluster;     // a snapshot: the output of `footprint snapshot-command`
  std::string expect;      // requests that must be allowed
  // The files they name, for check_output.
  std::vector<std::string> paths() const { return {expect, namespaces, cluster}; }
};
// Which of the options a command offers; --namespaces' help ends with what the command reads them
// for, and without that the command has no --namespaces.
struct ContextOptions {
  std::string_view namespaces_for;
  bool cluster = false;
  bool expect = false;
};
void add_context_options(CLI::App& app, ContextArgs& args, const ContextOptions& offered);

// What the options name, read; the namespaces and expectations for `bundle`.
struct ContextInputs {
  std::vector<ClusterNamespace> namespaces;
  std::vector<Expectation> expectations;
  std::unique_ptr<Cluster> cluster;  // null without --cluster
};
// Prints the errors and returns nullopt when a file cannot be read.
// With `notes`, a warning about the snapshot is also added there, for the report's notes.
std::optional<ContextInputs> load_context_inputs(const ContextArgs& args, const Bundle& bundle,
                                                 unsigned jobs,
                                                 std::vector<std::string>* notes = nullptr);
// Only the snapshot, for a command that reads it without a bundle; false after printing the
// errors when it cannot be read.
bool load_cluster_option(const std::string& path, unsigned jobs, std::unique_ptr<Cluster>& cluster,
                         std::vector<std::string>* notes = nullptr);

// A bundle's Context built on what the options name, with the snapshot it points into.
struct LoadedContext {
  std::unique_ptr<Cluster> cluster;
  std::unique_ptr<Context> context;
};
std::optional<LoadedContext> load_context(const ContextArgs& args, const Bundle& bundle,
                                          unsigned jobs, std::vector<std::string>* notes = nullptr);

// --color auto|always|never.
struct ColorOption {
  std::string mode = "auto";
};
void add_color_option(CLI::App& app, ColorOption& option);
// auto: colour only on a terminal, and never when NO_COLOR is set (https://no-color.org) or TERM
// is dumb.
bool use_color(const ColorOption& option, const std::string& output_path);
// Colour and widths for text written to `output_path` (stdout when empty or "-"): on standard
// output, prose and tables fit COLUMNS when it is exported, else the terminal's width; written to
// a file, or to a pipe without COLUMNS, prose wraps at 100 columns and tables never wrap.
ReportOptions text_options(const ColorOption& color, const std::string& output_path);

// --format, offering `formats` (in that order) and storing the one named; the help lists their
// names and notes from report/format.h. `format` holds the default.
CLI::Option* add_format_option(CLI::App& app, Format& format, std::span<const Format> formats);
inline constexpr Format kTextOrJson[] = {Format::kText, Format::kJson};
inline constexpr Format kTextJsonMarkdown[] = {Format::kText, Format::kJson, Format::kMarkdown};

// The severity an option names: the option's CLI::IsMember check lets through only names that
// parse.
Severity checked_severity(std::string_view name);
// What a report in the format holds: JSON and SARIF are data; every other format is text for a
// reader (cli/output.h).
Content content_of(Format format);

// Styles of the commands' own text output, for paint() (util/display_text.h).
inline constexpr fmt::text_style kGood = fmt::fg(fmt::terminal_color::green) | fmt::emphasis::bold;
inline constexpr fmt::text_style kBad = fmt::fg(fmt::terminal_color::red) | fmt::emphasis::bold;
inline constexpr fmt::text_style kHeading = fmt::emphasis::bold;

}  // namespace footprint
