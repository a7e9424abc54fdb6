#include "report/html.h"

#include <fmt/format.h>

#include <filesystem>
#include <set>
#include <string>
#include <string_view>

#include "analysis/check.h"
#include "analysis/context.h"
#include "report/labels.h"
#include "report/overview.h"

namespace footprint {

namespace {

// The label of one affected item: "1 subject", not "1 subjects". Labels that are no plural noun
// ("gained by", "readable") stay as they are.
std::string singular_of(std::string_view label) {
  for (std::string_view plural :
       {"webhooks", "configurations", "requests", "subjects", "roles", "rules", "namespaces",
        "objects", "kinds", "resources", "rights", "risks", "grants", "changes"}) {
    if (label == plural || label.ends_with(fmt::format(" {}", plural))) {
      return std::string(label.substr(0, label.size() - 1));
    }
  }
  return std::string(label);
}

std::string location(const Finding& f) {
  std::string where = f.position.line ? fmt::format("{}:{}", f.file, f.position.line) : f.file;
  if (!f.helm_template.empty()) where += fmt::format(" (template {})", f.helm_template);
  return where;
}

std::string summary_html(const Report& report) {
  Overview o = make_overview(report);
  std::string out = "<section id=\"summary\">\n<h2>Summary</h2>\n";
  for (const std::string& line : o.creates)
    out += "<p>" + html_escape(line) + "</p>\n";
  out += fmt::format("<p id=\"finding-counts\" data-total=\"{}\">{} finding{}:", o.total, o.total,
                     o.total == 1 ? "" : "s");
  for (Severity s : kWorstFirst) {
    size_t n = o.counts[static_cast<size_t>(s)];
    if (n)
      out += fmt::format(" {} <b data-severity=\"{}\">{}</b>", html_badge(s), severity_name(s), n);
  }
  if (o.total == 0) out += " none";
  out += "</p>\n";
  if (!o.input_suppressions.empty())
    out += "<p><b>" + html_escape(o.input_suppressions) + "</b></p>\n";
  if (!o.risks.empty()) {
    out += "<ol class=\"risks\">\n";
    for (const OverviewRisk& r : o.risks) {
      out += fmt::format("<li value=\"{0}\">{1} <a href=\"#finding-{0}\">#{0}</a> {2}</li>\n",
                         r.number, html_badge(r.severity), html_escape(r.text));
    }
    out += "</ol>\n";
  }
  return out + "</section>\n";
}

std::string findings_html(const Report& report) {
  const auto& findings = report.analysis.findings;
  std::set<std::string> checks;
  for (const Finding& f : findings) {
    if (!f.suppressed) checks.insert(f.check);
  }
  std::string out = "<section id=\"findings\">\n<h2>Findings</h2>\n";
  out +=
      "<div class=\"filters\"><label>Severity at least <select id=\"filter-severity\">"
      "<option value=\"info\">info</option><option value=\"low\">low</option>"
      "<option value=\"medium\">medium</option><option value=\"high\">high</option>"
      "<option value=\"critical\">critical</option></select></label> "
      "<label>Check <select id=\"filter-check\"><option value=\"\">all</option>";
  for (const std::string& c : checks)
    out += fmt::format("<option value=\"{0}\">{0}</option>", html_escape(c));
  out +=
      "</select></label> <label>Text <input id=\"filter-text\" type=\"search\"/></label> "
      "<span><b id=\"filter-count\"></b> shown</span></div>\n";
  size_t number = 0;
  // Numbered as in the text report: worst first, suppressed ones apart.
  for (Severity severity : kWorstFirst) {
    for (const Finding& f : findings) {
      if (f.severity != severity || f.suppressed) continue;
      ++number;
      std::string name(severity_name(f.severity));
      out += fmt::format(
          "<article class=\"finding {0}\" id=\"finding-{1}\" data-severity=\"{0}\" "
          "data-check=\"{2}\">\n<h3>#{1} {3} <code>{2}</code> {4}</h3>\n"
          "<p class=\"muted mono\">{5}</p>\n<p>{6}</p>\n<p><b>Fix:</b> {7}</p>\n",
          name, number, html_escape(f.check), html_badge(f.severity),
          html_escape(object_label(f.object)), html_escape(location(f)), html_escape(f.message),
          html_escape(f.remediation));
      if (f.suppression_request)
        out += fmt::format("<p><b>{}</b></p>\n", html_escape(suppression_request_text(f)));
      for (const auto& [kind, names] : f.affects) {
        out += fmt::format("<details><summary>{} {}</summary><p class=\"mono\">", names.size(),
                           html_escape(names.size() == 1 ? singular_of(kind) : kind));
        for (size_t i = 0; i < names.size(); ++i)
          out += (i ? ", " : "") + html_escape(names[i]);
        out += "</p></details>\n";
      }
      out += "</article>\n";
    }
  }
  if (report.analysis.suppressed) {
    out +=
        fmt::format("<details><summary>{} suppressed</summary><ul>\n", report.analysis.suppressed);
    for (const Finding& f : findings) {
      if (!f.suppressed) continue;
      std::string reason = f.suppression_reason.empty() ? "no reason given" : f.suppression_reason;
      out += fmt::format("<li>{} <code>{}</code> {}: {} ({})</li>\n", html_badge(f.severity),
                         html_escape(f.check), html_escape(object_label(f.object)),
                         html_escape(reason), html_escape(f.suppressed_by));
    }
    out += "</ul></details>\n";
  }
  return out + "</section>\n";
}

// The input as the page names it: relative to the working directory, as a user types it, also
// when a script or a chart cache gave an absolute path, which says nothing to the reader.
std::string shown_input(const std::string& file) {
  std::filesystem::path path(file);
  std::error_code ec;
  std::filesystem::path cwd = std::filesystem::current_path(ec);
  if (!path.is_absolute() || ec) return file;
  return path.lexically_proximate(cwd).generic_string();
}

}  // namespace

std::string render_html(const Report& report) {
  const LoadedInput& input = report.bundle->input;
  std::string what = input.files.size() == 1 ? shown_input(input.files[0])
                                             : fmt::format("{} files", input.files.size());
  std::string out = html_page_start("footprint audit: " + what);
  out += fmt::format(
      "<header><h1>footprint audit: {}</h1><p class=\"muted\">footprint {}, {} bytes of "
      "manifests. Generated offline; this page makes no network requests.</p></header>\n",
      html_escape(what), FOOTPRINT_VERSION, with_commas(report.inventory.input_bytes));
  const Context* context = report.context;
  out += "<nav><a href=\"#summary\">Summary</a>";
  if (context) {
    out +=
        "<a href=\"#blast-radius\">Blast radius</a><a href=\"#rbac\">RBAC</a>"
        "<a href=\"#crd-sizes\">CRD sizes</a><a href=\"#airgap\">Air gap</a>";
  }
  out += "<a href=\"#findings\">Findings</a><a href=\"#details\">Details</a></nav>\n";
  out += summary_html(report);
  if (context) {
    out += html_blast_radius(*context);
    out += html_rbac_graph(*context);
    out += html_crd_sizes(*context);
    out += html_airgap(airgap_items(*report.bundle, context->images, AirgapInputs{}));
  }
  out += findings_html(report);
  out += "<section id=\"details\">\n<h2>Details</h2>\n";
  if (report.show_inventory) out += html_section(inventory_section(report.inventory));
  for (const Section& s : report.sections)
    out += html_section(s);
  std::vector<std::string> notes = input.notes;
  notes.insert(notes.end(), report.analysis.notes.begin(), report.analysis.notes.end());
  if (!notes.empty()) {
    out += "<h3>Notes</h3>\n<ul>\n";
    for (const std::string& note : notes)
      out += "<li>" + html_escape(note) + "</li>\n";
    out += "</ul>\n";
  }
  out += "</section>\n";
  return out + html_page_end();
}

}  // namespace footprint
