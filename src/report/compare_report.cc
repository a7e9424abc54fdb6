#include <fmt/format.h>

#include "report/html.h"
#include "report/report.h"

namespace footprint {

std::string render_comparison(const Comparison& c, Format format, const ReportOptions& options) {
  if (format == Format::kHtml) return render_comparison_html(c);
  if (format == Format::kJson) {
    Json rows = Json::array();
    for (const ComparisonRow& r : c.rows) {
      Json values = Json::object();
      for (size_t i = 0; i < c.modes.size(); ++i)
        values[c.modes[i]] = r.values[i];
      rows.push_back(
          {{"group", r.group}, {"label", r.label}, {"values", values}, {"differs", r.differs}});
    }
    return Json{{"schemaVersion", kJsonSchemaVersion}, {"modes", c.modes}, {"rows", rows}}.dump(2) +
           "\n";
  }
  // One table per group, one column per mode; "*" marks rows that differ.
  std::string out = format == Format::kMarkdown ? "## footprint compare\n\n" : "";
  std::string modes =
      fmt::format("Modes: {}. Rows marked * differ between modes.", fmt::join(c.modes, ", "));
  out += (format == Format::kMarkdown ? escape_markdown(modes) : modes) + "\n";
  std::string group;
  Table table;
  auto flush = [&] {
    if (table.rows.empty()) return;
    out += format == Format::kMarkdown ? "\n" + render_markdown_table(table)
                                       : "\n" + render_text_table(table, 0, options.table_width);
    table.rows.clear();
  };
  for (const ComparisonRow& r : c.rows) {
    if (r.group != group) {
      flush();
      group = r.group;
      table.header = {"", group};
      for (const std::string& mode : c.modes)
        table.header.push_back(mode);
    }
    std::vector<std::string> row = {r.differs ? "*" : "", r.label};
    row.insert(row.end(), r.values.begin(), r.values.end());
    table.rows.push_back(std::move(row));
  }
  flush();
  return out;
}

}  // namespace footprint
