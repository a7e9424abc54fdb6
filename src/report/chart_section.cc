#include <fmt/format.h>

#include "report/report.h"

namespace footprint {

namespace {

// The command as a user would type it: helm's own path replaced by "helm".
std::string shell_command(const std::vector<std::string>& command) {
  std::string out = "helm";
  for (size_t i = 1; i < command.size(); ++i)
    out += " " + command[i];
  return out;
}

}  // namespace

Section chart_section(const std::vector<RenderedChart>& charts) {
  Section s;
  s.id = "charts";
  s.title = "Chart";
  Json list = Json::array();
  for (const RenderedChart& c : charts) {
    Block b;
    // Commands go in code spans, which Markdown keeps literal.
    b.lines.push_back(fmt::format("{} rendered with {}: `{}`", c.chart,
                                  c.helm_version.empty() ? "helm" : "helm " + c.helm_version,
                                  shell_command(c.command)));
    Json capabilities = Json::array();
    for (const CapabilityEffect& e : c.capabilities) {
      std::string objects = e.objects.empty() ? "it changes nothing in this render"
                                              : fmt::format("{}", fmt::join(e.objects, ", "));
      b.lines.push_back(
          e.declared
              ? fmt::format("Capability check {} (declared with --api-versions): without it, "
                            "these would not render: {}.",
                            e.api_version, objects)
              : fmt::format("Capability check {} (not declared): declaring it with "
                            "`--api-versions {}` adds: {}.",
                            e.api_version, e.api_version, objects));
      capabilities.push_back(
          {{"apiVersion", e.api_version}, {"declared", e.declared}, {"objects", e.objects}});
    }
    s.blocks.push_back(std::move(b));
    list.push_back({{"chart", c.chart},
                    {"release", c.release},
                    {"helmVersion", c.helm_version},
                    {"command", shell_command(c.command)},
                    {"capabilityChecks", capabilities}});
  }
  s.json = list;
  return s;
}

}  // namespace footprint
