#include <fmt/color.h>
#include <fmt/format.h>

#include "analysis/baseline.h"
#include "report/labels.h"
#include "report/overview.h"
#include "report/report.h"
#include "util/display_text.h"
#include "util/strings.h"

namespace footprint {

namespace {

fmt::text_style severity_style(Severity severity) {
  switch (severity) {
    case Severity::kCritical:
      return fmt::fg(fmt::terminal_color::bright_red) | fmt::emphasis::bold;
    case Severity::kHigh:
      return fmt::fg(fmt::terminal_color::red) | fmt::emphasis::bold;
    case Severity::kMedium:
      return fmt::fg(fmt::terminal_color::yellow) | fmt::emphasis::bold;
    case Severity::kLow:
      return fmt::fg(fmt::terminal_color::cyan);
    case Severity::kInfo:
      break;
  }
  return fmt::emphasis::faint;
}

// A line of names, wrapped like a table row: on a screen at its width, with continuation lines
// indented by two more; in a file or a pipe whole, so grep finds it.
std::string names_line(std::string_view text, size_t indent, const ReportOptions& options) {
  return wrap_text(text, indent + 2, options.table_width).substr(2);
}

std::string inputs_line(const Report& report, const ReportOptions& options) {
  const LoadedInput& input = report.bundle->input;
  std::string what =
      input.files.size() == 1 ? input.files[0] : fmt::format("{} files", input.files.size());
  return names_line(fmt::format("footprint {}: {} ({} bytes)", FOOTPRINT_VERSION, what,
                                with_commas(report.inventory.input_bytes)),
                    0, options);
}

void render_section(const Section& s, const ReportOptions& options, std::string& out) {
  out += "\n" + paint(options.color, fmt::emphasis::bold, s.title) + "\n";
  for (size_t i = 0; i < s.blocks.size(); ++i) {
    const Block& b = s.blocks[i];
    if (i > 0) out += "\n";
    for (const std::string& line : b.lines)
      out += wrap_text(line, b.indent, options.width);
    if (b.table) out += render_text_table(*b.table, b.indent, options.table_width);
  }
}

std::string location(const Report& report, const Finding& f) {
  // A chart's rendered stream is not a file: name the chart, and the renderer apart from it.
  if (std::string_view renderer = report.bundle->input.renderer_of(f.file); !renderer.empty()) {
    std::string where = fmt::format("{} (rendered by {}", f.file, renderer);
    // OLM's objects come from a line of the bundle, a chart's from a template.
    std::string_view from = renderer == "olm" ? "from" : "template";
    if (!f.helm_template.empty()) where += fmt::format("; {} {}", from, f.helm_template);
    if (f.position.line) where += fmt::format("; line {} of the rendered output", f.position.line);
    return where + ")";
  }
  std::string where = f.position.line ? fmt::format("{}:{}", f.file, f.position.line) : f.file;
  if (!f.helm_template.empty()) where += fmt::format(" (template {})", f.helm_template);
  return where;
}

void render_overview(const Overview& o, const ReportOptions& options, std::string& out) {
  out += "\n" + paint(options.color, fmt::emphasis::bold, "Summary") + "\n";
  for (const std::string& line : o.creates)
    out += wrap_text(line, 2, options.width);
  if (o.total == 0) {
    out += wrap_text("No findings.", 2, options.width);
    if (!o.input_suppressions.empty()) out += wrap_text(o.input_suppressions, 2, options.width);
    return;
  }
  out += wrap_text(fmt::format("{} finding{} ({}){}", o.total, o.total == 1 ? "" : "s",
                               counts_text(o), o.risks.empty() ? "." : "; the worst:"),
                   2, options.width);
  for (const OverviewRisk& r : o.risks) {
    // "    #1   HIGH     text...", continuation lines under the text.
    std::string number = fmt::format("#{:<3} ", r.number);
    std::string label = fmt::format("{:<8} ", upper(severity_name(r.severity)));
    size_t indent = 4 + number.size() + label.size();
    std::string body = wrap_text(r.text, indent, options.width);
    out += std::string(4, ' ') + number + paint(options.color, severity_style(r.severity), label) +
           body.substr(indent);
  }
  if (!o.input_suppressions.empty()) out += wrap_text(o.input_suppressions, 2, options.width);
  if (o.total > o.risks.size()) {
    out +=
        wrap_text(fmt::format("The tables follow; all {} findings, numbered, at the end.", o.total),
                  2, options.width);
  }
}

void render_findings(const Report& report, const ReportOptions& options, std::string& out) {
  const auto& findings = report.analysis.findings;
  size_t counts[5] = {};
  for (const Finding& f : findings) {
    if (!f.suppressed) ++counts[static_cast<size_t>(f.severity)];
  }
  std::string summary;
  for (Severity s : kWorstFirst) {
    size_t n = counts[static_cast<size_t>(s)];
    if (n) summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", n, severity_name(s));
  }
  if (summary.empty()) summary = "none";
  if (report.analysis.suppression_requests) {
    summary += fmt::format("; the chart asks to suppress {}", report.analysis.suppression_requests);
  }
  if (report.analysis.suppressed) {
    summary += fmt::format("; {} suppressed", report.analysis.suppressed);
  }
  out += "\n" + paint(options.color, fmt::emphasis::bold, "Findings: " + summary) + "\n";
  size_t number = 0;
  for (Severity severity : kWorstFirst) {
    if (counts[static_cast<size_t>(severity)] == 0) continue;
    out += "\n" + paint(options.color, severity_style(severity), upper(severity_name(severity))) +
           "\n";
    for (const Finding& f : findings) {
      if (f.severity != severity || f.suppressed) continue;
      out += names_line(
          fmt::format("#{} {}  {}{}", ++number, paint(options.color, fmt::emphasis::bold, f.check),
                      object_label(f.object), baseline_mark(f, "  ")),
          2, options);
      out += wrap_text(location(report, f), 4, options.width);
      out += wrap_text(f.message, 4, options.width);
      out += wrap_text("Fix: " + f.remediation, 4, options.width);
      if (f.suppression_request) out += wrap_text(suppression_request_text(f), 4, options.width);
    }
  }
  if (report.analysis.suppressed) {
    out += "\nSuppressed\n";
    for (const Finding& f : findings) {
      if (!f.suppressed) continue;
      std::string reason = f.suppression_reason.empty() ? "no reason given" : f.suppression_reason;
      out += wrap_text(fmt::format("{} {} {}: {} ({})", severity_name(f.severity), f.check,
                                   object_label(f.object), reason, f.suppressed_by),
                       2, options.width);
    }
  }
}

// The baseline's findings that are gone, so a reviewer sees what a change fixed.
void render_resolved(const AnalysisResult& analysis, const ReportOptions& options,
                     std::string& out) {
  if (!analysis.resolved || analysis.resolved->empty()) return;
  out += "\n" + paint(options.color, fmt::emphasis::bold, "Resolved since the baseline") + "\n";
  for (const ResolvedFinding& r : *analysis.resolved) {
    const Finding& f = r.finding;
    std::string where = f.position.line ? fmt::format("{}:{}", f.file, f.position.line) : f.file;
    out += wrap_text(fmt::format("{} {} {} (at {} in the baseline)", severity_name(f.severity),
                                 f.check, object_label(f.object), where),
                     2, options.width);
  }
}

// Where the findings of an expired waiver went: reported above, unless another waiver or a
// trusted annotation suppresses them.
std::string expired_findings_text(const WaiverIssue& w) {
  size_t reported = w.findings - w.suppressed_otherwise;
  auto is = [](size_t n) { return n == 1 ? "is" : "are"; };
  auto plural = [](size_t n) { return n == 1 ? "" : "s"; };
  if (w.suppressed_otherwise == 0) {
    return fmt::format("the {} finding{} it matches {} reported above", w.findings,
                       plural(w.findings), is(w.findings));
  }
  if (reported == 0) {
    return fmt::format(
        "the {} finding{} it matches {} under Suppressed: another waiver or a trusted annotation "
        "suppresses {}",
        w.findings, plural(w.findings), is(w.findings), w.findings == 1 ? "it" : "them");
  }
  return fmt::format(
      "of the {} findings it matches, {} {} reported above and {} under Suppressed (another "
      "waiver or a trusted annotation suppresses {})",
      w.findings, reported, is(reported), w.suppressed_otherwise,
      w.suppressed_otherwise == 1 ? "it" : "them");
}

// Waivers that need their owner: listed after the findings they no longer waive.
void render_waiver_issues(const AnalysisResult& analysis, const ReportOptions& options,
                          std::string& out) {
  if (analysis.waiver_issues.empty()) return;
  out += "\n" + paint(options.color, fmt::emphasis::bold, "Waivers to review") + "\n";
  for (const WaiverIssue& w : analysis.waiver_issues) {
    std::string who = w.rule.owner.empty() ? "no owner" : "owner " + w.rule.owner;
    if (!w.rule.ticket.empty()) who += ", ticket " + w.rule.ticket;
    std::string line = w.expired
                           ? fmt::format(
                                 "{}: the waiver of {} expired on {} ({}): it waives nothing now, "
                                 "and {}.",
                                 w.at, w.rule.check, w.rule.expires, who, expired_findings_text(w))
                           : fmt::format("{}: the waiver of {} matches no finding ({}): remove it.",
                                         w.at, w.rule.check, who);
    out += wrap_text(line, 2, options.width);
  }
}

}  // namespace

std::string render_text(const Report& report, const ReportOptions& options) {
  std::string out;
  // A CI gate's reader wants the change first.
  if (report.analysis.resolved) {
    out += baseline_counts_text(baseline_counts(report.analysis)) + " (against the baseline)\n";
  }
  out += inputs_line(report, options);
  render_overview(make_overview(report), options, out);
  if (report.show_inventory) render_section(inventory_section(report.inventory), options, out);
  for (const Section& s : report.sections)
    render_section(s, options, out);
  render_findings(report, options, out);
  render_resolved(report.analysis, options, out);
  render_waiver_issues(report.analysis, options, out);
  std::vector<std::string> notes = report.bundle->input.notes;
  notes.insert(notes.end(), report.analysis.notes.begin(), report.analysis.notes.end());
  if (!notes.empty()) {
    out += "\nNotes\n";
    for (const std::string& note : notes)
      out += wrap_text(note, 2, options.width);
  }
  return out;
}

}  // namespace footprint
