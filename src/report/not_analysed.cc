#include <fmt/format.h>

#include "report/report.h"

namespace footprint {

std::string not_analysed_line(const std::vector<Skipped>& skipped) {
  return fmt::format("Not analysed: {}; each is listed under \"Not analysed\" below.",
                     skipped_summary(skipped));
}

Section not_analysed_section(const std::vector<Skipped>& skipped) {
  Section s;
  s.id = "notAnalysed";
  s.title = "Not analysed";
  Block b;
  b.lines.push_back(
      fmt::format("The input holds {} that footprint did not analyse: nothing below covers them.",
                  skipped_summary(skipped)));
  Table t;
  t.header = {"where", "what", "reason"};
  Json list = Json::array();
  for (const Skipped& item : skipped) {
    std::string where = item.line ? fmt::format("{}:{}", item.path, item.line) : item.path;
    std::string what = item.what.empty() ? std::string(unit_name(item.unit))
                                         : fmt::format("{} {}", unit_name(item.unit), item.what);
    t.rows.push_back({where, what, item.reason});
    Json entry = {{"path", item.path}, {"unit", unit_name(item.unit)}, {"reason", item.reason}};
    if (item.line) entry["line"] = item.line;
    if (!item.what.empty()) entry["object"] = item.what;
    list.push_back(std::move(entry));
  }
  b.table = std::move(t);
  s.blocks.push_back(std::move(b));
  s.json = std::move(list);
  return s;
}

}  // namespace footprint
