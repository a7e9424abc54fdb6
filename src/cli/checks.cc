#include "analysis/check.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "report/report.h"
#include "report/section.h"

namespace footprint {

int run_checks(int argc, char** argv) {
  CLI::App app{"List every check: its ID, the severities it reports, and what it looks for.",
               "footprint checks"};
  Format format = Format::kText;
  add_format_option(app, format, kTextJsonMarkdown);
  ColorOption color;
  add_color_option(app, color);
  if (auto code = parse_args(app, argc, argv)) return *code;
  ReportOptions options = text_options(color, "");

  Table table;
  table.header = {"CHECK", "SEVERITY", "IMPACT", "AREA", "DESCRIPTION"};
  Json json = Json::array();
  for (const Check* check : all_checks()) {
    std::string severity = severity_range(*check);
    bool severe = check->max_severity >= Severity::kHigh && format == Format::kText;
    table.rows.push_back({std::string(check->id),
                          severe ? paint(options.color, kBad, severity) : severity,
                          std::string(impact_name(check->impact)),
                          std::string(area_name(check->area)), std::string(check->description)});
    json.push_back({{"id", check->id},
                    {"severity",
                     {{"min", severity_name(check->min_severity)},
                      {"max", severity_name(check->max_severity)}}},
                    {"impact", impact_name(check->impact)},
                    {"rationale", check->rationale},
                    {"fix", check->fix},
                    {"area", area_name(check->area)},
                    {"description", check->description}});
  }
  std::string out;
  if (format == Format::kJson) {
    out = dump_json(json, 2) + "\n";
  } else if (format == Format::kText) {
    out = render_text_table(table, 0, options.table_width);
  } else {
    out = render_checks_markdown();
  }
  return write_output(out, "", content_of(format)) ? kExitOk : kExitUsage;
}

}  // namespace footprint
