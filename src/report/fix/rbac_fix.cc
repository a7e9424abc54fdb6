#include <fmt/format.h>

#include <set>

#include "report/report.h"

namespace footprint {

namespace {

// Kubernetes object names are DNS subdomains: lowercase, at most 253 characters.
std::string object_name(std::string_view account, std::string_view resource) {
  std::string name = fmt::format("footprint-{}-{}-reader", account, resource);
  for (char& c : name) {
    if (c == '/' || c == '.' || c == '_') c = '-';
  }
  return name.substr(0, 253);
}

std::string quoted_group(const std::string& group) {
  return group.empty() ? "\"\"" : group;
}

}  // namespace

std::string render_rbac_fix(const std::vector<ListWatchTrap>& traps) {
  std::string out;
  std::set<std::tuple<std::string, std::string, std::string, std::string>> done;
  for (const ListWatchTrap& t : traps) {
    if (!t.binding || t.covered_by.allowed) continue;  // only traps that break the operator
    std::string base = t.resource.substr(0, t.resource.find('/'));
    std::string account = t.subject.kind == SubjectKind::kServiceAccount
                              ? t.subject.name
                              : fmt::format("{}", t.subject.name);
    if (!done.insert({t.namespace_, t.subject.display(), t.api_group, base}).second) continue;
    bool cluster = t.namespace_.empty();
    std::string name = object_name(account, base);
    std::string what = t.api_group.empty() ? base : base + "." + t.api_group;
    out += fmt::format(
        "# footprint fix rbac: {} {} needs an unrestricted list and watch on {} {}.\n"
        "# {} grants list/watch only with resourceNames [{}], and an informer's list names no\n"
        "# object, so its cache never syncs.\n"
        "# Trade-off: this grants read access to all {} {}, not only the named ones.\n"
        "# Alternative: keep the narrow role and make the operator's informer for {} select\n"
        "# the field metadata.name={}.\n",
        subject_kind_name(t.subject.kind),
        t.subject.display().substr(t.subject.display().find(' ') + 1), what,
        cluster ? "in all namespaces" : "in namespace " + t.namespace_, t.role->display(),
        fmt::join(t.rule->resource_names, ", "), what,
        cluster ? "in the cluster" : "in " + t.namespace_, what, t.rule->resource_names.front());
    out += fmt::format(
        "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: {}\nmetadata:\n  name: {}\n{}"
        "rules:\n- apiGroups: [{}]\n  resources: [{}]\n  verbs: [get, list, watch]\n",
        cluster ? "ClusterRole" : "Role", name,
        cluster ? "" : fmt::format("  namespace: {}\n", t.namespace_), quoted_group(t.api_group),
        base);
    std::string subject =
        t.subject.kind == SubjectKind::kServiceAccount
            ? fmt::format("- kind: ServiceAccount\n  name: {}\n  namespace: {}\n", t.subject.name,
                          t.subject.namespace_)
            : fmt::format("- kind: {}\n  name: {}\n  apiGroup: rbac.authorization.k8s.io\n",
                          subject_kind_name(t.subject.kind), t.subject.name);
    out += fmt::format(
        "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: {}\nmetadata:\n  name: {}\n{}"
        "roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: {}\n  name: {}\nsubjects:\n{}",
        cluster ? "ClusterRoleBinding" : "RoleBinding", name,
        cluster ? "" : fmt::format("  namespace: {}\n", t.namespace_),
        cluster ? "ClusterRole" : "Role", name, subject);
  }
  return out;
}

}  // namespace footprint
