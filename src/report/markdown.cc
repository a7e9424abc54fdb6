#include <fmt/format.h>

#include "analysis/baseline.h"
#include "report/labels.h"
#include "report/overview.h"
#include "report/report.h"

namespace footprint {

namespace {

std::string code(std::string_view s) {
  return markdown_code(s);
}

void render_section(const Section& s, std::string& out) {
  out += fmt::format("\n### {}\n\n", escape_markdown(s.title));
  for (const Block& b : s.blocks) {
    for (const std::string& line : b.lines) {
      // Sections write list items as "- item": the marker stays markdown, the item is text.
      bool item = line.starts_with("- ");
      out += (item ? "- " + escape_markdown(line.substr(2)) : escape_markdown(line)) + "\n\n";
    }
    if (const std::optional<Table>& table = b.table) out += render_markdown_table(*table) + "\n";
  }
}

}  // namespace

std::string render_markdown(const Report& report) {
  std::string out = "## footprint report\n";
  if (report.analysis.resolved) {
    // "**1 new**, 1 worse, 2 resolved, 5 known (against the baseline)."
    std::string counts = baseline_counts_text(baseline_counts(report.analysis));
    size_t comma = counts.find(',');
    out += fmt::format("\n**{}**{} (against the baseline).\n", counts.substr(0, comma),
                       counts.substr(comma));
  }
  const LoadedInput& input = report.bundle->input;
  out += fmt::format(
      "\nInput: {} ({} bytes).\n",
      input.files.size() == 1 ? code(input.files[0]) : fmt::format("{} files", input.files.size()),
      with_commas(report.inventory.input_bytes));
  Overview overview = make_overview(report);
  out += "\n### Summary\n\n";
  for (const std::string& line : overview.creates)
    out += escape_markdown(line) + "\n\n";
  if (overview.total == 0) {
    out += "No findings.\n";
    if (!overview.input_suppressions.empty())
      out += "\n" + escape_markdown(overview.input_suppressions) + "\n";
  } else {
    out += fmt::format("{} finding{} ({}){}\n\n", overview.total, overview.total == 1 ? "" : "s",
                       counts_text(overview), overview.risks.empty() ? "." : "; the worst:");
    for (const OverviewRisk& r : overview.risks) {
      out += fmt::format("- **{}** {} (finding {}, {})\n", severity_name(r.severity),
                         escape_markdown(r.text), r.number, code(r.check));
    }
    if (!overview.input_suppressions.empty())
      out += "\n" + escape_markdown(overview.input_suppressions) + "\n";
  }
  if (report.show_inventory) render_section(inventory_section(report.inventory), out);
  for (const Section& s : report.sections)
    render_section(s, out);

  const auto& findings = report.analysis.findings;
  size_t shown = findings.size() - report.analysis.suppressed;
  out += fmt::format("\n### Findings ({})\n\n", shown);
  if (shown == 0) out += "No findings.\n";
  size_t number = 0;
  for (const Finding& f : findings) {
    if (f.suppressed) continue;
    std::string object =
        f.object.namespace_.empty() ? f.object.name : f.object.namespace_ + "/" + f.object.name;
    std::string_view renderer = input.renderer_of(f.file);
    std::string where = renderer.empty()
                            ? code(fmt::format("{}:{}", f.file, f.position.line))
                            : fmt::format("{}, rendered by {}", code(f.file), renderer);
    if (!f.helm_template.empty()) where += ", template " + code(f.helm_template);
    if (!renderer.empty())
      where += fmt::format(", line {} of the rendered output", f.position.line);
    out += fmt::format("{}. **{}** {} {} {} ({}){}  \n   {}  \n   **Fix:** {}\n", ++number,
                       severity_name(f.severity), code(f.check), escape_markdown(f.object.kind),
                       code(object), where, baseline_mark(f, " "), escape_markdown(f.message),
                       escape_markdown(f.remediation));
    if (f.suppression_request) {
      out.pop_back();  // the Fix line ends in a hard line break instead
      out += "  \n   **" + escape_markdown(suppression_request_text(f)) + "**\n";
    }
  }
  if (report.analysis.resolved && !report.analysis.resolved->empty()) {
    out += "\n### Resolved since the baseline\n\n";
    for (const ResolvedFinding& r : *report.analysis.resolved) {
      const Finding& f = r.finding;
      std::string object =
          f.object.namespace_.empty() ? f.object.name : f.object.namespace_ + "/" + f.object.name;
      out += fmt::format("- **{}** {} {} {} (at {} in the baseline)\n", severity_name(f.severity),
                         code(f.check), escape_markdown(f.object.kind), code(object),
                         code(fmt::format("{}:{}", f.file, f.position.line)));
    }
  }
  if (!report.analysis.waiver_issues.empty()) {
    out += "\n### Waivers to review\n\n";
    for (const WaiverIssue& w : report.analysis.waiver_issues) {
      std::string who = w.rule.owner.empty() ? "no owner" : "owner " + w.rule.owner;
      if (!w.rule.ticket.empty()) who += ", ticket " + w.rule.ticket;
      size_t reported = w.findings - w.suppressed_otherwise;
      std::string otherwise = w.suppressed_otherwise == 0
                                  ? ""
                                  : fmt::format(
                                        ", {} suppressed by another waiver or a trusted "
                                        "annotation",
                                        w.suppressed_otherwise);
      out += w.expired ? fmt::format(
                             "- {}: the waiver of {} expired on {} ({}); {} finding{} "
                             "reported again{}\n",
                             code(w.at), code(w.rule.check), w.rule.expires, escape_markdown(who),
                             reported, reported == 1 ? "" : "s", otherwise)
                       : fmt::format("- {}: the waiver of {} matches no finding ({}): remove it\n",
                                     code(w.at), code(w.rule.check), escape_markdown(who));
    }
  }
  if (report.analysis.suppressed) {
    out +=
        fmt::format("\n<details><summary>{} suppressed</summary>\n\n", report.analysis.suppressed);
    for (const Finding& f : findings) {
      if (!f.suppressed) continue;
      out += fmt::format(
          "- {} {} {} {}: {}\n", severity_name(f.severity), code(f.check),
          escape_markdown(f.object.kind), code(f.object.name),
          f.suppression_reason.empty() ? "no reason given" : escape_markdown(f.suppression_reason));
    }
    out += "\n</details>\n";
  }
  return out;
}

}  // namespace footprint
