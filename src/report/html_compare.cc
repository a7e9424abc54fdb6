// `compare --format html`: the install modes side by side, rows that differ highlighted.
#include <fmt/format.h>

#include "report/html.h"

namespace footprint {

namespace {

// The decision table leads the page, as it leads the text report: one row per question, the
// short answer per mode, its evidence in a smaller line beneath.
std::string decision_table_html(const DecisionTable& t) {
  if (t.rows.empty()) return "";
  std::string out =
      "<section id=\"decision\">\n<h2>Decision</h2>\n<div class=\"scroll\"><table "
      "class=\"data\">\n<thead><tr><th>question</th>";
  for (const std::string& m : t.modes)
    out += "<th>" + html_escape(m) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const DecisionRow& r : t.rows) {
    out +=
        fmt::format("<tr data-row=\"{}\"><td>{}</td>", html_escape(r.id), html_escape(r.question));
    for (const DecisionAnswer& a : r.answers) {
      out += "<td>" + html_prose(a.answer);
      for (const std::string& e : a.evidence)
        out += "<div class=\"muted\">" + html_prose(e) + "</div>";
      out += "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</tbody></table></div>\n</section>\n";
}

}  // namespace

std::string render_comparison_html(const Comparison& c) {
  std::string modes;
  for (const std::string& m : c.modes)
    modes += (modes.empty() ? "" : ", ") + m;
  size_t differing = 0;
  for (const ComparisonRow& r : c.rows)
    differing += r.differs ? 1 : 0;
  std::string out = html_page_start("footprint compare: " + modes);
  out += fmt::format(
      "<header><h1>footprint compare: {}</h1><p class=\"muted\">footprint {}. Generated "
      "offline; this page makes no network requests.</p></header>\n",
      html_escape(modes), FOOTPRINT_VERSION);
  out += decision_table_html(c.decisions);
  out += fmt::format(
      "<section id=\"install-modes\" data-modes=\"{}\" data-differing=\"{}\">\n<h2>Install "
      "modes</h2>\n<p>{} rows, {} differ between modes (highlighted, marked \u2260).</p>\n",
      c.modes.size(), differing, c.rows.size(), differing);
  std::string group;
  bool open = false;
  for (const ComparisonRow& r : c.rows) {
    if (!open || r.group != group) {
      if (open) out += "</tbody></table></div>\n";
      group = r.group;
      open = true;
      out += fmt::format(
          "<h3>{}</h3>\n<div class=\"scroll\"><table class=\"data\">\n<thead><tr>"
          "<th></th><th>{}</th>",
          html_escape(group), html_escape(group));
      for (const std::string& m : c.modes)
        out += "<th>" + html_escape(m) + "</th>";
      out += "</tr></thead>\n<tbody>\n";
    }
    out += fmt::format("<tr{}><td>{}</td><td>{}</td>", r.differs ? " class=\"differs\"" : "",
                       r.differs ? "\u2260" : "", html_escape(r.label));
    for (const std::string& v : r.values)
      out += "<td class=\"mono\">" + html_escape(v) + "</td>";
    out += "</tr>\n";
  }
  if (open) out += "</tbody></table></div>\n";
  return out + "</section>\n" + html_page_end();
}

}  // namespace footprint
