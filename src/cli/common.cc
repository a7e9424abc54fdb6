#include "cli/common.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "analysis/check.h"
#include "cli/build_info.h"
#include "model/names.h"

namespace footprint {

namespace {
constexpr size_t kMaxErrorsShown = 20;
}

namespace {

// True when the file starts like a Kubernetes object: what users coming from kubectl give to -f.
bool looks_like_manifest(const std::string& path) {
  auto text = read_text_file(path, 1 << 20);
  if (!text) return false;
  auto has_key = [&](std::string_view key) {
    return text->starts_with(key) || text->find(fmt::format("\n{}", key)) != std::string::npos;
  };
  return has_key("apiVersion:") && has_key("kind:");
}

std::string values_hint(const std::vector<std::string>& values_files, const std::string& command) {
  std::string manifest;
  for (const std::string& f : values_files) {
    if (looks_like_manifest(f)) manifest = f;
  }
  std::string hint =
      "-f/--values names a Helm values file for a chart input, as in helm, not a manifest as in "
      "kubectl";
  if (!manifest.empty()) {
    hint += fmt::format("; {} is a manifest: give it as a plain argument: {} {}", manifest, command,
                        manifest);
  }
  return hint;
}

// The values given to an option, or none when the command has no such option.
std::vector<std::string> option_values(const CLI::App& app, const std::string& name) {
  const CLI::Option* option = app.get_option_no_throw(name);
  if (option == nullptr) return {};
  return option->results();
}

}  // namespace

std::string version_line() {
  return fmt::format("footprint {} (commit {}{})", FOOTPRINT_VERSION, kBuildCommit,
                     kBuildTreeModified ? ", with local changes" : "");
}

std::optional<int> parse_args(CLI::App& app, int argc, char** argv) {
  app.set_version_flag("--version", version_line(), "Print footprint's version and exit");
  // --color exists on every command, as the README says, so a wrapper can pass it to any;
  // commands that write only manifests or scripts accept it and colour nothing.
  if (!app.get_option_no_throw("--color")) {
    static ColorOption unused;
    add_color_option(app, unused);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --help-all, --version
    const CLI::Option* inputs = app.get_option_no_throw("inputs");
    bool no_inputs = dynamic_cast<const CLI::RequiredError*>(&e) != nullptr && inputs != nullptr &&
                     inputs->count() == 0;
    if (no_inputs) {
      print_error(
          "no INPUT given: name manifest files, directories, - for standard input, or a chart");
      std::vector<std::string> values = option_values(app, "--values");
      if (!values.empty()) print_hint(values_hint(values, app.get_name()));
    } else {
      print_error(e.what());
    }
    print_stderr(fmt::format("Run `{} --help` for the options.\n", app.get_name()));
    return kExitUsage;
  }
  return std::nullopt;
}

CLI::Option* add_repeatable(CLI::App& app, const std::string& names,
                            std::vector<std::string>& values, const std::string& description) {
  return app.add_option(names, values, description + " (repeatable)")->allow_extra_args(false);
}

CLI::Option* add_namespace_option(CLI::App& app, const std::string& names, std::string& value,
                                  const std::string& description) {
  CLI::Validator dns_label(
      [](std::string& name) -> std::string {
        if (is_dns1123_label(name)) return "";
        return fmt::format(
            "\"{}\" is not a namespace name: Kubernetes requires a DNS label (RFC 1123): 1 to 63 "
            "characters of a-z, 0-9 and '-', starting and ending with a letter or digit",
            name);
      },
      "NAMESPACE");
  return app.add_option(names, value, description)->capture_default_str()->check(dns_label);
}

void print_error(const std::string& message) {
  // A hint inside the message (helm's failure, say) gets the prefix print_hint gives one.
  std::string text = "footprint: error: " + message + "\n";
  for (size_t at = text.find("\nhint: "); at != std::string::npos;
       at = text.find("\nhint: ", at + 1)) {
    text.insert(at + 1, "footprint: ");
  }
  print_stderr(text);
}

void print_hint(const std::string& hint) {
  print_stderr("footprint: hint: " + hint + "\n");
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
                 "Manifest files, directories (searched for *.yaml, *.yml, *.json), - for stdin, "
                 "or a chart (a directory with Chart.yaml, or a .tgz)")
      ->required();
  add_namespace_option(app, release_flag, args.namespace_,
                       "Release namespace: where objects without a namespace land");
  app.add_option("--jobs", args.jobs, "Threads (default: one per core)");
  add_chart_options(app, args);
}

void add_chart_options(CLI::App& app, BundleArgs& args) {
  args.command = app.get_name();
  add_repeatable(app, "-f,--values", args.chart.values_files, "Chart inputs: a Helm values file");
  add_repeatable(app, "--set", args.chart.set, "Chart inputs: set a value, key=value");
  add_repeatable(app, "--set-string", args.chart.set_string,
                 "Chart inputs: set a string value, key=value");
  // helm's ValidateReleaseName (pkg/chartutil/validate_name.go): a DNS subdomain of at most 53
  // characters. Checked here so that "--release -x" is named as the option's mistake, not helm's.
  CLI::Validator release_name(
      [](std::string& name) -> std::string {
        if (name.size() <= 53 && is_dns1123_subdomain(name)) return "";
        return fmt::format(
            "\"{}\" is not a release name: helm requires at most 53 characters of a-z, 0-9, "
            "'-' and '.', starting and ending with a letter or digit",
            name);
      },
      "NAME");
  app.add_option("--release", args.chart.release, "Chart inputs: the release name")
      ->check(release_name);
  add_repeatable(app, "--api-versions", args.chart.api_versions,
                 "Chart inputs: an API version the cluster serves, for .Capabilities");
  app.add_option("--kube-version", args.chart.kube_version,
                 "Chart inputs: the Kubernetes version for .Capabilities");
}

namespace {

// The chart folder when `path` is, or is inside, a chart's templates/ folder.
std::optional<std::string> chart_of_templates(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::absolute(path, ec).lexically_normal();
  if (ec) return std::nullopt;
  if (!p.has_filename()) p = p.parent_path();  // "chart/templates/"
  for (; p.has_relative_path(); p = p.parent_path()) {
    if (p.filename() == "templates" && fs::exists(p.parent_path() / "Chart.yaml", ec)) {
      fs::path chart = p.parent_path();
      // Name the chart the way the user named the templates folder: relative when they did.
      if (fs::path(path).is_absolute()) return chart.string();
      fs::path relative = chart.lexically_relative(fs::current_path(ec));
      return relative.empty() ? chart.string() : relative.string();
    }
  }
  return std::nullopt;
}

// An error for chart options given with no chart input, or for a chart's templates given as
// input; the second part is a hint.
std::optional<std::pair<std::string, std::string>> misread_inputs(const BundleArgs& args) {
  for (const std::string& input : args.inputs) {
    if (input == "-") continue;
    if (auto chart = chart_of_templates(input)) {
      return std::pair{
          fmt::format("{} is inside the templates/ folder of the chart {}: its files are Helm "
                      "templates, which only helm can turn into manifests",
                      input, *chart),
          fmt::format("give the chart folder: {} {}", args.command, *chart)};
    }
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path path(input);
    if (path.filename() == "Chart.yaml" && fs::is_regular_file(path, ec)) {
      std::string folder = path.parent_path().empty() ? "." : path.parent_path().string();
      return std::pair{fmt::format("{} describes a chart; it holds no manifests", input),
                       fmt::format("give the chart folder: {} {}", args.command, folder)};
    }
    // A folder of charts would be read as manifests, templates and all.
    if (!is_chart(input) && fs::is_directory(path, ec)) {
      std::vector<std::string> charts;
      for (auto it = fs::directory_iterator(path, ec); !ec && it != fs::directory_iterator();
           it.increment(ec)) {
        if (fs::exists(it->path() / "Chart.yaml", ec)) charts.push_back(it->path().string());
      }
      std::sort(charts.begin(), charts.end());
      if (!charts.empty()) {
        return std::pair{
            fmt::format("{} holds {}, not manifests: each chart's templates are Helm templates, "
                        "which only helm can turn into manifests",
                        input, charts.size() == 1 ? "a chart" : "charts"),
            fmt::format("give one chart folder: {} {}", args.command, charts.front())};
      }
    }
  }
  if (std::any_of(args.inputs.begin(), args.inputs.end(), is_chart)) return std::nullopt;
  const ChartOptions& c = args.chart;
  std::vector<std::string> given;
  if (!c.values_files.empty()) given.emplace_back("-f/--values");
  if (!c.set.empty()) given.emplace_back("--set");
  if (!c.set_string.empty()) given.emplace_back("--set-string");
  if (!c.release.empty() && !args.release_without_chart) given.emplace_back("--release");
  if (!c.api_versions.empty()) given.emplace_back("--api-versions");
  if (!c.kube_version.empty()) given.emplace_back("--kube-version");
  if (given.empty()) return std::nullopt;
  std::string error = fmt::format(
      "{} {} to charts, and no input is a chart (a directory with Chart.yaml, or a .tgz)",
      fmt::join(given, ", "), given.size() == 1 ? "applies" : "apply");
  std::string hint = c.values_files.empty()
                         ? std::string("leave them out, or give the chart they are meant for")
                         : values_hint(c.values_files, args.command);
  return std::pair{error, hint};
}

}  // namespace

std::optional<Bundle> load_bundle(const BundleArgs& args, std::vector<RenderedChart>* charts,
                                  std::string* errors) {
  LoadOptions options;
  options.jobs = args.jobs;
  options.keep_texts = args.keep_texts;
  options.keep_valid_documents = args.keep_valid_documents;
  if (auto misread = misread_inputs(args)) {
    if (errors) {
      *errors = misread->first + "\nhint: " + misread->second;
    } else {
      print_error(misread->first);
      print_hint(misread->second);
    }
    return std::nullopt;
  }
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
    rendered.push_back(NamedText{input, chart->text, root, "helm"});
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
  Bundle bundle = build_bundle(std::move(*loaded), BundleOptions{args.namespace_});
  bundle.own_namespaces = args.own_namespaces;
  // Objects with fields of the wrong type join the invalid documents there; a command that acts
  // on the whole input refuses them like the others.
  const std::vector<LoadError>& invalid = bundle.input.invalid_documents;
  if (!args.keep_valid_documents && !invalid.empty()) {
    if (errors) {
      for (const LoadError& e : invalid)
        *errors += e.to_string() + "\n";
    } else {
      print_load_errors(invalid);
    }
    return std::nullopt;
  }
  return bundle;
}

std::vector<std::string> input_paths(const BundleArgs& args, const Bundle& bundle) {
  std::vector<std::string> paths = args.inputs;
  paths.insert(paths.end(), bundle.input.files.begin(), bundle.input.files.end());
  paths.insert(paths.end(), args.chart.values_files.begin(), args.chart.values_files.end());
  return paths;
}

bool check_output(const std::string& output, const std::vector<std::string>& inputs) {
  if (auto clash = output_clash(output, inputs)) {
    print_error(*clash);
    return false;
  }
  return true;
}

void add_policy_options(CLI::App& app, PolicyArgs& args) {
  app.add_option("--fail-on", args.fail_on,
                 "Exit 1 when a finding is at least this severe: info, low, medium, high, "
                 "critical or none (default: the config's failOn, else none)")
      ->check(CLI::IsMember({"info", "low", "medium", "high", "critical", "none"}));
  app.add_option("--config", args.config_path,
                 "Configuration file (default: .footprint.yaml in the current directory)");
  app.add_flag("--no-config", args.no_config, "Ignore .footprint.yaml");
  app.add_flag("--trust-annotations", args.trust_annotations,
               "Let footprint.dev/ignore annotations in the input suppress its findings below "
               "critical (by default they are reported: the input does not judge itself)");
}

std::string config_file(const PolicyArgs& args) {
  if (args.no_config) return "";
  return args.config_path.empty() ? kConfigFileName : args.config_path;
}

std::optional<std::string> today_utc() {
  // For tests: a fixed date, so that expiry does not depend on when they run.
  if (const char* fixed = std::getenv("FOOTPRINT_TODAY"); fixed && *fixed) {
    if (!valid_date(fixed)) {
      print_error(fmt::format("FOOTPRINT_TODAY must be a date as YYYY-MM-DD, not \"{}\"", fixed));
      return std::nullopt;
    }
    return fixed;
  }
  auto days = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  std::chrono::year_month_day date{days};
  return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(date.year()),
                     static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()));
}

std::optional<Config> load_policy(const PolicyArgs& args) {
  Config config;
  if (!args.no_config) {
    auto loaded = load_config(args.config_path);
    if (!loaded) {
      print_load_errors({loaded.error()});
      return std::nullopt;
    }
    std::optional<std::string> today = today_utc();
    if (!today) return std::nullopt;
    config = std::move(*loaded);
    config.today = std::move(*today);
  }
  config.trust_annotations = config.trust_annotations || args.trust_annotations;
  return config;
}

bool reaches_fail_on(const AnalysisResult& result, const Config& config, const PolicyArgs& args) {
  std::optional<Severity> threshold = config.fail_on;
  if (!args.fail_on.empty()) {
    threshold = args.fail_on == "none" ? std::nullopt : parse_severity(args.fail_on);
  }
  if (!threshold) return false;
  return std::any_of(result.findings.begin(), result.findings.end(), [&](const Finding& f) {
    return !f.suppressed && !f.known && f.severity >= *threshold;
  });
}

void add_color_option(CLI::App& app, ColorOption& option) {
  app.add_option("--color", option.mode, "Colour text output: auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}, CLI::ignore_case))
      ->capture_default_str();
}

bool use_color(const ColorOption& option, const std::string& output_path) {
  if (option.mode == "always") return true;
  if (option.mode == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  if (term && std::string_view(term) == "dumb") return false;
  bool to_stdout = output_path.empty() || output_path == "-";
  return to_stdout && isatty(STDOUT_FILENO);
}

Format checked_format(std::string_view name) {
  return parse_format(name).value_or(Format::kText);
}

Severity checked_severity(std::string_view name) {
  return parse_severity(name).value_or(Severity::kInfo);
}

Content content_of(std::string_view format_name) {
  std::optional<Format> format = parse_format(format_name);
  return format == Format::kJson || format == Format::kSarif ? Content::kData : Content::kText;
}

ReportOptions text_options(const ColorOption& color, const std::string& output_path) {
  ReportOptions options;
  options.color = use_color(color, output_path);
  bool to_stdout = output_path.empty() || output_path == "-";
  if (!to_stdout) return options;
  // COLUMNS, when exported, is the width the reader asked for (POSIX has it override the
  // terminal's), also through a pipe (`COLUMNS=80 footprint ... | less`); a value that is not
  // digits (strtoul would wrap "-5" round to a huge width), or too small for any table, is
  // ignored.
  constexpr size_t kMinWidth = 20;
  size_t columns = 0;
  if (const char* env = std::getenv("COLUMNS");
      env && std::isdigit(static_cast<unsigned char>(*env))) {
    char* end = nullptr;
    columns = std::strtoul(env, &end, 10);
    if (*end != '\0' || columns < kMinWidth) columns = 0;
  }
  if (columns == 0 && isatty(STDOUT_FILENO)) {
    winsize size{};
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0) columns = size.ws_col;
    if (columns < kMinWidth) columns = 80;
  }
  if (columns != 0) {
    options.width = columns;
    options.table_width = columns;
  }
  return options;
}

}  // namespace footprint
