// libFuzzer harness: the whole audit pipeline on one input, as `footprint audit FILE` runs it
// (load, model, every check, every report format), plus image discovery and the air-gap list.
#include <cstddef>
#include <cstdint>
#include <string>

#include "analysis/analyze.h"
#include "analysis/commands/airgap.h"
#include "analysis/context.h"
#include "analysis/models/images.h"
#include "analysis/models/inventory.h"
#include "load/loader.h"
#include "report/cluster_wide.h"
#include "report/report.h"

using namespace footprint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  LoadOptions options;
  options.jobs = 1;
  options.limits.max_alias_expansion = 100'000;
  auto loaded = load_texts(
      {NamedText{"fuzz.yaml", std::string(reinterpret_cast<const char*>(data), size)}}, options);
  if (!loaded) return 0;
  Bundle bundle = build_bundle(std::move(*loaded), BundleOptions{"fuzz"});
  Context context(bundle);
  Report report;
  report.bundle = &bundle;
  report.context = &context;
  report.inventory = take_inventory(bundle);
  report.inventory.hidden_footprint = hidden_footprint_summary(context.hidden);
  report.analysis = analyze(context, Config{});
  report.sections.push_back(admission_section(context));
  report.sections.push_back(cluster_wide_section(context));
  report.sections.push_back(pod_security_section(context));
  report.sections.push_back(permissions_section(context.permissions));
  report.sections.push_back(crds_section(context));
  report.sections.push_back(images_section(bundle, context.images, true, nullptr));
  ImageSizes sizes;
  AirgapInputs inputs;
  inputs.sizes = &sizes;
  report.sections.push_back(airgap_section(airgap_items(bundle, context.images, inputs), sizes));
  for (Format format : {Format::kText, Format::kJson, Format::kMarkdown, Format::kSarif}) {
    render_report(report, format, ReportOptions{});
  }
  return 0;
}
