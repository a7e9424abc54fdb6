#include <fmt/format.h>

#include "report/html.h"
#include "report/report.h"

namespace footprint {

namespace {

Json decision_json(const DecisionTable& t) {
  Json rows = Json::array();
  for (const DecisionRow& r : t.rows) {
    Json answers = Json::object();
    for (size_t i = 0; i < t.modes.size(); ++i) {
      answers[t.modes[i]] = {{"answer", r.answers[i].answer}, {"evidence", r.answers[i].evidence}};
    }
    rows.push_back({{"id", r.id}, {"question", r.question}, {"answers", answers}});
  }
  return rows;
}

Table decision_text_table(const DecisionTable& t) {
  Table table;
  table.header = {"Decision"};
  table.header.insert(table.header.end(), t.modes.begin(), t.modes.end());
  for (const DecisionRow& r : t.rows) {
    std::vector<std::string> row = {r.question};
    for (const DecisionAnswer& a : r.answers)
      row.push_back(a.answer);
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace

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
    return dump_json(Json{{"schemaVersion", kJsonSchemaVersion},
                          {"modes", c.modes},
                          {"decision", decision_json(c.decisions)},
                          {"rows", rows}},
                     2) +
           "\n";
  }
  // The decision table first; then one table per group, one column per mode, "*" marking rows
  // that differ: the evidence.
  std::string out =
      format == Format::kMarkdown
          ? "## footprint compare\n\n" + render_markdown_table(decision_text_table(c.decisions)) +
                "\n"
          : render_text_table(decision_text_table(c.decisions), 0, options.table_width) + "\n";
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
