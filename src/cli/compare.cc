#include "analysis/compare/compare.h"

#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "cli/commands.h"
#include "cli/common.h"
#include "model/kubectl_json.h"
#include "report/report.h"

namespace footprint {

namespace {

// Every object of a mode as kubectl would send it: two modes with the same list install the
// same thing, whatever their values said.
std::vector<std::string> rendered_objects(const Bundle& bundle) {
  std::vector<std::string> out;
  out.reserve(bundle.objects.size());
  for (const Object& obj : bundle.objects) {
    auto json = kubectl_json(obj.node);
    out.push_back(json ? std::move(*json) : obj.display());
  }
  return out;
}

// Helm ignores a --set key the chart never reads, so a misspelt mode renders like another one.
void warn_identical_modes(const std::vector<ModeInput>& modes) {
  std::vector<std::vector<std::string>> rendered;
  rendered.reserve(modes.size());
  for (const ModeInput& m : modes)
    rendered.push_back(m.bundle ? rendered_objects(*m.bundle) : std::vector<std::string>{});
  for (size_t a = 0; a < modes.size(); ++a) {
    for (size_t b = a + 1; b < modes.size(); ++b) {
      if (!modes[a].bundle || !modes[b].bundle || rendered[a] != rendered[b]) continue;
      print_hint(
          fmt::format("modes {} and {} install exactly the same objects: helm ignores "
                      "values the chart does not read, so check their keys",
                      modes[a].name, modes[b].name));
    }
  }
}

// "restricted:values-restricted.yaml,namespaceRestriction.enabled=true,upgradeCRD=false"
struct ModeSpec {
  std::string name;
  std::vector<std::string> values_files;
  std::vector<std::string> set;
};

tl::expected<ModeSpec, std::string> parse_mode(const std::string& spec) {
  ModeSpec m;
  size_t colon = spec.find(':');
  size_t comma = spec.find(',');
  size_t end = std::min(colon, comma);
  m.name = spec.substr(0, end);
  if (m.name.empty()) return tl::unexpected(fmt::format("mode \"{}\" has no name", spec));
  if (end == std::string::npos) return m;
  std::string rest = spec.substr(end + 1);
  size_t pos = 0;
  while (pos <= rest.size()) {
    size_t next = rest.find(',', pos);
    std::string item = rest.substr(pos, next == std::string::npos ? next : next - pos);
    if (!item.empty()) {
      (item.find('=') == std::string::npos ? m.values_files : m.set).push_back(item);
    }
    if (next == std::string::npos) break;
    pos = next + 1;
  }
  return m;
}

// A file a mode names that is not there: the comparison would show that mode as a failed render,
// which reads as a fact about the chart, when it is a mistake in the command.
std::optional<std::string> missing_file(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    std::error_code ec;
    if (path != "-" && !std::filesystem::exists(path, ec)) return path;
  }
  return std::nullopt;
}

}  // namespace

int run_compare(int argc, char** argv) {
  CLI::App app{
      "Compare install modes side by side: NAME=INPUT... (rendered manifests), or a "
      "chart with --mode NAME[:values.yaml][,key=value...] for each mode.",
      "footprint compare"};
  BundleArgs base;
  std::vector<std::string> args;
  app.add_option("inputs", args, "NAME=INPUT (file, directory or -)... or one CHART")->required();
  add_namespace_option(app, "-n,--namespace", base.namespace_, "Release namespace");
  add_chart_options(app, base);
  std::vector<std::string> mode_specs;
  add_repeatable(app, "--mode", mode_specs,
                 "A chart install mode: NAME[:values.yaml][,key=value...]");
  ComparisonArgs comparison_args;
  add_comparison_options(app, comparison_args, "comparison");
  ContextArgs context_args;
  add_context_options(app, context_args, {.namespaces_for = {}, .cluster = true});
  ColorOption color;
  add_color_option(app, color);
  if (auto code = parse_args(app, argc, argv)) return *code;
  std::optional<Config> config = load_policy(comparison_args.policy);
  if (!config) return kExitUsage;

  // Each mode's name and what it loads; names are checked before anything is rendered.
  std::vector<std::pair<std::string, BundleArgs>> specs;
  if (!mode_specs.empty()) {
    if (args.size() != 1 || !is_chart(args[0])) {
      print_error("--mode needs exactly one CHART (a directory with Chart.yaml, or a .tgz)");
      return kExitUsage;
    }
    for (const std::string& spec : mode_specs) {
      auto mode = parse_mode(spec);
      if (!mode) {
        print_error(mode.error());
        return kExitUsage;
      }
      BundleArgs bundle_args = base;
      bundle_args.inputs = {args[0]};
      for (const std::string& f : mode->values_files)
        bundle_args.chart.values_files.push_back(f);
      for (const std::string& s : mode->set)
        bundle_args.chart.set.push_back(s);
      specs.emplace_back(mode->name, std::move(bundle_args));
    }
  } else {
    for (const std::string& arg : args) {
      size_t eq = arg.find('=');
      if (eq == std::string::npos || eq == 0) {
        print_error(
            fmt::format("\"{}\" is not NAME=INPUT; to compare modes of a chart, use "
                        "--mode",
                        arg));
        return kExitUsage;
      }
      BundleArgs bundle_args = base;
      bundle_args.inputs = {arg.substr(eq + 1)};
      specs.emplace_back(arg.substr(0, eq), std::move(bundle_args));
    }
  }
  if (specs.size() < 2) {
    print_error("compare needs at least two modes");
    return kExitUsage;
  }
  std::set<std::string> names;
  for (const auto& [name, bundle_args] : specs) {
    if (!names.insert(name).second) {
      print_error(fmt::format("two modes are named \"{}\"; give each mode its own name", name));
      return kExitUsage;
    }
    std::vector<std::string> files = bundle_args.inputs;
    files.insert(files.end(), bundle_args.chart.values_files.begin(),
                 bundle_args.chart.values_files.end());
    if (auto missing = missing_file(files)) {
      print_error(fmt::format("mode {}: {} does not exist", name, *missing));
      return kExitUsage;
    }
  }

  std::vector<ModeInput> modes;
  std::vector<std::string> inputs;
  // A chart mode that helm refuses is a result (that mode cannot be installed); rendered inputs
  // that cannot be read are the command's error, as in audit.
  bool unreadable_input = false;
  for (const auto& [name, bundle_args] : specs) {
    ModeInput mode;
    mode.name = name;
    std::string errors;
    std::optional<Bundle> bundle = load_bundle(bundle_args, nullptr, &errors);
    if (bundle) {
      std::vector<std::string> read = input_paths(bundle_args, *bundle);
      inputs.insert(inputs.end(), read.begin(), read.end());
      mode.bundle = std::make_unique<Bundle>(std::move(*bundle));
    } else {
      mode.error = errors;
      if (mode_specs.empty()) {
        print_error(fmt::format("mode {} cannot be read:\n{}", name, errors));
        unreadable_input = true;
      }
    }
    modes.push_back(std::move(mode));
  }
  const bool all_failed = std::none_of(modes.begin(), modes.end(),
                                       [](const ModeInput& m) { return m.bundle != nullptr; });
  warn_identical_modes(modes);
  inputs.insert(inputs.end(), {context_args.cluster, config_file(comparison_args.policy)});
  if (!check_output(comparison_args.output_path, inputs)) return kExitUsage;
  std::unique_ptr<Cluster> cluster;
  if (!load_cluster_option(context_args.cluster, base.jobs, cluster)) return kExitUsage;
  ReportOptions options = text_options(color, comparison_args.output_path);
  Comparison comparison = compare_modes(modes, *config, cluster.get());
  std::string out = render_comparison(comparison, comparison_args.format, options);
  if (!write_output(out, comparison_args.output_path, content_of(comparison_args.format)))
    return kExitUsage;
  if (all_failed && !unreadable_input) {
    print_error(fmt::format("no mode could be rendered; the first error, of mode {}:\n{}",
                            modes.front().name, modes.front().error));
  }
  if (all_failed || unreadable_input) return kExitUsage;
  for (const AnalysisResult& analysis : comparison.analyses) {
    if (reaches_fail_on(analysis, *config, comparison_args.policy)) return kExitFindings;
  }
  return kExitOk;
}

}  // namespace footprint
