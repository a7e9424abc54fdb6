// The helpers of rbac_rights.h.
#include "analysis/rbac/rbac_rights.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"

namespace footprint {

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

Request probe_request(const Context& ctx, const BoundRule& bound, std::string_view verb,
                      std::string_view group, std::string_view resource,
                      std::string_view subresource) {
  const ResourceInfo* info = ctx.bundle.resources.find_resource(group, resource);
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
    const Context& ctx, const std::function<std::vector<Request>(const BoundRule&)>& probe) {
  std::vector<SubjectRights> out;
  for (const BoundRule& b : ctx.bound) {
    if (covers_every_resource(*b.rule)) continue;
    std::vector<Request> requests = probe(b);
    if (requests.empty()) continue;
    for (const Subject& s : b.binding->subjects) {
      auto it = std::find_if(out.begin(), out.end(),
                             [&](const SubjectRights& e) { return e.subject == s; });
      if (it == out.end()) it = out.insert(out.end(), SubjectRights{s, {}});
      it->rights.push_back(Right{b, requests});
    }
  }
  return out;
}

std::string scopes_text(const SubjectRights& rights) {
  if (rights.cluster_wide()) return "in every namespace";
  std::vector<std::string> scopes = rights.scopes();
  return fmt::format("in namespace{} {}", scopes.size() == 1 ? "" : "s", fmt::join(scopes, ", "));
}

Finding& report_rights(Findings& out, const SubjectRights& rights, Severity severity,
                       std::string message, std::string fix, std::string summary) {
  const BoundRule& first = rights.rights.front().grant;
  Finding& f =
      out.add(object_of(first), severity, std::move(message), std::move(fix), node_of(first));
  about_shared(f, rights.subject.display());  // one finding per subject and check
  f.summary = std::move(summary);
  f.affects.emplace_back("subjects", std::vector<std::string>{rights.subject.display()});
  f.affects.emplace_back("roles", rights.roles());
  // Requests as Request::describe() writes them, which `footprint can-i` answers.
  std::vector<std::string> claims;
  for (const Right& r : rights.rights) {
    for (const Request& request : r.requests) {
      std::string claim = request.describe();
      if (!contains(claims, claim)) claims.push_back(std::move(claim));
    }
  }
  f.affects.emplace_back("grants", std::move(claims));
  return f;
}

bool foreign_namespace(const Context& ctx, const std::string& ns) {
  for (const ClusterNamespace& n : ctx.namespaces) {
    if (n.name == ns) return !n.operator_owned;
  }
  return true;
}

}  // namespace footprint
