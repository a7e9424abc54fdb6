#include "report/overview.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/units.h"

namespace footprint {

namespace {

// Findings the first screen lists by name; the rest are counted.
constexpr size_t kTopRisks = 8;

std::string plural(uint32_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::vector<std::string> creates_lines(const Inventory& inv) {
  std::vector<std::string> kinds;
  for (const KindCount& k : inv.kinds) {
    if (k.cluster) kinds.push_back(fmt::format("{} {}", k.cluster, k.key));
  }
  std::vector<std::string> namespaces;
  for (const NamespaceUsage& ns : inv.namespaces)
    namespaces.push_back(ns.name);
  std::string line = fmt::format("Creates {}", plural(inv.objects, "object", "objects"));
  std::vector<std::string> parts;
  if (inv.cluster_scoped) {
    parts.push_back(fmt::format("{} cluster-scoped ({})", inv.cluster_scoped, some_of(kinds, 5)));
  }
  if (inv.namespaced) {
    parts.push_back(fmt::format("{} in {} {}", inv.namespaced,
                                namespaces.size() == 1 ? "namespace" : "namespaces",
                                some_of(namespaces, 3)));
  }
  if (inv.unknown_scope) {
    parts.push_back(fmt::format("{} of kinds whose CRD is not in the input", inv.unknown_scope));
  }
  if (!parts.empty()) line += ": " + fmt::format("{}", fmt::join(parts, "; "));
  std::vector<std::string> out = {line + "."};
  if (inv.webhooks()) {
    out.push_back(
        fmt::format("Adds {} ({} mutating, {} validating) to the API server's "
                    "admission path.",
                    plural(inv.webhooks(), "admission webhook", "admission webhooks"),
                    inv.mutating_webhooks, inv.validating_webhooks));
  }
  if (!inv.hidden_footprint.empty()) {
    out.emplace_back("Beyond these objects, it may install or change CRDs at run time.");
  }
  return out;
}

}  // namespace

Overview make_overview(const Report& report) {
  Overview o;
  o.creates = report.show_inventory ? creates_lines(report.inventory) : std::vector<std::string>{};
  // What the report leaves out comes first: it is why the run exits 2.
  if (report.bundle && !report.bundle->input.invalid_documents.empty()) {
    const std::vector<LoadError>& invalid = report.bundle->input.invalid_documents;
    size_t n = count_documents(invalid);
    std::string listed = invalid.size() == n
                             ? std::string("listed below")
                             : fmt::format("{} problems listed below", invalid.size());
    o.creates.insert(
        o.creates.begin(),
        fmt::format("{} not {} and {} left out of this report ({}).",
                    n == 1 ? "One document is" : fmt::format("{} documents are", n),
                    n == 1 ? "a valid object" : "valid objects", n == 1 ? "is" : "are", listed));
  }
  // Counted where the report lists them.
  bool lists_skipped = std::any_of(report.sections.begin(), report.sections.end(),
                                   [](const Section& s) { return s.id == "notAnalysed"; });
  if (lists_skipped) o.creates.push_back(not_analysed_line(report.bundle->input.skipped));
  size_t number = 0;
  for (const Finding& f : report.analysis.findings) {
    if (f.suppressed) continue;
    ++number;
    ++o.counts[static_cast<size_t>(f.severity)];
    bool listed =
        o.risks.size() < kTopRisks && (f.severity >= Severity::kMedium || o.risks.size() < 3);
    if (!listed) continue;
    std::string text = f.summary.empty() ? f.message.substr(0, f.message.find(". ")) : f.summary;
    o.risks.push_back(OverviewRisk{number, f.severity, f.check, std::move(text)});
  }
  o.total = number;
  size_t by_input = 0;
  for (const Finding& f : report.analysis.findings)
    by_input += f.suppressed && f.suppressed_by == kIgnoreAnnotation ? 1 : 0;
  size_t asked = report.analysis.suppression_requests;
  if (asked > 0) {
    o.input_suppressions = fmt::format(
        "The chart asks to suppress {} of these findings ({}); they are reported, and count for "
        "--fail-on: each says why.",
        asked, kIgnoreAnnotation);
  }
  if (by_input > 0) {
    if (!o.input_suppressions.empty()) o.input_suppressions += " ";
    o.input_suppressions += fmt::format(
        "{} suppressed by {} annotations in the input, which you chose to trust.",
        plural(static_cast<uint32_t>(by_input), "finding", "findings"), kIgnoreAnnotation);
  }
  return o;
}

std::string counts_text(const Overview& o) {
  std::string out;
  for (int s = static_cast<int>(Severity::kCritical); s >= 0; --s) {
    size_t n = o.counts[static_cast<size_t>(s)];
    if (!n) continue;
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}", n, severity_name(static_cast<Severity>(s)));
  }
  return out.empty() ? "none" : out;
}

}  // namespace footprint
