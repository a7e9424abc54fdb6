#include "analysis/commands/restarts.h"

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/common.h"
#include "model/units.h"
#include "report/section.h"

namespace footprint {

namespace {

std::optional<std::vector<ContainerSample>> load_samples(const std::string& path, unsigned jobs) {
  LoadOptions options;
  options.jobs = jobs;
  options.max_document_bytes = options.max_file_bytes;  // one List document holds every pod
  auto loaded = load_inputs({path}, options);
  if (!loaded) {
    print_load_errors(loaded.error());
    return std::nullopt;
  }
  auto samples = read_pod_samples(*loaded);
  if (!samples) {
    print_load_errors(samples.error());
    return std::nullopt;
  }
  return std::move(*samples);
}

std::string container_name(const ContainerSample& s) {
  return s.init ? s.container + " (init)" : s.container;
}

std::string last_termination(const ContainerSample& s) {
  if (s.last_reason.empty() && s.last_exit_code.empty()) return "";
  return fmt::format("{} (exit {})", s.last_reason.empty() ? "?" : s.last_reason,
                     s.last_exit_code.empty() ? "?" : s.last_exit_code);
}

Json sample_json(const ContainerSample& s) {
  return {{"namespace", s.namespace_},   {"pod", s.pod},
          {"container", s.container},    {"init", s.init},
          {"restarts", s.restarts},      {"state", s.state},
          {"lastReason", s.last_reason}, {"lastExitCode", s.last_exit_code}};
}

}  // namespace

int run_restarts(int argc, char** argv) {
  CLI::App app{
      "List the containers whose restart count grew between two samples of "
      "`kubectl get pods -A -o yaml`, worst first; exit 1 when any grew.",
      "footprint restarts"};
  std::string before_path;
  std::string after_path;
  app.add_option("BEFORE", before_path, "The first sample (kubectl get pods -A -o yaml)")
      ->required();
  app.add_option("AFTER", after_path, "The second sample, taken later")->required();
  Format format = Format::kText;
  add_format_option(app, format, kTextOrJson);
  unsigned jobs = 0;
  add_jobs_option(app, "-j,--jobs", jobs, "Parser threads (default: one per core)");
  ColorOption color;
  add_color_option(app, color);
  if (auto code = parse_args(app, argc, argv)) return *code;
  ReportOptions options = text_options(color, "");

  auto before = load_samples(before_path, jobs);
  if (!before) return kExitUsage;
  auto after = load_samples(after_path, jobs);
  if (!after) return kExitUsage;
  RestartComparison cmp = compare_restarts(*before, *after);
  if (!cmp.shrank.empty()) {
    const RestartGrowth& g = cmp.shrank.front();
    print_error(fmt::format(
        "{} restart count{} went down between the samples (pod {}/{}, container {}: {} -> {}), "
        "but the kubelet never lowers a pod's count: {} looks newer than {}. Pass the older "
        "sample first.",
        cmp.shrank.size(), cmp.shrank.size() == 1 ? "" : "s", g.after.namespace_, g.after.pod,
        container_name(g.after), g.before.restarts, g.after.restarts, before_path, after_path));
    return kExitUsage;
  }

  std::string out;
  if (format == Format::kJson) {
    Json grew = Json::array();
    for (const RestartGrowth& g : cmp.grew) {
      Json j = sample_json(g.after);
      j["restartsBefore"] = g.before.restarts;
      j["increase"] = g.increase();
      grew.push_back(std::move(j));
    }
    Json only_before = Json::array();
    for (const ContainerSample& s : cmp.only_before)
      only_before.push_back(sample_json(s));
    Json only_after = Json::array();
    for (const ContainerSample& s : cmp.only_after)
      only_after.push_back(sample_json(s));
    Json lowered = Json::array();
    for (const RestartGrowth& g : cmp.lowered_without_uid) {
      Json j = sample_json(g.after);
      j["restartsBefore"] = g.before.restarts;
      lowered.push_back(std::move(j));
    }
    out = dump_json(Json{{"compared", cmp.compared},
                         {"grew", grew},
                         {"loweredWithoutUid", lowered},
                         {"onlyBefore", only_before},
                         {"onlyAfter", only_after}},
                    2) +
          "\n";
  } else {
    out += paint(options.color, kHeading,
                 fmt::format("Restarts between the samples ({} in both):",
                             count_of(cmp.compared, "container"))) +
           "\n";
    if (cmp.grew.empty()) {
      out += "  no restart count grew\n";
    } else {
      Table table;
      table.header = {"NAMESPACE", "POD",   "CONTAINER",       "RESTARTS",
                      "ADDED",     "STATE", "LAST TERMINATION"};
      for (const RestartGrowth& g : cmp.grew) {
        table.rows.push_back({g.after.namespace_, g.after.pod, container_name(g.after),
                              fmt::format("{} -> {}", g.before.restarts, g.after.restarts),
                              fmt::format("+{}", g.increase()), g.after.state,
                              last_termination(g.after)});
      }
      out += render_text_table(table, 2, options.table_width);
    }
    auto list_apart = [&](const std::vector<ContainerSample>& list, const std::string& title) {
      if (list.empty()) return;
      out += "\n" + paint(options.color, kHeading, title) + "\n";
      Table table;
      table.header = {"NAMESPACE", "POD", "CONTAINER", "RESTARTS", "STATE", "LAST TERMINATION"};
      for (const ContainerSample& s : list) {
        table.rows.push_back({s.namespace_, s.pod, container_name(s), std::to_string(s.restarts),
                              s.state, last_termination(s)});
      }
      out += render_text_table(table, 2, options.table_width);
    };
    if (!cmp.lowered_without_uid.empty()) {
      out += "\n" +
             paint(options.color, kHeading,
                   "Counts that went down (most likely pods recreated under the same name; the "
                   "samples have no metadata.uid to tell):") +
             "\n";
      Table table;
      table.header = {"NAMESPACE", "POD", "CONTAINER", "RESTARTS", "STATE"};
      for (const RestartGrowth& g : cmp.lowered_without_uid) {
        table.rows.push_back({g.after.namespace_, g.after.pod, container_name(g.after),
                              fmt::format("{} -> {}", g.before.restarts, g.after.restarts),
                              g.after.state});
      }
      out += render_text_table(table, 2, options.table_width);
    }
    list_apart(cmp.only_before, "Only in the first sample (deleted or recreated since):");
    list_apart(cmp.only_after, "Only in the second sample (new pods; counts not compared):");
  }
  if (!write_output(out, "", content_of(format))) return kExitUsage;
  return cmp.grew.empty() ? kExitOk : kExitFindings;
}

}  // namespace footprint
