// `compare --format html`: the install modes side by side, rows that differ highlighted.
#include <fmt/format.h>

#include "report/html.h"

namespace footprint {

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
