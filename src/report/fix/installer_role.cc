#include "report/fix/installer_role.h"

#include <fmt/format.h>

#include "report/section.h"

namespace footprint {

namespace {

// A JSON string is a YAML double-quoted scalar: "*" and "" stay what they are.
std::string quoted(const std::string& s) {
  return dump_json(Json(s));
}

std::string list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i)
    out += (i ? ", " : "") + quoted(items[i]);
  return out + "]";
}

std::string rules_yaml(const std::vector<PolicyRule>& rules) {
  std::string out = "rules:\n";
  for (const PolicyRule& r : rules) {
    if (!r.non_resource_urls.empty() && r.resources.empty()) {
      out += fmt::format("- nonResourceURLs: {}\n  verbs: {}\n", list(r.non_resource_urls),
                         list(r.verbs));
      continue;
    }
    out += fmt::format("- apiGroups: {}\n  resources: {}\n", list(r.api_groups), list(r.resources));
    if (!r.resource_names.empty())
      out += fmt::format("  resourceNames: {}\n", list(r.resource_names));
    if (!r.non_resource_urls.empty())
      out += fmt::format("  nonResourceURLs: {}\n", list(r.non_resource_urls));
    out += fmt::format("  verbs: {}\n", list(r.verbs));
  }
  return out;
}

std::string subject_yaml(const Identity& who) {
  constexpr std::string_view kPrefix = "system:serviceaccount:";
  if (who.is_service_account()) {
    std::string_view rest = std::string_view(who.user).substr(kPrefix.size());
    size_t colon = rest.find(':');
    return fmt::format("subjects:\n- kind: ServiceAccount\n  name: {}\n  namespace: {}\n",
                       quoted(std::string(rest.substr(colon + 1))),
                       quoted(std::string(rest.substr(0, colon))));
  }
  return fmt::format("subjects:\n- apiGroup: rbac.authorization.k8s.io\n  kind: User\n  name: {}\n",
                     quoted(who.user));
}

}  // namespace

std::string render_installer_role(const InstallerGrant& grant, const Identity& who,
                                  std::string_view name) {
  std::string out = fmt::format(
      "# What {} needs to install this bundle, and no more: footprint can-install "
      "--print-role.\n",
      who.user);
  for (const std::string& note : grant.notes)
    out += "# " + note + "\n";
  std::string n = quoted(std::string(name));
  if (!grant.cluster_rules.empty()) {
    out += fmt::format(
        "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: "
        "{}\n{}",
        n, rules_yaml(grant.cluster_rules));
    out += fmt::format(
        "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  "
        "name: {}\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: "
        "{}\n{}",
        n, n, subject_yaml(who));
  }
  for (const auto& [ns, rules] : grant.namespace_rules) {
    std::string q = quoted(ns);
    out += fmt::format(
        "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: {}\n  "
        "namespace: {}\n{}",
        n, q, rules_yaml(rules));
    out += fmt::format(
        "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: "
        "{}\n  namespace: {}\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  "
        "name: {}\n{}",
        n, q, n, subject_yaml(who));
  }
  return out;
}

}  // namespace footprint
