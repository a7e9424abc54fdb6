// Effective permissions per subject, for the Permissions section and `can-i --list`.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "analysis/models/rbac_models.h"
#include "analysis/models/rights.h"
#include "analysis/models/rights_catalog.h"
#include "model/resources.h"

namespace footprint {

namespace {

// What rule_risks() and catalog_marks() say of one rule, bound cluster-wide or in a namespace.
struct RuleMarks {
  std::vector<std::string> risks;
  std::vector<std::string> marks;
};

// Per rule and binding scope: a role such as edit, bound for thousands of subjects, has its
// rules rated once.
class RuleMarksCache {
 public:
  const RuleMarks& of(const PolicyRule& rule, bool cluster_binding) {
    auto [it, added] = marks_.try_emplace({&rule, cluster_binding});
    if (added) it->second = {rule_risks(rule), catalog_marks(rule, cluster_binding)};
    return it->second;
  }

 private:
  std::map<std::pair<const PolicyRule*, bool>, RuleMarks> marks_;
};

std::vector<PermissionGrant> permissions_with(const RbacPolicy& policy, const Identity& who,
                                              bool include_builtin, RuleMarksCache& cache) {
  using Key = std::tuple<std::string, std::vector<std::string>, std::vector<std::string>,
                         std::vector<std::string>, std::vector<std::string>>;
  std::map<Key, PermissionGrant> merged;
  auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  for (uint32_t index : policy.bindings_of(who)) {
    const RbacBinding& b = policy.bindings()[index];
    if ((b.builtin() && !include_builtin) || !b.role) continue;
    std::string ns = b.cluster ? "" : b.namespace_;
    for (const PolicyRule& rule : b.role->rules) {
      Key key{ns, sorted(rule.verbs), sorted(rule.api_groups), sorted(rule.resource_names),
              sorted(rule.non_resource_urls)};
      PermissionGrant& g = merged[key];
      g.namespace_ = ns;
      g.verbs = std::get<1>(key);
      g.api_groups = std::get<2>(key);
      g.resource_names = std::get<3>(key);
      g.non_resource_urls = std::get<4>(key);
      for (const std::string& r : rule.resources) {
        if (!contains(g.resources, r)) g.resources.push_back(r);
      }
      const RuleMarks& rated = cache.of(rule, b.cluster);
      for (const std::string& r : rated.risks) {
        // Webhook configurations and CRDs are cluster-scoped: a RoleBinding grants nothing on
        // them (the authorizer only consults RoleBindings for requests in their namespace).
        bool cluster_scoped = r == "changes webhooks" || r == "changes CRDs";
        if (cluster_scoped && !b.cluster) continue;
        if (!contains(g.risks, r)) g.risks.push_back(r);
      }
      // "everything" says it all; the rest of the catalogue's marks would only list it.
      if (!contains(g.risks, "everything")) {
        for (const std::string& m : rated.marks) {
          if (!contains(g.risks, m) && !contains(g.consequences, m)) g.consequences.push_back(m);
        }
      }
      if (!contains(g.via, b.display())) g.via.push_back(b.display());
    }
  }
  std::vector<PermissionGrant> out;
  out.reserve(merged.size());
  for (auto& [key, grant] : merged)
    out.push_back(std::move(grant));
  return out;
}

// Whether each row of the rights catalogue names a cluster-scoped resource, which a RoleBinding
// grants nothing on (its own Namespace object aside).
const std::vector<bool>& cluster_scoped_rows() {
  static const std::vector<bool> kRows = [] {
    std::vector<bool> rows;
    for (const CatalogRow& row : rights_catalog()) {
      const ResourceInfo* info = ResourceTable::builtin().find_resource(row.group, row.resource);
      bool own_namespace_object = row.group.empty() && row.resource == "namespaces";
      rows.push_back(info && info->scope == Scope::kCluster && !own_namespace_object);
    }
    return rows;
  }();
  return kRows;
}

}  // namespace

std::vector<PermissionGrant> permissions_of(const RbacPolicy& policy, const Identity& who,
                                            bool include_builtin) {
  RuleMarksCache cache;
  return permissions_with(policy, who, include_builtin, cache);
}

std::vector<std::string> catalog_marks(const PolicyRule& rule, bool cluster_binding) {
  std::vector<std::string> out;
  std::string_view name;  // a view of the rule's own string, never of a temporary
  if (!rule.resource_names.empty()) name = rule.resource_names.front();
  std::span<const CatalogRow> rows = rights_catalog();
  for (size_t i = 0; i < rows.size(); ++i) {
    const CatalogRow& row = rows[i];
    if (!cluster_binding && cluster_scoped_rows()[i]) continue;
    for (VerbClass v :
         {VerbClass::kRead, VerbClass::kCreate, VerbClass::kModify, VerbClass::kDelete}) {
      const RightConsequence& c = row.of(v);
      if (c.harmless() || contains(out, c.mark)) continue;
      bool granted =
          std::any_of(verbs_of(v).begin(), verbs_of(v).end(), [&](std::string_view verb) {
            // create and deletecollection name no object: a named rule never grants them.
            std::string_view object = verb == "create" || verb == "deletecollection" ? "" : name;
            return rule_allows_resource(rule, verb, row.group, row.resource, row.subresource,
                                        object);
          });
      if (granted) out.emplace_back(c.mark);
    }
  }
  return out;
}

std::vector<SubjectPermissions> summarize_permissions(const Bundle& bundle,
                                                      const RbacPolicy& policy) {
  std::set<Subject> subjects;
  for (uint32_t index : bundle.of_kind("", "ServiceAccount")) {
    const Object& sa = bundle.objects[index];
    subjects.insert(Subject{SubjectKind::kServiceAccount, sa.name, sa.namespace_});
  }
  for (const RbacBinding& b : policy.bindings()) {
    if (!b.builtin()) subjects.insert(b.subjects.begin(), b.subjects.end());
  }
  std::vector<SubjectPermissions> out;
  RuleMarksCache cache;
  for (const Subject& subject : subjects) {
    SubjectPermissions p;
    p.subject = subject;
    p.created_by_bundle = subject.kind == SubjectKind::kServiceAccount &&
                          bundle.find("", "ServiceAccount", subject.namespace_, subject.name);
    Identity who = identity_of(subject);
    std::set<const RbacRole*> roles;
    for (uint32_t index : policy.bindings_of(who)) {
      const RbacBinding& b = policy.bindings()[index];
      if (b.builtin()) continue;
      ++(b.cluster ? p.cluster_role_bindings : p.role_bindings);
      if (b.role) roles.insert(b.role);
    }
    for (const RbacRole* r : roles)
      ++(r->cluster ? p.cluster_roles : p.roles);
    p.grants = permissions_with(policy, who, false, cache);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace footprint
