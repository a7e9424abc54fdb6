#include <fmt/format.h>

#include <map>

#include "analysis/check.h"
#include "analysis/context.h"
#include "analysis/pod_security/pod_security_checks.h"
#include "model/units.h"
#include "report/cluster_wide.h"

namespace footprint {

namespace {

Json violations_json(const std::vector<PodSecurityViolation>& violations) {
  Json list = Json::array();
  for (const PodSecurityViolation& v : violations) {
    list.push_back({{"check", v.check},
                    {"requirement", v.requirement},
                    {"level", level_name(v.level)},
                    {"reason", v.reason},
                    {"detail", v.detail}});
  }
  return list;
}

std::string enforce_line(const std::string& ns, const WorkloadPodSecurity& w) {
  if (w.labels_from == "unknown" || w.labels_from == "unlisted") {
    return fmt::format(
        "Namespace {}: enforce label unknown (the bundle does not create it{}).", ns,
        w.labels_from == "unknown" ? "; pass --namespaces" : " and --namespaces does not list it");
  }
  std::string from = w.labels_from == "cluster" ? "in the cluster" : "as the bundle creates it";
  if (!w.enforce.labelled) {
    return fmt::format("Namespace {}: no enforce label {}; the cluster's default applies.", ns,
                       from);
  }
  std::string errors =
      w.enforce.errors.empty() ? "" : fmt::format(" ({})", fmt::join(w.enforce.errors, "; "));
  return fmt::format("Namespace {}: enforces {}{} {}.", ns, w.enforce.to_string(), errors, from);
}

}  // namespace

Section pod_security_section(const Context& ctx) {
  Section s;
  s.id = "podSecurity";
  s.title = "Pod security";
  Json list = Json::array();
  size_t rejected = 0;
  std::vector<WorkloadPodSecurity> workloads = workload_pod_security(ctx);
  // One block per namespace, in the order namespaces first appear.
  std::vector<std::string> order;
  std::map<std::string, Block> blocks;
  for (const WorkloadPodSecurity& w : workloads) {
    const std::string& ns = w.workload->namespace_;
    auto [it, inserted] = blocks.try_emplace(ns);
    Block& b = it->second;
    if (inserted) {
      order.push_back(ns);
      b.lines.push_back(enforce_line(ns, w));
      b.table = Table{{"WORKLOAD", "LEVEL", "ADMITTED", "NEXT LEVEL NEEDS"}, {}, {}, {}};
    }
    std::vector<std::string_view> next;
    for (const PodSecurityViolation& v : w.next_level)
      next.push_back(v.requirement);
    bool admitted = w.enforce_violations.empty();
    if (!admitted) ++rejected;
    std::optional<Table>& table = b.table;  // set when the namespace's block was made
    if (table) {
      table->rows.push_back({fmt::format("{} {}", w.workload->kind, w.workload->name),
                             std::string(level_name(w.level)), admitted ? "yes" : "NO",
                             next.empty() ? "-" : fmt::format("{}", fmt::join(next, "; "))});
    }
    list.push_back({{"kind", w.workload->kind},
                    {"namespace", w.workload->namespace_},
                    {"name", w.workload->name},
                    {"level", level_name(w.level)},
                    {"enforce",
                     {{"labelled", w.enforce.labelled},
                      {"level", level_name(w.enforce.level)},
                      {"version", w.enforce.version.to_string()},
                      {"labelsFrom", w.labels_from},
                      {"errors", w.enforce.errors}}},
                    {"admitted", admitted},
                    {"enforceViolations", violations_json(w.enforce_violations)},
                    {"nextLevel", violations_json(w.next_level)}});
  }
  s.blocks.push_back(Block{
      {workloads.empty()
           ? std::string("No workloads with a pod template.")
           : fmt::format("{} at the strictest Pod Security Standards level their "
                         "pods pass (policy latest is v1.{}; a namespace's enforce-version pins "
                         "an older one). {} would get no pods from their namespace's enforce "
                         "label.",
                         count_of(workloads.size(), "workload"), kNewestPolicyMinor, rejected)},
      std::nullopt});
  for (const std::string& ns : order)
    s.blocks.push_back(std::move(blocks[ns]));
  s.json = {{"policyVersion", fmt::format("v1.{}", kNewestPolicyMinor)}, {"workloads", list}};
  return s;
}

}  // namespace footprint
