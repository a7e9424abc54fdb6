// footprint validate: only the custom resources checked against their CRDs (cr-schema-invalid,
// cr-rules-unchecked, crd-missing), for CI.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "analysis/analyze.h"
#include "analysis/context.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/output.h"
#include "model/units.h"
#include "report/report.h"

namespace footprint {

namespace {

constexpr Format kValidateFormats[] = {Format::kText, Format::kJson, Format::kSarif,
                                       Format::kGithub, Format::kJunit};
constexpr std::array<std::string_view, 3> kValidateChecks = {"cr-schema-invalid",
                                                             "cr-rules-unchecked", "crd-missing"};

bool validate_check(std::string_view id) {
  return std::find(kValidateChecks.begin(), kValidateChecks.end(), id) != kValidateChecks.end();
}

// How many custom resources were checked, and against CRDs from where.
Section validated_section(const Context& context) {
  size_t from_cluster = 0;
  size_t with_schema = 0;
  uint64_t rules = 0;
  for (const CustomResourceCheck& check : context.custom_resources) {
    from_cluster += check.crd_from_cluster ? 1 : 0;
    with_schema += check.has_schema ? 1 : 0;
    rules += check.schema.cel_rules;
  }
  size_t total = context.custom_resources.size();
  Section s;
  s.id = "customResources";
  s.title = "Custom resources";
  s.blocks.push_back(
      {{fmt::format("{} checked against their CRD ({} from the bundle, {} from the cluster "
                    "snapshot); {} against a structural schema.",
                    count_of(total, "custom resource"), total - from_cluster, from_cluster,
                    with_schema),
        fmt::format("CEL rules (x-kubernetes-validations) not evaluated: {}.", rules)},
       std::nullopt});
  s.json = {{"checked", total},
            {"crdFromCluster", from_cluster},
            {"withSchema", with_schema},
            {"celRulesNotEvaluated", rules}};
  return s;
}

}  // namespace

int run_validate(int argc, char** argv) {
  CLI::App app{
      "Check the custom resources of the manifests against their CRDs (from the input or "
      "--cluster), as the API server validates them.",
      "footprint validate"};
  BundleArgs bundle_args;
  add_bundle_options(app, bundle_args);
  Format format = Format::kText;
  add_format_option(app, format, kValidateFormats);
  PolicyArgs policy;
  add_policy_options(app, policy);
  ContextArgs context_args;
  add_context_options(app, context_args, {.namespaces_for = {}, .cluster = true});
  std::string output_path;
  app.add_option("-o,--output", output_path, "Write the report to this file");
  ColorOption color;
  add_color_option(app, color);
  app.footer(
      "Unlike audit, --fail-on defaults to high when .footprint.yaml sets no failOn: exit 1 when "
      "a custom resource would be refused, 0 when none is, 2 for bad arguments or input.");
  if (auto code = parse_args(app, argc, argv)) return *code;

  std::vector<std::pair<std::string, std::string>> stdin_uses;
  for (const std::string& input : bundle_args.inputs)
    stdin_uses.emplace_back("the input", input);
  stdin_uses.emplace_back("--cluster", context_args.cluster);
  if (!stdin_read_once(stdin_uses)) return kExitUsage;
  std::optional<Config> config = load_policy(policy);
  if (!config) return kExitUsage;
  // A CI gate: a resource the API server refuses fails the run unless told otherwise.
  if (policy.fail_on.empty() && !config->fail_on) policy.fail_on = "high";
  std::optional<Bundle> bundle = load_bundle(bundle_args);
  if (!bundle) return kExitUsage;
  std::vector<std::string> inputs = input_paths(bundle_args, *bundle);
  std::vector<std::string> named = context_args.paths();
  inputs.push_back(config_file(policy));
  inputs.insert(inputs.end(), named.begin(), named.end());
  if (!check_output(output_path, inputs)) return kExitUsage;
  std::optional<LoadedContext> loaded =
      load_context(context_args, *bundle, bundle_args.jobs, &bundle->input.notes);
  if (!loaded) return kExitUsage;

  Report report;
  report.bundle = &*bundle;
  report.show_inventory = false;
  report.analysis = analyze(*loaded->context, *config);
  AnalysisResult& analysis = report.analysis;
  std::erase_if(analysis.findings, [](const Finding& f) { return !validate_check(f.check); });
  analysis.suppressed =
      static_cast<size_t>(std::count_if(analysis.findings.begin(), analysis.findings.end(),
                                        [](const Finding& f) { return f.suppressed; }));
  std::erase_if(analysis.waiver_issues, [](const WaiverIssue& w) {
    return w.rule.check != "*" && !validate_check(w.rule.check);
  });
  if (!bundle->input.skipped.empty())
    report.sections.push_back(not_analysed_section(bundle->input.skipped));
  report.sections.push_back(validated_section(*loaded->context));
  ReportOptions options = text_options(color, output_path);
  if (!write_output(render_report(report, format, options), output_path, content_of(format))) {
    return kExitUsage;
  }
  return reaches_fail_on(analysis, *config, policy) ? kExitFindings : kExitOk;
}

}  // namespace footprint
