// The delivery-path matrix: one row per object that meets a size limit (and the Helm release
// Secret), one column per delivery path.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <span>

#include "analysis/context.h"
#include "analysis/models/delivery_paths.h"
#include "report/report.h"

namespace footprint {

namespace {

std::string cell(Outcome outcome) {
  switch (outcome) {
    case Outcome::kWorks:
      return "works";
    case Outcome::kNoUpgrade:
      return "no upgrade";
    case Outcome::kNear:
      return "near limit";
    case Outcome::kFails:
      return "FAILS";
  }
  return "";
}

Json verdict_json(const PathVerdict& v) {
  Json j = {{"path", std::string(path_name(v.path))},
            {"outcome", std::string(outcome_name(v.outcome))},
            {"why", v.why}};
  if (!v.errors.empty()) j["errors"] = v.errors;
  if (!v.fix.empty()) j["fix"] = v.fix;
  return j;
}

// The paths of one row that share an outcome, its errors and its fix, said once.
std::vector<std::string> explanations(const DeliveryRow& row) {
  std::vector<std::string> lines;
  std::vector<bool> said(row.verdicts.size(), false);
  for (size_t i = 0; i < row.verdicts.size(); ++i) {
    const PathVerdict& v = row.verdicts[i];
    if (said[i] || v.outcome == Outcome::kWorks) continue;
    std::vector<std::string_view> paths;
    for (size_t k = i; k < row.verdicts.size(); ++k) {
      const PathVerdict& w = row.verdicts[k];
      if (w.outcome == v.outcome && w.errors == v.errors && w.fix == v.fix && w.why == v.why) {
        paths.push_back(path_name(w.path));
        said[k] = true;
      }
    }
    std::string line = fmt::format("{} with {}: {}. {}", row.subject, fmt::join(paths, ", "),
                                   cell(v.outcome), v.why);
    for (const std::string& e : v.errors)
      line += fmt::format(" Error: \"{}\".", e);
    if (!v.fix.empty()) line += " Fix: " + v.fix;
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace

Section delivery_section(const Context& ctx) {
  Section s;
  s.id = "deliveryPaths";
  s.title = "Delivery paths";
  std::span<const DeliveryPath> paths = ctx.deploy_with;
  if (paths.empty()) paths = kAllDeliveryPaths;
  std::vector<DeliveryRow> rows =
      delivery_matrix(ctx.sizes, helm_release_estimate(ctx.bundle), ctx.release,
                      installed_as_chart(ctx.bundle), paths);
  if (rows.empty()) return s;

  Json names = Json::array();
  Table t;
  t.header = {"OBJECT"};
  for (DeliveryPath p : paths) {
    t.header.emplace_back(path_name(p));
    names.push_back(std::string(path_name(p)));
  }
  Json json_rows = Json::array();
  std::vector<std::string> details;
  for (const DeliveryRow& row : rows) {
    std::vector<std::string> cells = {row.subject};
    Json verdicts = Json::array();
    for (const PathVerdict& v : row.verdicts) {
      cells.push_back(cell(v.outcome));
      verdicts.push_back(verdict_json(v));
    }
    t.rows.push_back(std::move(cells));
    Json j = {{"subject", row.subject}};
    if (row.object) {
      j["object"] = {{"apiVersion", row.object->api_version}, {"kind", row.object->kind}};
      if (!row.object->namespace_.empty()) j["object"]["namespace"] = row.object->namespace_;
      j["object"]["name"] = row.object->name;
    }
    j["differsByPath"] = row.differs();
    j["verdicts"] = std::move(verdicts);
    json_rows.push_back(std::move(j));
    for (std::string& line : explanations(row))
      details.push_back(std::move(line));
  }
  std::string intro =
      ctx.deploy_with.empty()
          ? "Whether each way of installing applies the objects that meet a size limit, and "
            "whether it upgrades them (`--deploy-with PATH` narrows this to yours and makes "
            "the size findings follow it):"
          : "Whether the delivery paths of --deploy-with apply the objects that meet a size "
            "limit, and whether they upgrade them:";
  s.blocks.push_back(Block{{intro}, std::move(t)});
  s.blocks.push_back(Block{std::move(details), std::nullopt});
  s.json = {{"paths", std::move(names)}, {"rows", std::move(json_rows)}};
  return s;
}

}  // namespace footprint
