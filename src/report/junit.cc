// JUnit XML, as CI systems that read test results take it: one test suite, one test case per
// check (passing when it found nothing), and for a check with findings one <failure> whose text
// lists each finding. One element, not one per finding: Jenkins keeps only one failure per test
// case.
#include <fmt/format.h>

#include <map>

#include "analysis/check.h"
#include "report/html.h"
#include "report/labels.h"
#include "report/report.h"
#include "util/display_text.h"

namespace footprint {

namespace {

// XML 1.0 allows no control characters other than tab, LF and CR; display_text() leaves only tab
// and LF.
std::string xml_text(std::string_view text) {
  return html_escape(display_text(text));
}

}  // namespace

std::string render_junit(const Report& report, const ReportOptions& options) {
  std::map<std::string_view, std::vector<const Finding*>> by_check;
  for (const Finding& f : report.analysis.findings) {
    if (f.suppressed || f.known || f.severity < options.min_severity) continue;
    by_check[f.check].push_back(&f);
  }
  auto checks = all_checks();
  std::string cases;
  for (const Check* check : checks) {
    auto found = by_check.find(check->id);
    std::string name = xml_text(check->id);
    if (found == by_check.end()) {
      cases += fmt::format("    <testcase classname=\"footprint.{}\" name=\"{}\"/>\n",
                           xml_text(area_name(check->area)), name);
      continue;
    }
    const std::vector<const Finding*>& findings = found->second;
    Severity worst = Severity::kInfo;
    std::string text;
    for (const Finding* f : findings) {
      worst = std::max(worst, f->severity);
      RepositoryLocation at = repository_location(*report.bundle, *f);
      std::string where = at.line ? fmt::format("{}:{}", at.file, at.line) : at.file;
      text += fmt::format("{} {} ({}): {}\nFix: {}\n", severity_name(f->severity),
                          object_label(f->object), where, f->message, f->remediation);
      if (f->suppression_request) text += suppression_request_text(*f) + "\n";
      text += "\n";
    }
    cases += fmt::format(
        "    <testcase classname=\"footprint.{}\" name=\"{}\">\n"
        "      <failure message=\"{} finding{}, worst {}\" type=\"{}\">{}</failure>\n"
        "    </testcase>\n",
        xml_text(area_name(check->area)), name, findings.size(), findings.size() == 1 ? "" : "s",
        severity_name(worst), severity_name(worst), xml_text(text));
  }
  // A document that is no object is left out of the analysis: each one is a failing test case,
  // so the run never looks clean.
  const std::vector<LoadError>& invalid = report.bundle->input.invalid_documents;
  for (const LoadError& e : invalid) {
    std::string where = e.position.line
                            ? fmt::format("{}:{}:{}", e.file, e.position.line, e.position.column)
                            : e.file;
    cases += fmt::format(
        "    <testcase classname=\"footprint.input\" name=\"invalid-document {0}\">\n"
        "      <failure message=\"not a valid object: {0}\" type=\"invalid-document\">{1}"
        "</failure>\n"
        "    </testcase>\n",
        xml_text(where),
        xml_text(e.to_string() + "\nThe document is left out of the analysis, and applying the "
                                 "input fails on it.\n"));
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites name=\"footprint\" tests=\"{0}\" failures=\"{1}\" errors=\"0\">\n"
      "  <testsuite name=\"footprint audit\" tests=\"{0}\" failures=\"{1}\" errors=\"0\" "
      "skipped=\"0\">\n{2}  </testsuite>\n</testsuites>\n",
      checks.size() + invalid.size(), by_check.size() + invalid.size(), cases);
}

}  // namespace footprint
