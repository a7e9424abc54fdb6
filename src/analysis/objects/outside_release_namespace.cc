// objects-outside-release-namespace: what the install puts into namespaces it does not own: the
// cluster's own (kube-system, kube-public, kube-node-lease, default) and namespaces it neither
// creates nor installs into.
#include <fmt/format.h>

#include <map>

#include "analysis/context.h"
#include "model/namespaces.h"
#include "model/units.h"

namespace footprint {

namespace {

bool runs_pods(const Object& obj) {
  return (obj.group.empty() && obj.kind == "Pod") ||
         (obj.group == "apps" && (obj.kind == "Deployment" || obj.kind == "DaemonSet" ||
                                  obj.kind == "StatefulSet" || obj.kind == "ReplicaSet")) ||
         (obj.group == "batch" && (obj.kind == "Job" || obj.kind == "CronJob"));
}

// What the object does in its namespace, in a few words.
std::string what_it_does(const Object& obj) {
  if (runs_pods(obj)) return "runs pods";
  if (obj.kind == "RoleBinding") {
    yaml::Node ref = obj.node.get("roleRef");
    return fmt::format("binds {} {}", ref.get("kind").text(), ref.get("name").text());
  }
  if (obj.kind == "Role") return "defines rights there";
  if (obj.kind == "ConfigMap") return "holds configuration";
  if (obj.kind == "Secret") return "holds a Secret";
  if (obj.kind == "ServiceAccount") return "an identity pods can run as";
  if (obj.kind == "Service") return "routes traffic";
  return "";
}

// The namespace most of the bundle's namespaced objects land in: where the chart was rendered
// for, when that is not -n.
std::string usual_namespace(const Bundle& bundle) {
  std::map<std::string, size_t> count;
  for (const Object& obj : bundle.objects) {
    if (!obj.namespace_.empty() && !every_cluster_has(obj.namespace_)) ++count[obj.namespace_];
  }
  std::string best;
  size_t most = 0;
  for (const auto& [ns, n] : count) {
    if (n > most) {
      best = ns;
      most = n;
    }
  }
  return best;
}

void run_outside_release_namespace(const Context& ctx, Findings& out) {
  const Bundle& bundle = ctx.bundle;
  const std::string& release = bundle.default_namespace;
  std::string usual = usual_namespace(bundle);
  std::vector<std::string> namespaces;
  std::map<std::string, std::vector<std::string>> objects_in;
  const Object* first = nullptr;
  bool pods_in_system = false;
  for (const Object& obj : bundle.objects) {
    const std::string& ns = obj.namespace_;
    if (obj.replaced() || ns.empty() || ns == release) continue;
    if (!every_cluster_has(ns) && (ns == usual || bundle.creates_namespace(ns))) continue;
    if (!first) first = &obj;
    add_unique(namespaces, ns);
    std::string does = what_it_does(obj);
    objects_in[ns].push_back(does.empty() ? obj.display()
                                          : fmt::format("{} ({})", obj.display(), does));
    pods_in_system = pods_in_system || (runs_pods(obj) && is_system_namespace(ns));
  }
  if (!first) return;
  std::vector<std::string> parts;
  std::vector<std::string> all;
  for (const std::string& ns : namespaces) {
    std::string kind = is_system_namespace(ns) ? "the control plane's"
                       : every_cluster_has(ns) ? "every cluster's"
                                               : "not created by the install";
    parts.push_back(fmt::format("{} ({}): {}", ns, kind, some_of(objects_in[ns], 4)));
    all.insert(all.end(), objects_in[ns].begin(), objects_in[ns].end());
  }
  Finding& f = out.add(
      *first, pods_in_system ? Severity::kMedium : Severity::kLow,
      fmt::format("The install puts {} outside its release namespace {}, into {} it does not own: "
                  "{}. Their owners (the cluster's administrators, another team) must agree, and "
                  "another release or the namespace's owner may change or delete them.",
                  count_of(all.size(), "object"), release,
                  namespaces.size() == 1 ? "a namespace" : "namespaces", joined(parts, "; ")),
      "Keep the install's objects in its own namespace (charts: use .Release.Namespace), and have "
      "the namespace's owner approve what must live elsewhere (a leader-election Role in "
      "kube-system, say).",
      {});
  about_shared(f, "outside " + release);
  f.summary = fmt::format("{} outside the release namespace, in {}", count_of(all.size(), "object"),
                          joined(namespaces, ", "));
  f.affects.emplace_back("namespaces", namespaces);
  f.affects.emplace_back("objects", std::move(all));
}

}  // namespace

extern const Check kObjectsOutsideReleaseNamespace{
    .id = "objects-outside-release-namespace",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kMedium,
    .impact = Impact::kOtherTeams,
    .area = Area::kObjects,
    .description =
        "Objects land in kube-system, default or another namespace the install neither creates "
        "nor is installed into.",
    .run = run_outside_release_namespace,
    .rationale =
        "A release owns its namespace; objects in the cluster's own namespaces (kube-system, "
        "kube-public, kube-node-lease, default) or in a namespace the install does not create "
        "belong to someone else's space, who must approve them and may change them. One finding "
        "names them all and what each does there. Low; medium when pods run in a control-plane "
        "namespace, next to the cluster's own components and able to run as their accounts.",
    .fix = "Keep objects in the release namespace; agree the rest with the namespace's owner.",
};

}  // namespace footprint
