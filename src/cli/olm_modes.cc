#include "cli/olm_modes.h"

#include <fmt/format.h>

#include "analysis/compare/compare.h"
#include "cli/output.h"
#include "load/olm_bundle.h"
#include "report/report.h"

namespace footprint {

bool audits_olm_modes(const BundleArgs& args) {
  return args.inputs.size() == 1 && args.install_mode.empty() && is_olm_bundle(args.inputs[0]);
}

int audit_olm_modes(const OlmModesRun& run) {
  const BundleArgs& args = run.bundle_args;
  if (run.format != Format::kText && run.format != Format::kJson &&
      run.format != Format::kMarkdown && run.format != Format::kHtml) {
    print_error(
        fmt::format("{} compares the install modes of an OLM bundle, which --format {} cannot show",
                    args.command, name_of(run.format).name));
    print_hint("choose one mode with --install-mode, or use --format text, json, markdown or html");
    return kExitUsage;
  }
  auto bundle = read_olm_bundle(args.inputs[0], args.image);
  if (!bundle) {
    print_error(bundle.error());
    return kExitUsage;
  }
  // Watched namespaces are the install's choice: placeholders stand for them.
  std::vector<ModeInput> modes;
  for (const std::string& type : bundle->supported_modes()) {
    std::string mode = type;
    if (type == "SingleNamespace") mode += "=watched";
    if (type == "MultiNamespace") mode += "=watched-1,watched-2";
    BundleArgs mode_args = args;
    mode_args.install_mode = mode;
    ModeInput input;
    input.name = mode;
    std::optional<Bundle> loaded = load_bundle(mode_args, nullptr, &input.error);
    if (loaded) input.bundle = std::make_unique<Bundle>(std::move(*loaded));
    modes.push_back(std::move(input));
  }
  if (modes.empty()) {
    print_error(
        fmt::format("{}: the ClusterServiceVersion supports no install mode", bundle->csv.file));
    return kExitUsage;
  }
  std::unique_ptr<Cluster> cluster;
  if (!load_cluster_option(run.cluster_path, args.jobs, cluster)) return kExitUsage;
  Comparison comparison = compare_modes(modes, run.config, cluster.get());
  std::string out =
      render_comparison(comparison, run.format, text_options(run.color, run.output_path));
  if (!write_output(out, run.output_path, content_of(run.format))) return kExitUsage;
  bool all_failed = std::none_of(modes.begin(), modes.end(),
                                 [](const ModeInput& m) { return m.bundle != nullptr; });
  if (all_failed) {
    print_error(
        fmt::format("OLM installs this bundle in no mode; the first refusal, of mode {}:\n{}",
                    modes.front().name, modes.front().error));
    return kExitUsage;
  }
  for (const AnalysisResult& analysis : comparison.analyses) {
    if (reaches_fail_on(analysis, run.config, run.policy)) return kExitFindings;
  }
  return kExitOk;
}

}  // namespace footprint
