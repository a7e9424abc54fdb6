#include <fmt/format.h>

#include "report/report.h"

namespace footprint {

namespace {

// "pods, services", "inferencegraphs (serving.example.com)", "secrets [webhook-server-cert]".
std::string what_of(const PermissionGrant& g) {
  std::vector<std::string> items = g.resources;
  items.insert(items.end(), g.non_resource_urls.begin(), g.non_resource_urls.end());
  std::string out = fmt::format("{}", fmt::join(items, ", "));
  bool core_only = g.api_groups.empty() || (g.api_groups.size() == 1 && g.api_groups[0].empty());
  if (!core_only) {
    std::vector<std::string> groups;
    for (const std::string& group : g.api_groups)
      groups.push_back(group.empty() ? "core" : group);
    out += fmt::format(" ({})", fmt::join(groups, ", "));
  }
  if (!g.resource_names.empty()) out += fmt::format(" [{}]", fmt::join(g.resource_names, ", "));
  return out;
}

// "! reads secrets, creates workloads; taints nodes": the escalation marks, then the catalogue's.
std::string risk_text(const PermissionGrant& g) {
  if (g.risks.empty() && g.consequences.empty()) return "";
  std::string out = fmt::format("! {}", fmt::join(g.risks, ", "));
  if (!g.risks.empty() && !g.consequences.empty()) out += "; ";
  return out + fmt::format("{}", fmt::join(g.consequences, ", "));
}

std::string plural(uint32_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

Json grant_json(const PermissionGrant& g) {
  Json j = {{"namespace", g.namespace_.empty() ? Json(nullptr) : Json(g.namespace_)},
            {"verbs", g.verbs},
            {"apiGroups", g.api_groups},
            {"resources", g.resources}};
  if (!g.resource_names.empty()) j["resourceNames"] = g.resource_names;
  if (!g.non_resource_urls.empty()) j["nonResourceURLs"] = g.non_resource_urls;
  j["risks"] = g.risks;
  j["consequences"] = g.consequences;
  j["via"] = g.via;
  return j;
}

// "ServiceAccount ops/op: 1 ClusterRole, ..." and its grants as a table.
Block subject_block(const SubjectPermissions& p) {
  Block b;
  b.lines.push_back(fmt::format(
      "{}: {}, {}, {}, {}{}", p.subject.display(), plural(p.cluster_roles, "ClusterRole"),
      plural(p.cluster_role_bindings, "ClusterRoleBinding"), plural(p.roles, "Role"),
      plural(p.role_bindings, "RoleBinding"),
      p.subject.kind == SubjectKind::kServiceAccount && !p.created_by_bundle
          ? "; the bundle does not create this account"
          : ""));
  if (p.grants.empty()) {
    b.lines.emplace_back("No permissions from the bundle.");
    return b;
  }
  Table t;
  t.header = {"SCOPE", "VERBS", "RESOURCES", "RISK"};
  for (const PermissionGrant& g : p.grants) {
    t.rows.push_back({g.namespace_.empty() ? "cluster-wide" : g.namespace_,
                      fmt::format("{}", fmt::join(g.verbs, ", ")), what_of(g), risk_text(g)});
  }
  b.table = std::move(t);
  return b;
}

Json subject_json(const SubjectPermissions& p) {
  Json grants = Json::array();
  for (const PermissionGrant& g : p.grants)
    grants.push_back(grant_json(g));
  Json subject = {{"kind", subject_kind_name(p.subject.kind)}, {"name", p.subject.name}};
  if (!p.subject.namespace_.empty()) subject["namespace"] = p.subject.namespace_;
  return {{"subject", std::move(subject)},
          {"createdByBundle", p.created_by_bundle},
          {"clusterRoles", p.cluster_roles},
          {"clusterRoleBindings", p.cluster_role_bindings},
          {"roles", p.roles},
          {"roleBindings", p.role_bindings},
          {"grants", std::move(grants)}};
}

}  // namespace

Section permissions_section(const std::vector<SubjectPermissions>& subjects, SectionParts parts) {
  Section s;
  s.id = "permissions";
  s.title = "Permissions";
  size_t cluster_wide = 0;
  Json list = Json::array();
  std::vector<Block> per_subject;
  for (const SubjectPermissions& p : subjects) {
    bool wide = std::any_of(p.grants.begin(), p.grants.end(),
                            [](const PermissionGrant& g) { return g.namespace_.empty(); });
    if (wide) ++cluster_wide;
    if (parts.blocks) per_subject.push_back(subject_block(p));
    if (parts.json) list.push_back(subject_json(p));
  }
  s.blocks.push_back(
      Block{{fmt::format("{} created or bound by the bundle; {} "
                         "rights in all namespaces. Rows marked ! carry "
                         "rights worth a review.",
                         subjects.size() == 1 ? std::string("1 subject is")
                                              : fmt::format("{} subjects are", subjects.size()),
                         cluster_wide == 1 ? "1 holds" : fmt::format("{} hold", cluster_wide))},
            std::nullopt});
  for (Block& b : per_subject)
    s.blocks.push_back(std::move(b));
  if (parts.json) s.json = {{"subjects", std::move(list)}};
  return s;
}

}  // namespace footprint
