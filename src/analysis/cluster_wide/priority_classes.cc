#include "analysis/cluster_wide/priority_classes.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/context.h"
#include "model/kubectl_json.h"
#include "model/units.h"
#include "model/webhook_client.h"

namespace footprint {

namespace {

// The classes every cluster has (pkg/apis/scheduling/types.go: SystemCriticalPriority is twice
// the highest user priority; system-node-critical is 1000 above it).
std::optional<int64_t> system_class_value(std::string_view name) {
  if (name == "system-cluster-critical") return 2 * kHighestUserPriority;
  if (name == "system-node-critical") return 2 * kHighestUserPriority + 1000;
  return std::nullopt;
}

}  // namespace

std::vector<PriorityClassUse> priority_classes(const Bundle& bundle,
                                               std::span<const PodTemplate> pods) {
  std::vector<PriorityClassUse> out;
  for (uint32_t index : bundle.of_kind("scheduling.k8s.io", "PriorityClass")) {
    const Object& obj = bundle.objects[index];
    PriorityClassUse use;
    use.name = obj.name;
    use.priority_class = &obj;
    use.value = kubectl_int(obj.node.get("value"));
    use.global_default = kubectl_bool(obj.node.get("globalDefault")) == true;
    use.preempts = obj.node.get("preemptionPolicy").str() != "Never";
    out.push_back(std::move(use));
  }
  std::map<std::string, PriorityClassUse> others;
  for (const PodTemplate& t : pods) {
    std::string name(t.spec.get("priorityClassName").str());
    if (name.empty()) continue;
    auto own = std::find_if(out.begin(), out.end(),
                            [&](const PriorityClassUse& u) { return u.name == name; });
    PriorityClassUse* use = own != out.end() ? &*own : &others[name];
    if (use->name.empty()) {
      use->name = name;
      use->value = system_class_value(name);
      use->system = use->value.has_value();
    }
    if (std::find(use->users.begin(), use->users.end(), t.owner) == use->users.end()) {
      use->users.push_back(t.owner);
      use->user_fields.push_back(t.spec.get("priorityClassName"));
    }
  }
  for (auto& [name, use] : others)
    out.push_back(std::move(use));
  return out;
}

namespace {

std::string value_text(int64_t value) {
  return value < 0 ? "-" + with_commas(static_cast<uint64_t>(-(value + 1)) + 1)
                   : with_commas(static_cast<uint64_t>(value));
}

std::string users_text(const PriorityClassUse& use) {
  if (use.users.empty()) return "No pod of the bundle uses it";
  std::vector<std::string> out;
  for (const Object* w : use.users)
    out.push_back(fmt::format("{} {}", w->kind, w->qualified_name()));
  return fmt::format("The bundle's {} {} it", fmt::join(out, ", "),
                     out.size() == 1 ? "uses" : "use");
}

void run_global_default(const Context& ctx, Findings& out) {
  for (const PriorityClassUse& use : priority_classes(ctx.bundle, ctx.pods)) {
    if (!use.priority_class || !use.global_default) continue;
    int64_t value = use.value.value_or(0);
    Finding& f = out.add(
        *use.priority_class, Severity::kHigh,
        fmt::format("PriorityClass {} has globalDefault: true: every pod created without a "
                    "priorityClassName, in every namespace and by every team, gets priority "
                    "{}{}. Only one default may exist: if the cluster has one already, the "
                    "API server rejects this class and the install fails. {}.",
                    use.name, value_text(value),
                    use.preempts && value > 0
                        ? " and may preempt pods of lower priority when the cluster is full"
                        : "",
                    users_text(use)),
        "Set globalDefault: false and give the operator's own pods priorityClassName "
        "explicitly; the cluster's default priority is the platform team's decision.",
        use.priority_class->node.get("globalDefault"));
    f.summary = fmt::format("PriorityClass {} becomes every team's default pod priority", use.name);
  }
}

}  // namespace

extern const Check kPriorityClassGlobalDefault{
    .id = "priority-class-global-default",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kOtherTeams,
    .area = Area::kClusterWide,
    .description =
        "A PriorityClass with globalDefault: true sets the priority of every team's new pods.",
    .run = run_global_default,
    .rationale =
        "A PriorityClass with globalDefault: true sets the priority of every pod created without "
        "priorityClassName, in every namespace, and the API server allows only one default. High: "
        "it changes every team's pods, or fails the install.",
    .fix = "Set globalDefault: false and name the class in the operator's own pods.",
};

namespace {

void run_preemption(const Context& ctx, Findings& out) {
  for (const PriorityClassUse& use : priority_classes(ctx.bundle, ctx.pods)) {
    if (!use.priority_class || use.global_default || !use.value) continue;
    int64_t value = *use.value;
    std::string shown = value_text(value);
    if (value > kHighestUserPriority) {
      Finding& f = out.add(
          *use.priority_class, Severity::kHigh,
          fmt::format("PriorityClass {} has value {}, above 1,000,000,000, the highest a class "
                      "other than system-cluster-critical and system-node-critical may have: "
                      "the API server rejects it and the install fails. {}.",
                      use.name, shown, users_text(use)),
          "Use a value of 1,000,000,000 or less, or the system class the component needs.",
          use.priority_class->node.get("value"));
      f.summary = fmt::format(
          "The API server rejects PriorityClass {}: its value is above 1,000,000,000", use.name);
      continue;
    }
    if (!use.preempts || value <= 0) continue;
    bool highest = value == kHighestUserPriority;
    Finding& f = out.add(
        *use.priority_class, highest ? Severity::kHigh : Severity::kMedium,
        fmt::format("PriorityClass {} has value {} and preemptionPolicy {}: when the cluster "
                    "is full, pods using it evict pods of lower priority, which is every pod "
                    "without a PriorityClass (priority 0) in every namespace{}. Any team may "
                    "name it: using a PriorityClass needs no permission. {}.",
                    use.name, shown,
                    use.priority_class->node.get("preemptionPolicy")
                        ? "PreemptLowerPriority"
                        : "PreemptLowerPriority (the default)",
                    highest ? ", and every class another team can create: 1,000,000,000 is "
                              "the highest value outside the system classes"
                            : "",
                    users_text(use)),
        "Use preemptionPolicy: Never unless the operator's pods must displace other "
        "workloads, and a value below the tiers the platform team reserves; limit its use "
        "with a ResourceQuota scoped to the class.",
        use.priority_class->node.get("value"));
    f.summary = fmt::format(
        "Pods with PriorityClass {} ({}) may evict other teams' pods when the cluster is full",
        use.name, shown);
  }
}

}  // namespace

extern const Check kPriorityClassPreemption{
    .id = "priority-class-preemption",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kHigh,
    .impact = Impact::kOtherTeams,
    .area = Area::kClusterWide,
    .description =
        "A PriorityClass lets pods preempt other teams' pods; 1,000,000,000 outranks every class "
        "but the system ones.",
    .run = run_preemption,
    .rationale =
        "A PriorityClass with a positive value and the default PreemptLowerPriority lets its pods "
        "evict lower-priority pods, those of every team without a class, when the cluster is full; "
        "any team may name it. High at 1,000,000,000, the highest a non-system class may claim, "
        "and above it (the API server rejects the class); medium for other values.",
    .fix = "Use preemptionPolicy: Never, or a modest value reserved for the operator's own pods.",
};

namespace {

void run_missing(const Context& ctx, Findings& out) {
  for (const PriorityClassUse& use : priority_classes(ctx.bundle, ctx.pods)) {
    if (use.priority_class || use.system) continue;
    for (size_t i = 0; i < use.users.size(); ++i) {
      const Object* w = use.users[i];
      Finding& f =
          out.add(*w, Severity::kHigh,
                  fmt::format("{} {} names priorityClassName {}, which the bundle does not create "
                              "and which is not a system class: unless the cluster has it already, "
                              "the API server's Priority admission plugin rejects every pod.",
                              w->kind, w->qualified_name(), use.name),
                  fmt::format("Create PriorityClass {} before installing (or with the bundle), or "
                              "remove priorityClassName.",
                              use.name),
                  use.user_fields[i]);
      f.summary =
          fmt::format("{} {} names PriorityClass {}, which nothing creates: its pods are rejected",
                      w->kind, w->qualified_name(), use.name);
    }
  }
}

}  // namespace

extern const Check kPriorityClassMissing{
    .id = "priority-class-missing",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kClusterWide,
    .description =
        "Pods name a PriorityClass that neither the bundle nor the cluster's system classes "
        "provide.",
    .run = run_missing,
    .rationale =
        "Pods that name a PriorityClass which neither the bundle nor the system classes provide "
        "are rejected by the Priority admission plugin, unless the cluster has the class already. "
        "High.",
    .fix = "Create the PriorityClass with the bundle, or remove priorityClassName.",
    .breaks_on_install = true,
};

}  // namespace footprint
