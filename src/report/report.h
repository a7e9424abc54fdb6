// Renders an audit as text, JSON, Markdown or SARIF. Output depends only on the input: no
// times, no absolute paths, stable order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/commands/airgap.h"
#include "analysis/compare/compare.h"
#include "analysis/models/crd_models.h"
#include "analysis/models/images.h"
#include "analysis/models/inventory.h"
#include "analysis/models/rbac_models.h"
#include "load/helm.h"
#include "model/object.h"
#include "report/format.h"
#include "report/section.h"

namespace footprint {

struct Context;

struct ReportOptions {
  bool color = false;  // ANSI colours in text output
  size_t width = 100;  // prose wraps here
  // Tables fit here (wrapping cells, or one record per row when the columns cannot fit): the
  // terminal's width or COLUMNS, else never wrapped (one line per row).
  size_t table_width = kNoWrap;
  // GitHub annotations and JUnit failures leave out findings below this severity.
  Severity min_severity = Severity::kInfo;
};

struct Report {
  const Bundle* bundle = nullptr;
  Inventory inventory;
  AnalysisResult analysis;
  // Area sections shown between the footprint and the findings.
  std::vector<Section> sections;
  bool show_inventory = true;  // false for commands that report only their own sections
  // The models the sections came from; the HTML page draws its pictures from them (null: none).
  const Context* context = nullptr;
};

std::string render_report(const Report& report, Format format, const ReportOptions& options);

// The install footprint as a section; its JSON is the report's "inventory".
Section inventory_section(const Inventory& inventory);

// How charts were rendered, and what their .Capabilities checks change; its JSON is "charts".
Section chart_section(const std::vector<RenderedChart>& charts);

// Admission webhooks and policies with their scope and failure modes; its JSON is the
// report's "admission".
Section admission_section(const Context& context);

// The documents the loader could not read as objects (LoadedInput::invalid_documents), with
// file:line:col; its JSON is "invalidDocuments".
Section invalid_documents_section(const std::vector<LoadError>& invalid);

// What the input holds that was not analysed (LoadedInput::skipped), each with its reason; its
// JSON is "notAnalysed". The summary's line about it is not_analysed_line.
Section not_analysed_section(const std::vector<Skipped>& skipped);
std::string not_analysed_line(const std::vector<Skipped>& skipped);

// Effective permissions per subject; its JSON is the report's "permissions".
Section permissions_section(const std::vector<SubjectPermissions>& subjects,
                            SectionParts parts = {});
// What `format` reads of a section.
SectionParts section_parts(Format format);

// CRDs: sizes against the install path's limits, conversion webhooks, CRDs the bundle needs but
// lacks, and CRDs created at run time; its JSON is the report's "crds".
Section crds_section(const Context& context);

// Per delivery path (kubectl, Helm, Argo CD, Flux, kapp, OLM; those of --deploy-with when given),
// whether each object that meets a size limit installs; its JSON is "deliveryPaths". No blocks
// when no object meets a limit.
Section delivery_section(const Context& context);

// Roles and bindings that give each broken subject an unrestricted get, list and watch where a
// resourceNames rule made its informer fail, with the trade-off in comments. Empty when there
// is nothing to fix.
std::string render_rbac_fix(const std::vector<ListWatchTrap>& traps);

// A comparison of install modes as text, Markdown or JSON.
std::string render_comparison(const Comparison& comparison, Format format,
                              const ReportOptions& options);
// Discovered images, invalid image fields and models: tables, and JSON under "images". With
// registry results (--sizes, --pin), each image's size, digest or error too.
Section images_section(const Bundle& bundle, const ImageInventory& images, bool include_possible,
                       const ImageSizes* sizes = nullptr);
Json image_json(const Bundle& bundle, const ImageInventory& images, const Image& image);
Json model_json(const Bundle& bundle, const ModelUse& model);

// The import list: one row per image, chart, subchart and model; JSON under "airgap".
// `sizes` carries the limits, and the registry results when --sizes or --pin asked for them.
Section airgap_section(const std::vector<AirgapItem>& items, const ImageSizes& sizes);

// What the registries answered: the platform and deduplicated total, pinned references, and the
// images that could not be read. Empty when nothing was asked.
std::vector<Block> registry_blocks(const ImageSizes& sizes);
// An image's registry result as JSON fields (bytes, digest, platforms, pinnedReference, error).
void add_registry_json(Json& j, const ImageSizes& sizes, const std::string& reference);
// The section's totalBytes: null when no image could be read (the size is unknown, not 0), and a
// lower bound when some could not.
Json total_bytes_json(const ImageSizes& sizes);

// docs/checks.md: the severity rules, the catalogue and one section per check.
std::string render_checks_markdown();

// One finding as JSON, as it appears in the report's "findings" array.
Json finding_json(const Finding& finding);

// What every format shows on a finding a footprint.dev/ignore annotation of the input asks to
// suppress (Finding::suppression_request): "The chart asks to suppress this: REASON", and why
// that is not honoured.
std::string suppression_request_text(const Finding& finding);

// Where a finding points in the user's repository, as SARIF and GitHub annotations show it: the
// file and line, or for a chart input the template that produced the object (line 0: unknown).
struct RepositoryLocation {
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
};
RepositoryLocation repository_location(const Bundle& bundle, const Finding& finding);

std::string render_text(const Report& report, const ReportOptions& options);
std::string render_json(const Report& report);
std::string render_markdown(const Report& report);
std::string render_sarif(const Report& report);
// GitHub Actions workflow commands, one ::error, ::warning or ::notice per finding neither
// suppressed nor known from the baseline.
std::string render_github(const Report& report, const ReportOptions& options);
// JUnit XML: one test case per check, a failure per finding.
std::string render_junit(const Report& report, const ReportOptions& options);

}  // namespace footprint
