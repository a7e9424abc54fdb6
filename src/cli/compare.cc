#include "analysis/compare/compare.h"

#include <fmt/format.h>

#include <set>

#include "cli/cluster_option.h"
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
  std::string format_name = "text";
  app.add_option("--format", format_name, "Output format: text, json, markdown or html")
      ->check(CLI::IsMember({"text", "json", "markdown", "md", "html"}))
      ->capture_default_str();
  std::string output_path;
  app.add_option("-o,--output", output_path, "Write the comparison to this file");
  std::string cluster_path;
  add_cluster_option(app, cluster_path);
  ColorOption color;
  add_color_option(app, color);
  if (auto code = parse_args(app, argc, argv)) return *code;

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
  }

  std::vector<ModeInput> modes;
  std::vector<std::string> inputs;
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
    }
    modes.push_back(std::move(mode));
  }
  bool all_failed = std::none_of(modes.begin(), modes.end(),
                                 [](const ModeInput& m) { return m.bundle != nullptr; });
  warn_identical_modes(modes);
  inputs.push_back(cluster_path);
  if (!check_output(output_path, inputs)) return kExitUsage;
  std::optional<Cluster> cluster;
  if (!load_cluster_option(cluster_path, base.jobs, cluster)) return kExitUsage;
  ReportOptions options = text_options(color, output_path);
  std::string out = render_comparison(compare_modes(modes, cluster ? &*cluster : nullptr),
                                      *parse_format(format_name), options);
  if (!write_output(out, output_path)) return kExitUsage;
  return all_failed ? kExitUsage : kExitOk;
}

}  // namespace footprint
