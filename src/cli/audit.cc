#include <fmt/format.h>

#include <functional>
#include <set>

#include "analysis/analyze.h"
#include "analysis/baseline.h"
#include "analysis/check.h"
#include "analysis/context.h"
#include "analysis/models/crd_models.h"
#include "analysis/models/inventory.h"
#include "analysis/models/rbac_models.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/deploy_options.h"
#include "cli/olm_modes.h"
#include "load/parallel.h"
#include "model/names.h"
#include "model/namespaces.h"
#include "report/cluster_wide.h"
#include "report/report.h"

namespace footprint {

namespace {
constexpr Format kAuditFormats[] = {Format::kText,  Format::kJson, Format::kMarkdown,
                                    Format::kSarif, Format::kHtml, Format::kGithub,
                                    Format::kJunit};
}  // namespace

int run_audit(int argc, char** argv) {
  CLI::App app{"Report what installing these manifests does to a cluster, and how to fix it.",
               "footprint audit"};
  BundleArgs bundle_args;
  add_bundle_options(app, bundle_args);
  Format format = Format::kText;
  add_format_option(app, format, kAuditFormats);
  std::string min_severity = "info";
  CLI::Option* min_severity_option =
      app.add_option("--min-severity", min_severity,
                     "With --format github or junit, leave out findings below this severity: "
                     "info, low, medium, high or critical (refused with other formats, which "
                     "report every finding)")
          ->check(CLI::IsMember({"info", "low", "medium", "high", "critical"}))
          ->capture_default_str();
  PolicyArgs policy;
  add_policy_options(app, policy);
  ContextArgs context_args;
  add_context_options(app, context_args,
                      {.namespaces_for = "to measure webhook blast radius against; default: system "
                                         "namespaces, the bundle's, and one other team's",
                       .cluster = true,
                       .expect = true});
  add_repeatable(app, "--own-namespace", bundle_args.own_namespaces,
                 "A namespace the operator manages that the bundle does not show, as given to "
                 "`fix webhooks --scope own`: webhooks reaching it do not reach other teams");
  DeployArgs deploy;
  add_deploy_options(app, deploy);
  Provider provider = Provider::kGeneric;
  add_provider_option(app, provider);
  std::string baseline_path;
  app.add_option("--baseline", baseline_path,
                 "A previous `--format json` report: its findings are marked known and never "
                 "reach --fail-on; the report counts new, resolved and known findings");
  std::string output_path;
  app.add_option("-o,--output", output_path, "Write the report to this file");
  ColorOption color;
  add_color_option(app, color);
  if (auto code = parse_args(app, argc, argv)) return *code;
  // A report that lists every finding would silently ignore it.
  if (min_severity_option->count() > 0 && format != Format::kGithub && format != Format::kJunit) {
    print_error(fmt::format(
        "--min-severity applies to --format github and junit only; the {} report lists every "
        "finding (to fail only on severe ones, use --fail-on)",
        name_of(format).name));
    return kExitUsage;
  }

  for (const std::string& ns : bundle_args.own_namespaces) {
    if (!is_dns1123_label(ns) || is_system_namespace(ns)) {
      print_error(fmt::format("--own-namespace {}: {}", ns,
                              is_system_namespace(ns)
                                  ? "a system namespace is never the operator's alone"
                                  : "not a namespace name (a DNS-1123 label)"));
      return kExitUsage;
    }
  }

  std::vector<std::pair<std::string, std::string>> stdin_uses;
  for (const std::string& input : bundle_args.inputs)
    stdin_uses.emplace_back("the input", input);
  stdin_uses.insert(stdin_uses.end(), {{"--baseline", baseline_path},
                                       {"--expect", context_args.expect},
                                       {"--namespaces", context_args.namespaces},
                                       {"--cluster", context_args.cluster}});
  if (!stdin_read_once(stdin_uses)) return kExitUsage;
  std::optional<Config> config = load_policy(policy);
  if (!config) return kExitUsage;
  std::optional<Baseline> baseline;
  if (!baseline_path.empty()) {
    auto loaded = load_baseline(baseline_path);
    if (!loaded) {
      print_load_errors({loaded.error()});
      return kExitUsage;
    }
    baseline = std::move(*loaded);
  }
  if (audits_olm_modes(bundle_args)) {
    // The comparison reads neither: each belongs to one install.
    if (!baseline_path.empty() || !context_args.expect.empty()) {
      print_error("--baseline and --expect apply to one install mode of an OLM bundle");
      print_hint("choose it with --install-mode");
      return kExitUsage;
    }
    return audit_olm_modes(
        {bundle_args, policy, *config, format, output_path, color, context_args.cluster});
  }
  std::vector<RenderedChart> charts;
  bundle_args.keep_valid_documents = true;
  std::optional<Bundle> bundle = load_bundle(bundle_args, &charts);
  if (!bundle) return kExitUsage;
  std::vector<std::string> inputs = input_paths(bundle_args, *bundle);
  std::vector<std::string> named = context_args.paths();
  inputs.push_back(config_file(policy));
  inputs.insert(inputs.end(), named.begin(), named.end());
  inputs.push_back(baseline_path);
  if (!check_output(output_path, inputs)) return kExitUsage;

  std::optional<LoadedContext> loaded =
      load_context(context_args, *bundle, bundle_args.jobs, &bundle->input.notes);
  if (!loaded) return kExitUsage;
  Context& context = *loaded->context;
  if (charts.size() == 1) context.release = charts.front().release;
  context.deploy_with = deploy.paths(bundle->input.delivery_paths);
  context.provider = provider;

  Report report;
  report.bundle = &*bundle;
  report.context = &context;
  report.inventory = context.inventory;
  report.inventory.hidden_footprint = hidden_footprint_summary(context.hidden);
  // The analysis and the sections only read the Context: they are made at once.
  Section area_sections[5];
  Section delivery;
  const std::function<void()> tasks[] = {
      [&] { report.analysis = analyze(context, *config); },
      [&] { area_sections[0] = admission_section(context); },
      [&] { area_sections[1] = cluster_wide_section(context); },
      [&] { area_sections[2] = pod_security_section(context); },
      [&] { area_sections[3] = permissions_section(context.permissions, section_parts(format)); },
      [&] { area_sections[4] = crds_section(context); },
      [&] { delivery = delivery_section(context); },
  };
  parallel_for(std::size(tasks), bundle->input.jobs, [&](size_t i) { tasks[i](); });
  if (baseline) apply_baseline(report.analysis, *baseline);
  const std::vector<LoadError>& invalid = bundle->input.invalid_documents;
  if (!invalid.empty()) report.sections.push_back(invalid_documents_section(invalid));
  if (!bundle->input.skipped.empty())
    report.sections.push_back(not_analysed_section(bundle->input.skipped));
  if (!charts.empty()) report.sections.push_back(chart_section(charts));
  for (Section& section : area_sections)
    report.sections.push_back(std::move(section));
  if (!delivery.blocks.empty()) report.sections.push_back(std::move(delivery));

  ReportOptions options = text_options(color, output_path);
  options.min_severity = checked_severity(min_severity);
  if (!write_output(render_report(report, format, options), output_path, content_of(format))) {
    return kExitUsage;
  }
  // The report covers the valid objects only, so it must not pass for a clean run.
  if (!invalid.empty()) {
    print_load_errors(invalid);
    return kExitUsage;
  }
  if (reaches_fail_on(report.analysis, *config, policy)) return kExitFindings;
  return kExitOk;
}

}  // namespace footprint
