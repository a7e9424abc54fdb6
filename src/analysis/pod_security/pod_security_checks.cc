#include "analysis/pod_security/pod_security_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/context.h"
#include "model/webhook_client.h"

namespace footprint {

namespace {

PodSecurityLevel next(PodSecurityLevel level) {
  return level == PodSecurityLevel::kPrivileged ? PodSecurityLevel::kBaseline
                                                : PodSecurityLevel::kRestricted;
}

}  // namespace

std::vector<WorkloadPodSecurity> workload_pod_security(const Context& ctx) {
  // With the default namespaces, only the Namespaces the bundle creates have known labels.
  bool from_cluster = ctx.namespace_source != NamespaceSource::kDefault;
  std::vector<WorkloadPodSecurity> out;
  for (const PodTemplate& t : ctx.pods) {
    WorkloadPodSecurity w;
    w.workload = t.owner;
    w.pod = {t.metadata, t.spec};
    const std::string& ns = t.owner->namespace_;
    auto known = std::find_if(ctx.namespaces.begin(), ctx.namespaces.end(),
                              [&](const ClusterNamespace& n) { return n.name == ns; });
    const Object* created = ctx.bundle.find("", "Namespace", "", ns);
    Labels labels;
    if (known != ctx.namespaces.end() && (from_cluster || created)) {
      labels = known->labels;
      w.labels_from = from_cluster ? "cluster" : "bundle";
    } else if (created) {
      labels = created->labels();
      w.labels_from = "bundle";
    } else {
      w.labels_from = from_cluster ? "unlisted" : "unknown";
    }
    w.enforce = enforce_policy(labels);
    PolicyVersion version = w.enforce.labelled ? w.enforce.version : PolicyVersion{};
    w.level = pod_security_level(w.pod, version);
    if (w.enforce.labelled) {
      w.enforce_violations = pod_security_violations(w.pod, w.enforce.level, version);
    }
    if (w.level != PodSecurityLevel::kRestricted) {
      w.next_level = pod_security_violations(w.pod, next(w.level), version);
    }
    out.push_back(std::move(w));
  }
  return out;
}

namespace {

std::string violations_text(const std::vector<PodSecurityViolation>& violations) {
  std::vector<std::string> parts;
  for (const PodSecurityViolation& v : violations)
    parts.push_back(fmt::format("{} ({}): {}", v.requirement, v.reason, v.detail));
  return fmt::format("{}", fmt::join(parts, "; "));
}

void run_enforce_violation(const Context& ctx, Findings& out) {
  for (const WorkloadPodSecurity& w : workload_pod_security(ctx)) {
    if (w.enforce_violations.empty()) continue;
    const Object& obj = *w.workload;
    bool pod = obj.kind == "Pod";
    std::string label_errors =
        w.enforce.errors.empty() ? "" : fmt::format(" ({})", fmt::join(w.enforce.errors, "; "));
    Finding& f = out.add(
        obj, Severity::kHigh,
        fmt::format("Namespace {} enforces Pod Security {}{} ({} labels), and the pods of {} "
                    "{} fail {} of its checks, so the API server {}. Failed: {}.",
                    obj.namespace_, w.enforce.to_string(), label_errors, w.labels_from, obj.kind,
                    obj.qualified_name(), w.enforce_violations.size(),
                    pod ? "rejects the Pod and the install fails"
                        : "rejects every pod its controller creates: the workload exists and "
                          "none of its pods ever runs",
                    violations_text(w.enforce_violations)),
        fmt::format("Change the pod template as listed, or, if the workload needs that "
                    "access, run it in a namespace labelled {}={}.",
                    kEnforceLabel, level_name(w.level)),
        w.pod.spec);
    f.summary =
        fmt::format("{} {} fails Pod Security {} of namespace {}: its pods are never created",
                    obj.kind, obj.qualified_name(), w.enforce.to_string(), obj.namespace_);
  }
}

}  // namespace

extern const Check kPodSecurityEnforceViolation{
    .id = "pod-security-enforce-violation",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kPodSecurity,
    .description =
        "A workload's pods fail the Pod Security level its namespace enforces, so they are never "
        "created.",
    .run = run_enforce_violation,
    .rationale =
        "Pod Security admission rejects pods that fail the level their namespace enforces "
        "(pod-security.kubernetes.io/enforce), evaluated with the checks of the "
        "pod-security-admission package; a workload's controller then never gets a pod. High.",
    .fix =
        "Change the pod template as the finding lists, or run the workload in a namespace that "
        "enforces the level it needs.",
    .breaks_on_install = true,
};

namespace {

void run_unlabelled_namespace(const Context& ctx, Findings& out) {
  // Per namespace: the workloads that need the privileged level.
  std::map<std::string, std::vector<const WorkloadPodSecurity*>> by_namespace;
  std::vector<WorkloadPodSecurity> all = workload_pod_security(ctx);
  for (const WorkloadPodSecurity& w : all) {
    if (w.enforce.labelled || w.level != PodSecurityLevel::kPrivileged) continue;
    by_namespace[w.workload->namespace_].push_back(&w);
  }
  for (const auto& [ns, workloads] : by_namespace) {
    std::vector<std::string> names;
    for (const WorkloadPodSecurity* w : workloads) {
      std::vector<std::string_view> failed;
      for (const PodSecurityViolation& v : w->next_level)
        failed.push_back(v.requirement);
      names.push_back(fmt::format("{} {} (baseline needs {})", w->workload->kind, w->workload->name,
                                  fmt::join(failed, "; ")));
    }
    const WorkloadPodSecurity& first = *workloads.front();
    std::string known =
        first.labels_from == "unknown"
            ? "footprint does not know its labels (the bundle does not create it; pass "
              "--namespaces)"
        : first.labels_from == "unlisted"
            ? "the bundle does not create it and --namespaces does not list it"
            : fmt::format("it has no {} label", kEnforceLabel);
    Finding& f = out.add(
        *first.workload, Severity::kLow,
        fmt::format("Namespace {}: {}. The pods of {} fail baseline and need the privileged "
                    "level: on a cluster whose Pod Security admission enforces baseline or "
                    "restricted by default, none of them is created.",
                    ns, known, fmt::join(names, ", ")),
        // A namespace every cluster has must not be shipped in a bundle: the release would own
        // it, and its uninstall would delete it.
        every_cluster_has(ns)
            ? fmt::format("Check that the cluster's Pod Security admission configuration exempts "
                          "namespace {} or that it carries {}=privileged (never by shipping a "
                          "Namespace object for it), or make the pods meet baseline.",
                          ns, kEnforceLabel)
            : fmt::format("Label namespace {} {}=privileged (the bundle can create it with the "
                          "label), or make the pods meet baseline.",
                          ns, kEnforceLabel),
        first.pod.spec);
    about_shared(f, "namespace " + ns);  // one finding per namespace
    f.summary = fmt::format("Pods in namespace {} need the privileged Pod Security level", ns);
  }
}

}  // namespace

extern const Check kPodSecurityUnlabelledNamespace{
    .id = "pod-security-unlabelled-namespace",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kLow,
    .impact = Impact::kInstall,
    .area = Area::kPodSecurity,
    .description =
        "Workloads need the privileged Pod Security level in a namespace without an enforce label: "
        "a cluster default of baseline or restricted blocks them.",
    .run = run_unlabelled_namespace,
    .rationale =
        "Workloads that need the privileged level run in a namespace without an enforce label; "
        "many clusters enforce baseline or restricted by default, and then none of their pods is "
        "created. Low.",
    .fix =
        "Label the namespace pod-security.kubernetes.io/enforce=privileged, or make the pods meet "
        "baseline.",
};

}  // namespace footprint
