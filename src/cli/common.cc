#include "cli/common.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "analysis/check.h"
#include "cli/build_info.h"
#include "cli/input_options.h"
#include "load/kustomize.h"
#include "load/olm_bundle.h"
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

namespace {

// The two counts of CLI11's "<prefix>N required but received M".
std::optional<std::pair<unsigned, unsigned>> required_and_received(std::string_view text,
                                                                   std::string_view prefix) {
  constexpr std::string_view kMiddle = " required but received ";
  if (!text.starts_with(prefix)) return std::nullopt;
  text.remove_prefix(prefix.size());
  unsigned want = 0;
  unsigned got = 0;
  auto [after_want, want_error] = std::from_chars(text.data(), text.data() + text.size(), want);
  std::string_view rest(after_want, static_cast<size_t>(text.data() + text.size() - after_want));
  if (want_error != std::errc() || !rest.starts_with(kMiddle)) return std::nullopt;
  rest.remove_prefix(kMiddle.size());
  if (std::from_chars(rest.data(), rest.data() + rest.size(), got).ec != std::errc()) {
    return std::nullopt;
  }
  return std::pair{want, got};
}

// CLI11's messages in plain words: which option, what it was given, and what it takes.
std::string usage_error(const CLI::App& app, const CLI::ParseError& e) {
  std::string what = e.what();
  // "--format: At Most 1 required but received 2", "sides: At least 2 required but received 1",
  // "--color: 1 required TEXT:{auto,always,never} missing".
  size_t colon = what.find(": ");
  std::string name = colon == std::string::npos ? "" : what.substr(0, colon);
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr && !name.empty()) {
    std::string_view counts = std::string_view(what).substr(colon + 2);
    if (auto at_most = required_and_received(counts, "At Most ")) {
      return fmt::format("{} was given {} times; it takes one value", name, at_most->second);
    }
    if (auto at_least = required_and_received(counts, "At least ")) {
      auto [want, got] = *at_least;
      const CLI::Option* option = app.get_option_no_throw(name);
      return fmt::format("{} needs {} values{}, and {} given", name, want,
                         option ? fmt::format(" ({})", option->get_description()) : "",
                         got == 1 ? std::string("1 was") : fmt::format("{} were", got));
    }
    if (what.ends_with(" missing")) return fmt::format("{} needs a value", name);
  }
  // "args is required": a positional is named by what it holds.
  if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr && what.ends_with(" is required")) {
    std::string missing = what.substr(0, what.size() - std::string_view(" is required").size());
    const CLI::Option* option = app.get_option_no_throw(missing);
    if (option && option->get_positional()) {
      return fmt::format("missing arguments: {}", option->get_description());
    }
    return fmt::format("{} is required", missing);
  }
  // "Could not convert: --jobs = -1"
  std::string_view convert = "Could not convert: ";
  if (what.starts_with(convert)) {
    size_t equals = what.find(" = ");
    if (equals != std::string::npos) {
      std::string option = what.substr(convert.size(), equals - convert.size());
      const CLI::Option* found = app.get_option_no_throw(option);
      return fmt::format("{} {}: not a value it takes{}", option, what.substr(equals + 3),
                         found ? fmt::format(" ({})", found->get_type_name()) : "");
    }
  }
  // "--no-config excludes --config"
  if (dynamic_cast<const CLI::ExcludesError*>(&e) != nullptr) {
    size_t excludes = what.find(" excludes ");
    if (excludes != std::string::npos) {
      return fmt::format("{} and {} contradict each other: give one of them",
                         what.substr(excludes + 10), what.substr(0, excludes));
    }
  }
  return what;
}

// `-o report.json` without --format writes the default format: the user most likely meant the
// format the name says, and a warning says so rather than guessing.
void warn_output_format(const CLI::App& app) {
  const CLI::Option* format = app.get_option_no_throw("--format");
  const CLI::Option* output = app.get_option_no_throw("--output");
  if (!format || !output || format->count() != 0 || output->count() == 0) return;
  std::string path = output->as<std::string>();
  std::string extension = std::filesystem::path(path).extension().string();
  static const std::pair<std::string_view, std::string_view> kByExtension[] = {
      {".json", "json"}, {".sarif", "sarif"}, {".html", "html"},
      {".htm", "html"},  {".md", "markdown"}, {".xml", "junit"}};
  for (const auto& [ext, name] : kByExtension) {
    if (extension != ext) continue;
    std::string fallback = format->get_default_str();
    // Only a format the command has: every --format's description lists them.
    if (fallback == name || format->get_description().find(name) == std::string::npos) return;
    print_stderr(fmt::format(
        "footprint: warning: {} is written in the {} format, the default; its name ends in "
        "{}: add --format {} for that format\n",
        path, fallback.empty() ? "text" : fallback, ext, name));
    return;
  }
}

}  // namespace

std::string version_line() {
  return fmt::format("footprint {} (commit {}{})", FOOTPRINT_VERSION, kBuildCommit,
                     kBuildTreeModified ? ", with local changes" : "");
}

std::optional<int> parse_args(CLI::App& app, int argc, char** argv) {
  // `-n=default`, as kubectl (pflag) reads a short option: the value after '='. CLI11 would keep
  // the '=' in the value.
  std::vector<std::string> split;
  split.reserve(2 * static_cast<size_t>(argc));
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    bool short_with_equals = i > 0 && arg.size() >= 3 && arg[0] == '-' && arg[2] == '=' &&
                             std::isalpha(static_cast<unsigned char>(arg[1]));
    if (arg == "--") short_with_equals = false;
    if (short_with_equals) {
      split.emplace_back(arg.substr(0, 2));
      split.emplace_back(arg.substr(3));
    } else {
      split.emplace_back(arg);
    }
    if (arg == "--") {
      for (++i; i < argc; ++i)
        split.emplace_back(argv[i]);
    }
  }
  chart_version_arguments(app, split);
  std::vector<char*> args;
  for (std::string& a : split)
    args.push_back(a.data());
  argc = static_cast<int>(args.size());
  argv = args.data();
  app.set_version_flag("--version", version_line(), "Print footprint's version and exit");
  allow_kustomization_only(app, argc, argv);
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
      print_error(usage_error(app, e));
    }
    print_stderr(fmt::format("Run `{} --help` for the options.\n", app.get_name()));
    return kExitUsage;
  }
  warn_output_format(app);
  return std::nullopt;
}

CLI::Option* add_repeatable(CLI::App& app, const std::string& names,
                            std::vector<std::string>& values, const std::string& description) {
  return app.add_option(names, values, description + " (repeatable)")->allow_extra_args(false);
}

CLI::Option* add_jobs_option(CLI::App& app, const std::string& names, unsigned& value,
                             const std::string& description) {
  CLI::Validator threads(
      [](std::string& text) -> std::string {
        unsigned n = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
        if (ec == std::errc{} && end == text.data() + text.size() && n >= 1) return "";
        return fmt::format(
            "\"{}\" is not a number of threads: give 1 or more, or leave the option out for one "
            "per core",
            text);
      },
      "N");
  return app.add_option(names, value, description)->type_name("N")->check(threads);
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
  add_jobs_option(app, "-j,--jobs", args.jobs, "Threads (default: one per core)");
  add_chart_options(app, args);
  add_input_options(app, args);
  app.add_option("--install-mode", args.install_mode,
                 "OLM bundle inputs: AllNamespaces, OwnNamespace, SingleNamespace=NS or "
                 "MultiNamespace=NS,NS (default: audit compares every mode the bundle supports)");
  app.add_option("--image", args.image,
                 "OLM bundle images holding several images: the one to read, by name or digest");
}

void add_chart_options(CLI::App& app, BundleArgs& args) {
  args.command = app.get_name();
  add_repeatable(app, "-f,--values", args.chart.values_files, "Chart inputs: a Helm values file")
      ->type_name("FILE");
  add_repeatable(app, "--set", args.chart.set, "Chart inputs: set a value")->type_name("KEY=VALUE");
  add_repeatable(app, "--set-string", args.chart.set_string, "Chart inputs: set a string value")
      ->type_name("KEY=VALUE");
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
                 "Chart inputs: an API version the cluster serves, for .Capabilities")
      ->type_name("GROUP/VERSION");
  app.add_option("--kube-version", args.chart.kube_version,
                 "Chart inputs: the Kubernetes version for .Capabilities")
      ->type_name("VERSION");
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
    if (!is_chart(input) && !is_kustomization(input) && fs::is_directory(path, ec)) {
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
  if (std::any_of(args.inputs.begin(), args.inputs.end(),
                  [](const std::string& i) { return is_chart(i) || is_chart_reference(i); }))
    return std::nullopt;
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
  std::vector<RenderedOlm> olm_bundles;
  for (const std::string& input : args.inputs) {
    if (is_olm_bundle(input)) {
      auto olm = render_olm_input(input, args.install_mode, args.namespace_, args.image);
      std::string refused = olm ? "" : fmt::format("{}", fmt::join(olm.error(), "\n"));
      if (!olm && errors) *errors = refused;
      if (!olm && !errors) print_error(refused);
      if (!olm) return std::nullopt;
      files.insert(files.end(), olm->files.begin(), olm->files.end());
      rendered.push_back(NamedText{input, olm->text, "", "olm"});
      rendered.insert(rendered.end(), olm->texts.begin(), olm->texts.end());
      olm_bundles.push_back(std::move(*olm));
      continue;
    }
    if (is_kustomization(input)) {
      if (!add_kustomization(input, rendered, errors)) return std::nullopt;
      continue;
    }
    std::string chart_path = input;  // a chart reference's pulled archive
    if (is_chart_reference(input) && !pull_reference(input, args.pull, chart_path, errors))
      return std::nullopt;
    if (!is_chart(chart_path)) {
      files.push_back(input);
      continue;
    }
    auto chart = render_chart(chart_path, chart_options);
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
      chart->capabilities = probe_capabilities(chart_path, chart_options, *chart);
      chart->chart = input;
      charts->push_back(std::move(*chart));
    }
  }
  for (const std::string& dir : args.kustomizations) {
    if (!add_kustomization(dir, rendered, errors, "-k")) return std::nullopt;
  }
  auto loaded = load_inputs(files, options, rendered);
  if (!loaded) {
    if (errors) {
      for (const LoadError& e : loaded.error())
        *errors += e.to_string() + "\n";
    } else {
      print_load_errors(loaded.error());
    }
    return std::nullopt;
  }
  // After the GitOps objects, which load the input again.
  if (!expand_gitops(args, files, options, std::move(rendered), *loaded, errors))
    return std::nullopt;
  for (RenderedOlm& olm : olm_bundles) {
    loaded->notes.insert(loaded->notes.end(), olm.notes.begin(), olm.notes.end());
    loaded->skipped.insert(loaded->skipped.end(), olm.skipped.begin(), olm.skipped.end());
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

bool stdin_read_once(const std::vector<std::pair<std::string, std::string>>& uses) {
  std::vector<std::string> readers;
  for (const auto& [option, path] : uses) {
    if (path == "-") readers.push_back(option);
  }
  if (readers.size() < 2) return true;
  print_error(fmt::format(
      "standard input can be read only once, and {} and {} both name it (-): save one to a file",
      readers[0], readers[1]));
  return false;
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
  CLI::Option* config =
      app.add_option("--config", args.config_path,
                     "Configuration file (default: .footprint.yaml in the current directory)")
          ->type_name("FILE");
  app.add_flag("--no-config", args.no_config, "Ignore .footprint.yaml")->excludes(config);
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

std::optional<Severity> fail_on_threshold(const Config& config, const PolicyArgs& args) {
  if (args.fail_on.empty()) return config.fail_on;
  return args.fail_on == "none" ? std::nullopt : parse_severity(args.fail_on);
}

bool reaches_fail_on(const AnalysisResult& result, const Config& config, const PolicyArgs& args) {
  std::optional<Severity> threshold = fail_on_threshold(config, args);
  if (!threshold) return false;
  return std::any_of(result.findings.begin(), result.findings.end(), [&](const Finding& f) {
    return !f.suppressed && !f.known && f.severity >= *threshold;
  });
}

void add_comparison_options(CLI::App& app, ComparisonArgs& args, std::string_view written) {
  static constexpr Format kFormats[] = {Format::kText, Format::kJson, Format::kMarkdown,
                                        Format::kHtml};
  add_format_option(app, args.format, kFormats);
  add_policy_options(app, args.policy);
  app.add_option("-o,--output", args.output_path,
                 fmt::format("Write the {} to this file", written));
}

void add_context_options(CLI::App& app, ContextArgs& args, const ContextOptions& offered) {
  if (offered.expect) {
    app.add_option("--expect", args.expect,
                   "YAML list of {as, verb, resource, namespace, name} that must be allowed; each "
                   "denial is an rbac-expectation-unmet finding");
  }
  if (!offered.namespaces_for.empty()) {
    app.add_option("--namespaces", args.namespaces,
                   fmt::format("The cluster's namespaces (kubectl get ns -o yaml), {}",
                               offered.namespaces_for));
  }
  if (offered.cluster) {
    app.add_option("--cluster", args.cluster,
                   "A snapshot of the cluster to install into (the output of `footprint "
                   "snapshot-command`): its namespaces, CRDs, webhooks and RBAC");
  }
}

bool load_cluster_option(const std::string& path, unsigned jobs, std::unique_ptr<Cluster>& cluster,
                         std::vector<std::string>* notes) {
  if (path.empty()) return true;
  auto loaded = load_cluster(path, jobs);
  if (!loaded) {
    print_load_errors(loaded.error());
    print_hint("--cluster reads the output of: " + snapshot_command());
    return false;
  }
  cluster = std::make_unique<Cluster>(std::move(*loaded));
  if (cluster->objects.of_kind("", "Namespace").empty()) {
    std::string warning = fmt::format(
        "--cluster {} holds no Namespace objects, so the blast radius cannot be "
        "computed from the snapshot: using the namespaces footprint assumes without "
        "--cluster (kube-system, default, the install's own and one other team's). "
        "Take the snapshot again with: {}",
        path, snapshot_command());
    print_stderr("footprint: warning: " + warning + "\n");
    if (notes) notes->push_back(std::move(warning));
  }
  return true;
}

std::optional<ContextInputs> load_context_inputs(const ContextArgs& args, const Bundle& bundle,
                                                 unsigned jobs, std::vector<std::string>* notes) {
  ContextInputs inputs;
  if (!args.expect.empty()) {
    auto loaded = load_expectations(args.expect, bundle.resources);
    if (!loaded) {
      print_load_errors({loaded.error()});
      return std::nullopt;
    }
    inputs.expectations = std::move(*loaded);
  }
  for (const Expectation& e : inputs.expectations) {
    if (!is_api_verb(e.request.verb)) {
      print_stderr(fmt::format("footprint: warning: {}:{}: {}\n", e.file, e.position.line,
                               unknown_verb_warning(e.request.verb)));
    }
  }
  if (!args.namespaces.empty()) {
    auto loaded = load_namespaces(args.namespaces, bundle);
    if (!loaded) {
      print_load_errors(loaded.error());
      return std::nullopt;
    }
    inputs.namespaces = std::move(*loaded);
  }
  if (!load_cluster_option(args.cluster, jobs, inputs.cluster, notes)) return std::nullopt;
  return inputs;
}

std::optional<LoadedContext> load_context(const ContextArgs& args, const Bundle& bundle,
                                          unsigned jobs, std::vector<std::string>* notes) {
  std::optional<ContextInputs> inputs = load_context_inputs(args, bundle, jobs, notes);
  if (!inputs) return std::nullopt;
  LoadedContext loaded{std::move(inputs->cluster), nullptr};
  loaded.context = std::make_unique<Context>(bundle, std::move(inputs->namespaces),
                                             std::move(inputs->expectations), loaded.cluster.get());
  return loaded;
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

CLI::Option* add_format_option(CLI::App& app, Format& format, std::span<const Format> formats) {
  std::vector<std::string> names;
  std::vector<std::string> described;
  for (Format f : formats) {
    const FormatName& name = name_of(f);
    names.emplace_back(name.name);
    if (!name.alias.empty()) names.emplace_back(name.alias);
    described.push_back(name.note.empty() ? std::string(name.name)
                                          : fmt::format("{} ({})", name.name, name.note));
  }
  std::string last = described.back();
  described.pop_back();
  std::string description =
      described.empty() ? "Output format: " + last
                        : fmt::format("Output format: {} or {}", fmt::join(described, ", "), last);
  return app
      .add_option_function<std::string>(
          "--format", [&format](const std::string& name) { format = *parse_format(name); },
          description)
      ->check(CLI::IsMember(names))
      ->default_str(std::string(name_of(format).name));
}

Severity checked_severity(std::string_view name) {
  return parse_severity(name).value_or(Severity::kInfo);
}

Content content_of(Format format) {
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
