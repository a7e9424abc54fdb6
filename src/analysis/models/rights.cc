// The helpers of rights.h.
#include "analysis/models/rights.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "analysis/models/subject_index.h"

namespace footprint {

std::string merge_verbs(const std::vector<std::string>& verb_resource) {
  std::vector<std::pair<std::string, std::vector<std::string>>> by_resource;
  for (const std::string& vr : verb_resource) {
    size_t space = vr.find(' ');
    std::string verb = vr.substr(0, space);
    std::string resource = space == std::string::npos ? "" : vr.substr(space + 1);
    auto it = std::find_if(by_resource.begin(), by_resource.end(),
                           [&](const auto& e) { return e.first == resource; });
    if (it == by_resource.end()) it = by_resource.insert(by_resource.end(), {resource, {}});
    if (!contains(it->second, verb)) it->second.push_back(verb);
  }
  std::vector<std::string> parts;
  for (const auto& [resource, verbs] : by_resource)
    parts.push_back(fmt::format("{} {}", fmt::join(verbs, "/"), resource));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string group_resource(std::string_view group, std::string_view resource,
                           std::string_view subresource) {
  std::string out(resource);
  if (!group.empty()) out += fmt::format(".{}", group);
  if (!subresource.empty()) out += fmt::format("/{}", subresource);
  return out;
}

std::vector<const RbacBinding*> bindings_of(const RbacPolicy& policy, const RbacRole& role) {
  std::vector<const RbacBinding*> out;
  for (const RbacBinding& b : policy.bindings()) {
    if (!b.builtin() && b.role == &role) out.push_back(&b);
  }
  return out;
}

bool aggregated_into_another(const RbacPolicy& policy, const RbacRole& role) {
  return std::any_of(policy.roles().begin(), policy.roles().end(), [&](const RbacRole& r) {
    return std::find(r.aggregated_from.begin(), r.aggregated_from.end(), &role) !=
           r.aggregated_from.end();
  });
}

Request resource_request(std::string_view verb, std::string_view group, std::string_view resource,
                         std::string_view ns, std::string_view subresource, std::string_view name) {
  Request r;
  r.verb = verb;
  r.api_group = group;
  r.resource = resource;
  r.subresource = subresource;
  r.name = name;
  r.namespace_ = ns;
  return r;
}

std::vector<std::pair<std::string, std::string>> literal_targets(const PolicyRule& rule) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& g : rule.api_groups) {
    if (g == "*") continue;
    for (const std::string& r : rule.resources) {
      if (r.find('*') != std::string::npos) continue;
      out.emplace_back(g, r);
    }
  }
  return out;
}

std::vector<BoundRule> bound_rules(const RbacPolicy& policy) {
  std::vector<BoundRule> out;
  for (const RbacBinding& b : policy.bindings()) {
    if (b.builtin() || !b.role) continue;
    for (const PolicyRule& rule : b.role->rules)
      out.push_back(BoundRule{&b, b.role, &rule});
  }
  return out;
}

bool grants(const ResourceTable& resources, const BoundRule& bound, std::string_view verb,
            std::string_view group, std::string_view resource, std::string_view subresource,
            Names names) {
  const ResourceInfo* info = resources.find_resource(group, resource);
  bool cluster_scoped = info && info->scope == Scope::kCluster;
  if (cluster_scoped && !bound.binding->cluster) return false;
  // create and deletecollection name no object, so resourceNames never allow them.
  std::string_view name;
  if (names == Names::kSome && !bound.rule->resource_names.empty() && verb != "create" &&
      verb != "deletecollection") {
    name = bound.rule->resource_names.front();
  }
  return rule_allows_resource(*bound.rule, verb, group, resource, subresource, name);
}

const Object& object_of(const BoundRule& bound) {
  return bound.role->object ? *bound.role->object : *bound.binding->object;
}

yaml::Node node_of(const BoundRule& bound) {
  return bound.role->object ? bound.rule->node : bound.binding->object->node.get("roleRef");
}

namespace {

// A request as the messages show it: "list secrets", "create deployments.apps",
// "create pods/exec"; the groups of webhook configurations and CRDs go without saying.
std::string short_text(const Request& r) {
  bool obvious = r.api_group.empty() || r.api_group.find('.') != std::string::npos;
  return fmt::format("{} {}", r.verb,
                     group_resource(obvious ? "" : r.api_group, r.resource, r.subresource));
}

}  // namespace

bool allows_any_name(const PolicyRule& rule, std::string_view verb, std::string_view group,
                     std::string_view resource, std::string_view subresource) {
  return rule_allows_resource(rule, verb, group, resource, subresource);
}

bool grants_everything(const PolicyRule& rule) {
  return contains(rule.verbs, "*") && contains(rule.resources, "*") &&
         contains(rule.api_groups, "*");
}

bool covers_every_resource(const PolicyRule& rule) {
  return contains(rule.resources, "*") && contains(rule.api_groups, "*") &&
         rule.non_resource_urls.empty();
}

Request probe_request(const ResourceTable& resources, const BoundRule& bound, std::string_view verb,
                      std::string_view group, std::string_view resource,
                      std::string_view subresource) {
  const ResourceInfo* info = resources.find_resource(group, resource);
  bool cluster_scoped = info && info->scope == Scope::kCluster;
  return resource_request(verb, group, resource, cluster_scoped ? "" : scope_of(bound),
                          subresource);
}

std::string SubjectRights::sources() const {
  std::vector<std::string> out;
  for (const Right& r : rights) {
    std::string source =
        fmt::format("{} (through {})", r.grant.role->display(), r.grant.binding->display());
    if (!contains(out, source)) out.push_back(std::move(source));
  }
  return some_of(out, 2);
}

std::vector<std::string> SubjectRights::roles() const {
  std::vector<std::string> out;
  for (const Right& r : rights) {
    if (!contains(out, r.grant.role->display())) out.push_back(r.grant.role->display());
  }
  return out;
}

std::vector<BoundRule> SubjectRights::grants() const {
  std::vector<BoundRule> out;
  out.reserve(rights.size());
  for (const Right& r : rights)
    out.push_back(r.grant);
  return out;
}

std::vector<std::string> SubjectRights::what() const {
  std::vector<std::string> out;
  for (const Right& r : rights) {
    for (const Request& request : r.requests) {
      std::string w = short_text(request);
      if (!contains(out, w)) out.push_back(std::move(w));
    }
  }
  return out;
}

std::vector<std::string> SubjectRights::scopes() const {
  std::vector<std::string> out;
  for (const Right& r : rights) {
    if (!contains(out, scope_of(r.grant))) out.push_back(scope_of(r.grant));
  }
  return out;
}

std::vector<SubjectRights> rights_by_subject(
    std::span<const BoundRule> bound,
    const std::function<std::vector<Request>(const BoundRule&)>& probe) {
  std::vector<SubjectRights> out;
  std::unordered_map<Subject, size_t, SubjectHash> index;  // into out
  for (const BoundRule& b : bound) {
    if (covers_every_resource(*b.rule)) continue;
    std::vector<Request> requests = probe(b);
    if (requests.empty()) continue;
    for (const Subject& s : b.binding->subjects) {
      auto [at, added] = index.try_emplace(s, out.size());
      if (added) out.push_back(SubjectRights{s, {}});
      out[at->second].rights.push_back(Right{b, requests});
    }
  }
  return out;
}

std::string scopes_text(const SubjectRights& rights) {
  if (rights.cluster_wide()) return "in every namespace";
  std::vector<std::string> scopes = rights.scopes();
  return fmt::format("in namespace{} {}", scopes.size() == 1 ? "" : "s", fmt::join(scopes, ", "));
}

bool people_group(const Subject& subject) {
  return subject.kind == SubjectKind::kGroup && !subject.name.starts_with("system:");
}

std::string people_group_fix(const Subject& subject) {
  return fmt::format(
      "{} has no members until your identity provider or client certificates put people in it; "
      "the install adds none. Put in it only the administrators who should hold these rights, or "
      "remove the binding if nobody should.",
      subject.display());
}

Finding& report_rights(Findings& out, const SubjectRights& rights, Severity severity,
                       std::string message, std::string fix, std::string summary) {
  if (people_group(rights.subject)) fix = people_group_fix(rights.subject);
  const BoundRule& first = rights.rights.front().grant;
  Finding& f =
      out.add(object_of(first), severity, std::move(message), std::move(fix), node_of(first));
  about_shared(f, rights.subject.display());  // one finding per subject and check
  f.summary = std::move(summary);
  f.affects.emplace_back("subjects", std::vector<std::string>{rights.subject.display()});
  f.affects.emplace_back("roles", rights.roles());
  std::vector<const Right*> held;
  for (const Right& r : rights.rights)
    held.push_back(&r);
  f.affects.emplace_back("grants", granted_requests(held));
  return f;
}

std::vector<std::string> granted_requests(const std::vector<const Right*>& rights) {
  std::vector<std::string> claims;
  for (const Right* r : rights) {
    for (const Request& request : r->requests) {
      std::string claim = request.describe();
      if (!contains(claims, claim)) claims.push_back(std::move(claim));
    }
  }
  return claims;
}

bool foreign_namespace(std::span<const ClusterNamespace> namespaces, const std::string& ns) {
  for (const ClusterNamespace& n : namespaces) {
    if (n.name == ns) return !n.operator_owned;
  }
  return true;
}

}  // namespace footprint
