#include "model/rbac.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "util/strings.h"

namespace footprint {

extern const std::string_view kBuiltinRbacYaml;

namespace {

constexpr std::string_view kServiceAccountPrefix = "system:serviceaccount:";

std::vector<std::string> read_strings(const yaml::Node& list) {
  std::vector<std::string> out;
  for (size_t i = 0; i < list.size(); ++i)
    out.emplace_back(list.item(i).str());
  return out;
}

}  // namespace

bool PolicyRule::operator==(const PolicyRule& other) const {
  return verbs == other.verbs && api_groups == other.api_groups && resources == other.resources &&
         resource_names == other.resource_names && non_resource_urls == other.non_resource_urls;
}

std::string Request::describe() const {
  if (!is_resource_request()) return fmt::format("{} {}", verb, path);
  std::string what = resource;
  if (!api_group.empty()) what += "." + api_group;
  if (!subresource.empty()) what += "/" + subresource;
  std::string out = fmt::format("{} {}", verb, what);
  if (!name.empty()) out += fmt::format(" named {}", name);
  out += namespace_.empty() ? " cluster-wide" : fmt::format(" in {}", namespace_);
  return out;
}

bool is_api_verb(std::string_view verb) {
  constexpr std::string_view kVerbs[] = {
      "get",   "list", "watch", "create",   "update",      "patch",   "delete", "deletecollection",
      "proxy", "use",  "bind",  "escalate", "impersonate", "approve", "sign",   "attest",
      "*"};
  return std::find(std::begin(kVerbs), std::end(kVerbs), verb) != std::end(kVerbs);
}

std::string unknown_verb_warning(std::string_view verb) {
  return fmt::format(
      "\"{}\" is no verb of the Kubernetes API (get, list, watch, create, update, patch, delete, "
      "deletecollection, and use, bind, escalate, impersonate, approve, sign, attest); only a "
      "rule naming it or \"*\" allows it",
      verb);
}

// The matchers restate pkg/apis/rbac/v1/evaluation_helpers.go (Kubernetes 1.34).
bool verb_matches(const PolicyRule& rule, std::string_view verb) {
  return contains(rule.verbs, "*") || contains(rule.verbs, verb);
}

bool api_group_matches(const PolicyRule& rule, std::string_view group) {
  return contains(rule.api_groups, "*") || contains(rule.api_groups, group);
}

bool resource_matches(const PolicyRule& rule, std::string_view resource,
                      std::string_view subresource) {
  for (const std::string& r : rule.resources) {
    if (r == "*") return true;
    if (subresource.empty()) {
      if (r == resource) return true;
      continue;
    }
    // "resource/subresource", compared in place: this runs for every rule and request.
    if (r.size() == resource.size() + 1 + subresource.size() && r.starts_with(resource) &&
        r[resource.size()] == '/' && r.ends_with(subresource)) {
      return true;
    }
    // "*/scale" names that subresource of every resource; "pods/*" is not a wildcard.
    if (r.size() == subresource.size() + 2 && r.starts_with("*/") && r.ends_with(subresource)) {
      return true;
    }
  }
  return false;
}

bool resource_name_matches(const PolicyRule& rule, std::string_view name) {
  return rule.resource_names.empty() || contains(rule.resource_names, name);
}

bool non_resource_url_matches(const PolicyRule& rule, std::string_view path) {
  for (const std::string& url : rule.non_resource_urls) {
    if (url == "*" || url == path) return true;
    if (url.ends_with("*")) {
      std::string_view prefix = url;
      while (prefix.ends_with("*"))
        prefix.remove_suffix(1);
      if (path.starts_with(prefix)) return true;
    }
  }
  return false;
}

bool rule_allows(const PolicyRule& rule, const Request& request) {
  if (!request.is_resource_request()) {
    return verb_matches(rule, request.verb) && non_resource_url_matches(rule, request.path);
  }
  return rule_allows_resource(rule, request.verb, request.api_group, request.resource,
                              request.subresource, request.name);
}

bool rule_allows_resource(const PolicyRule& rule, std::string_view verb, std::string_view group,
                          std::string_view resource, std::string_view subresource,
                          std::string_view name) {
  return verb_matches(rule, verb) && api_group_matches(rule, group) &&
         resource_matches(rule, resource, subresource) && resource_name_matches(rule, name);
}

Identity Identity::service_account(std::string_view ns, std::string_view name) {
  Identity id;
  id.user = fmt::format("{}{}:{}", kServiceAccountPrefix, ns, name);
  id.groups = {"system:serviceaccounts", fmt::format("system:serviceaccounts:{}", ns),
               "system:authenticated"};
  return id;
}

Identity Identity::named_user(std::string_view name) {
  // authentication/request/anonymous/anonymous.go gives system:anonymous only the group
  // system:unauthenticated, and group/authenticated_group_adder.go adds system:authenticated to
  // everyone else.
  if (name == "system:anonymous") return Identity{std::string(name), {"system:unauthenticated"}};
  return Identity{std::string(name), {"system:authenticated"}};
}

tl::expected<Identity, std::string> Identity::parse(std::string_view as,
                                                    const std::vector<std::string>& extra_groups) {
  Identity id;
  if (as.starts_with(kServiceAccountPrefix)) {
    std::string_view rest = as.substr(kServiceAccountPrefix.size());
    size_t colon = rest.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == rest.size()) {
      return tl::unexpected(fmt::format(
          "\"{}\" is not a service account name: expected system:serviceaccount:NAMESPACE:NAME",
          as));
    }
    id = service_account(rest.substr(0, colon), rest.substr(colon + 1));
  } else if (as.empty()) {
    return tl::unexpected(std::string("--as needs a user or system:serviceaccount:NS:NAME"));
  } else {
    id = named_user(as);
  }
  for (const std::string& g : extra_groups) {
    if (!id.in_group(g)) id.groups.push_back(g);
  }
  return id;
}

bool Identity::is_service_account() const {
  return user.starts_with(kServiceAccountPrefix);
}

bool Identity::in_group(std::string_view group) const {
  return contains(groups, group);
}

std::string_view subject_kind_name(SubjectKind kind) {
  switch (kind) {
    case SubjectKind::kServiceAccount:
      return "ServiceAccount";
    case SubjectKind::kUser:
      return "User";
    case SubjectKind::kGroup:
      break;
  }
  return "Group";
}

std::string Subject::display() const {
  if (kind == SubjectKind::kServiceAccount) {
    return fmt::format("ServiceAccount {}/{}", namespace_, name);
  }
  return fmt::format("{} {}", subject_kind_name(kind), name);
}

bool Subject::operator<(const Subject& other) const {
  return std::tie(kind, namespace_, name) < std::tie(other.kind, other.namespace_, other.name);
}

std::string RbacRole::display() const {
  return cluster ? "ClusterRole " + name : fmt::format("Role {}/{}", namespace_, name);
}

std::string RbacBinding::display() const {
  return cluster ? "ClusterRoleBinding " + name
                 : fmt::format("RoleBinding {}/{}", namespace_, name);
}

bool RbacBinding::applies_to(const Subject& subject, const Identity& who) const {
  switch (subject.kind) {
    case SubjectKind::kUser:
      return who.user == subject.name;
    case SubjectKind::kGroup:
      return who.in_group(subject.name);
    case SubjectKind::kServiceAccount:
      break;
  }
  if (subject.namespace_.empty()) return false;
  // "system:serviceaccount:NS:NAME", compared in place: this runs for every subject and binding.
  std::string_view user = who.user;
  if (!user.starts_with(kServiceAccountPrefix)) return false;
  user.remove_prefix(kServiceAccountPrefix.size());
  const std::string& ns = subject.namespace_;
  return user.size() == ns.size() + 1 + subject.name.size() && user.starts_with(ns) &&
         user[ns.size()] == ':' && user.substr(ns.size() + 1) == subject.name;
}

std::vector<PolicyRule> read_rules(const yaml::Node& rules) {
  std::vector<PolicyRule> out;
  for (size_t i = 0; i < rules.size(); ++i) {
    yaml::Node r = rules.item(i);
    PolicyRule rule;
    rule.verbs = read_strings(r.get("verbs"));
    rule.api_groups = read_strings(r.get("apiGroups"));
    rule.resources = read_strings(r.get("resources"));
    rule.resource_names = read_strings(r.get("resourceNames"));
    rule.non_resource_urls = read_strings(r.get("nonResourceURLs"));
    rule.node = r;
    out.push_back(std::move(rule));
  }
  return out;
}

namespace {

bool is_rbac(const Object& obj, std::string_view kind) {
  return obj.group == "rbac.authorization.k8s.io" && obj.kind == kind;
}

}  // namespace

const Bundle& builtin_rbac_bundle() {
  static const Bundle kBundle = [] {
    auto loaded = load_texts({{"<built-in RBAC>", std::string(kBuiltinRbacYaml)}}, LoadOptions{});
    return build_bundle(std::move(*loaded), BundleOptions{"kube-system"});
  }();
  return kBundle;
}

namespace {

RbacRole make_role(const Object& obj, bool from_bundle) {
  RbacRole role;
  role.cluster = obj.kind == "ClusterRole";
  role.namespace_ = role.cluster ? "" : obj.namespace_;
  role.name = obj.name;
  role.object = from_bundle ? &obj : nullptr;
  role.labels = obj.labels();
  role.rules = read_rules(obj.node.get("rules"));
  if (!from_bundle) {
    for (PolicyRule& r : role.rules)
      r.node = {};
  }
  yaml::Node selectors = obj.node.at({"aggregationRule", "clusterRoleSelectors"});
  for (size_t i = 0; i < selectors.size(); ++i) {
    auto selector = parse_label_selector(selectors.item(i));
    if (selector) role.aggregation.push_back(std::move(*selector));
  }
  return role;
}

RbacBinding make_binding(const Object& obj, bool from_bundle) {
  RbacBinding b;
  b.cluster = obj.kind == "ClusterRoleBinding";
  b.namespace_ = b.cluster ? "" : obj.namespace_;
  b.name = obj.name;
  b.object = from_bundle ? &obj : nullptr;
  b.role_kind = std::string(obj.node.at({"roleRef", "kind"}).str());
  b.role_name = std::string(obj.node.at({"roleRef", "name"}).str());
  yaml::Node subjects = obj.node.get("subjects");
  for (size_t i = 0; i < subjects.size(); ++i) {
    yaml::Node s = subjects.item(i);
    Subject subject;
    std::string_view kind = s.get("kind").str();
    subject.kind = kind == "User"    ? SubjectKind::kUser
                   : kind == "Group" ? SubjectKind::kGroup
                                     : SubjectKind::kServiceAccount;
    subject.name = std::string(s.get("name").str());
    if (subject.kind == SubjectKind::kServiceAccount) {
      subject.namespace_ = std::string(s.get("namespace").str());
      if (subject.namespace_.empty()) subject.namespace_ = b.namespace_;
    }
    b.subjects.push_back(std::move(subject));
  }
  return b;
}

// The aggregation controller replaces an aggregated ClusterRole's rules with the union of the
// rules of every ClusterRole its selectors match; aggregated roles can feed each other, so
// iterate to a fixed point.
void aggregate(std::vector<RbacRole>& roles) {
  for (size_t round = 0; round <= roles.size(); ++round) {
    bool changed = false;
    for (RbacRole& target : roles) {
      if (!target.cluster || target.aggregation.empty()) continue;
      std::vector<PolicyRule> rules;
      std::vector<const RbacRole*> sources;
      for (const RbacRole& source : roles) {
        if (&source == &target || !source.cluster) continue;
        bool selected = std::any_of(
            target.aggregation.begin(), target.aggregation.end(),
            [&](const LabelSelector& s) { return !s.empty() && s.matches(source.labels); });
        if (!selected) continue;
        sources.push_back(&source);
        for (const PolicyRule& rule : source.rules) {
          if (std::find(rules.begin(), rules.end(), rule) == rules.end()) rules.push_back(rule);
        }
      }
      if (!(rules == target.rules)) {
        target.rules = std::move(rules);
        changed = true;
      }
      target.aggregated_from = std::move(sources);
    }
    if (!changed) break;
  }
}

}  // namespace

RbacPolicy RbacPolicy::build(const Bundle& bundle, const Bundle* cluster) {
  RbacPolicy policy;
  auto key_of = [](const auto& x) {
    return fmt::format("{}/{}/{}", x.cluster ? "c" : "n", x.namespace_, x.name);
  };
  // The cluster's objects replace built-in ones of the same name (they are what the API server
  // holds now), and bundle objects replace both, as applying them would.
  std::unordered_map<std::string, size_t> role_index;
  auto add_roles = [&](const Bundle& source, bool from_bundle, bool in_cluster) {
    for (const Object& obj : source.objects) {
      if (obj.replaced() || (!is_rbac(obj, "ClusterRole") && !is_rbac(obj, "Role"))) continue;
      RbacRole role = make_role(obj, from_bundle);
      role.in_cluster = in_cluster;
      auto [it, fresh] = role_index.try_emplace(key_of(role), policy.roles_.size());
      if (fresh) {
        policy.roles_.push_back(std::move(role));
      } else if ((from_bundle || in_cluster) && policy.roles_[it->second].builtin()) {
        policy.roles_[it->second] = std::move(role);
      }
    }
  };
  add_roles(builtin_rbac_bundle(), false, false);
  if (cluster) add_roles(*cluster, false, true);
  add_roles(bundle, true, false);
  aggregate(policy.roles_);

  auto add_bindings = [&](const Bundle& source, bool from_bundle, bool in_cluster) {
    for (const Object& obj : source.objects) {
      if (obj.replaced() || (!is_rbac(obj, "ClusterRoleBinding") && !is_rbac(obj, "RoleBinding")))
        continue;
      RbacBinding b = make_binding(obj, from_bundle);
      b.in_cluster = in_cluster;
      bool cluster_role = b.role_kind == "ClusterRole";
      // A ClusterRoleBinding can refer only to a ClusterRole; a RoleBinding's Role is looked up
      // in the binding's own namespace.
      if (cluster_role || !b.cluster) {
        auto it = role_index.find(fmt::format("{}/{}/{}", cluster_role ? "c" : "n",
                                              cluster_role ? "" : b.namespace_, b.role_name));
        if (it != role_index.end()) b.role = &policy.roles_[it->second];
      }
      policy.bindings_.push_back(std::move(b));
    }
  };
  add_bindings(builtin_rbac_bundle(), false, false);
  if (cluster) {
    add_bindings(*cluster, false, true);
    add_bindings(bundle, true, false);
    // The binding the cluster has under a name is the one that applies, not the bootstrap
    // default; a bundle binding replaces the cluster's.
    std::unordered_set<std::string> in_cluster;
    std::unordered_set<std::string> in_bundle;
    for (const RbacBinding& b : policy.bindings_) {
      if (b.in_cluster) in_cluster.insert(key_of(b));
      if (b.object) in_bundle.insert(key_of(b));
    }
    std::erase_if(policy.bindings_, [&](const RbacBinding& b) {
      return (b.in_cluster && in_bundle.count(key_of(b))) ||
             (!b.in_cluster && !b.object && in_cluster.count(key_of(b)));
    });
  } else {
    add_bindings(bundle, true, false);
  }
  policy.index_subjects();
  return policy;
}

void RbacPolicy::index_subjects() {
  for (uint32_t i = 0; i < bindings_.size(); ++i) {
    for (const Subject& s : bindings_[i].subjects) {
      std::vector<uint32_t>* list = nullptr;
      switch (s.kind) {
        case SubjectKind::kUser:
          list = &by_user_[s.name];
          break;
        case SubjectKind::kGroup:
          list = &by_group_[s.name];
          break;
        case SubjectKind::kServiceAccount:
          if (s.namespace_.empty()) continue;  // applies_to matches no one
          list = &by_user_[fmt::format("{}{}:{}", kServiceAccountPrefix, s.namespace_, s.name)];
          break;
      }
      if (list->empty() || list->back() != i) list->push_back(i);
    }
  }
}

std::vector<uint32_t> RbacPolicy::bindings_of(const Identity& who) const {
  std::vector<uint32_t> out;
  auto add = [&](const auto& index, const std::string& key) {
    auto it = index.find(key);
    if (it != index.end()) out.insert(out.end(), it->second.begin(), it->second.end());
  };
  add(by_user_, who.user);
  for (const std::string& group : who.groups)
    add(by_group_, group);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

const RbacRole* RbacPolicy::find_role(bool cluster, std::string_view ns,
                                      std::string_view name) const {
  for (const RbacRole& r : roles_) {
    if (r.cluster == cluster && r.name == name && (cluster || r.namespace_ == ns)) return &r;
  }
  return nullptr;
}

namespace {

// A binding takes part in a request when it is a ClusterRoleBinding, or a RoleBinding in the
// request's namespace (requests for cluster-scoped resources have no namespace).
bool binding_in_scope(const RbacBinding& b, const Request& request) {
  return b.cluster || (!request.namespace_.empty() && b.namespace_ == request.namespace_);
}

bool binding_applies(const RbacBinding& b, const Identity& who) {
  return std::any_of(b.subjects.begin(), b.subjects.end(),
                     [&](const Subject& s) { return b.applies_to(s, who); });
}

std::string names_list(const std::vector<std::string>& names) {
  return fmt::format("[{}]", fmt::join(names, ", "));
}

}  // namespace

Decision RbacPolicy::authorize(const Identity& who, const Request& request) const {
  Decision d;
  for (const RbacBinding& b : bindings_) {
    if (!binding_in_scope(b, request) || !binding_applies(b, who) || !b.role) continue;
    for (const PolicyRule& rule : b.role->rules) {
      if (rule_allows(rule, request)) {
        d.allowed = true;
        d.binding = &b;
        d.role = b.role;
        d.rule = &rule;
        return d;
      }
    }
  }
  // Denied: explain the rules that came closest.
  for (const RbacBinding& b : bindings_) {
    if (!binding_applies(b, who)) continue;
    if (!b.role) {
      d.reasons.push_back(fmt::format("{} refers to {} {}, which does not exist", b.display(),
                                      b.role_kind, b.role_name));
      continue;
    }
    for (const PolicyRule& rule : b.role->rules) {
      if (!request.is_resource_request() || !verb_matches(rule, request.verb) ||
          !api_group_matches(rule, request.api_group) ||
          !resource_matches(rule, request.resource, request.subresource)) {
        continue;
      }
      std::string via = fmt::format("{} (through {})", b.role->display(), b.display());
      if (!binding_in_scope(b, request)) {
        d.reasons.push_back(
            request.namespace_.empty()
                ? fmt::format("{} allows {} only in namespace {}, and this request is "
                              "cluster-wide or for a cluster-scoped resource",
                              via, request.verb, b.namespace_)
                : fmt::format("{} allows {} only in namespace {}", via, request.verb,
                              b.namespace_));
      } else if (!resource_name_matches(rule, request.name)) {
        d.reasons.push_back(
            request.name.empty()
                ? fmt::format("{} allows {} on {} only with resourceNames {}; this request names "
                              "no object",
                              via, request.verb, request.resource, names_list(rule.resource_names))
                : fmt::format("{} allows {} on {} only with resourceNames {}, not {}", via,
                              request.verb, request.resource, names_list(rule.resource_names),
                              request.name));
      }
    }
  }
  if (d.reasons.empty()) {
    d.reasons.push_back(
        fmt::format("no binding in the bundle or in the built-in policy grants {} to {}",
                    request.describe(), who.user));
  }
  return d;
}

std::vector<RbacPolicy::Grant> RbacPolicy::who_can(const Request& request) const {
  std::vector<Grant> grants;
  for (const RbacBinding& b : bindings_) {
    if (!binding_in_scope(b, request) || !b.role) continue;
    const PolicyRule* allowing = nullptr;
    for (const PolicyRule& rule : b.role->rules) {
      if (rule_allows(rule, request)) {
        allowing = &rule;
        break;
      }
    }
    if (!allowing) continue;
    for (const Subject& s : b.subjects)
      grants.push_back(Grant{s, &b, b.role, allowing});
  }
  return grants;
}

}  // namespace footprint

namespace footprint {

namespace {

const ResourceInfo* find_resource_named(const ResourceTable& resources, std::string_view name,
                                        std::string_view group, bool group_given) {
  for (const ResourceInfo& info : resources.all()) {
    if (group_given && info.group != group) continue;
    if (info.resource == name || equals_any_case(info.kind, name)) return &info;
  }
  return nullptr;
}

}  // namespace

tl::expected<Request, std::string> make_request(std::string_view verb, std::string_view resource,
                                                std::string_view name, std::string_view ns,
                                                const ResourceTable& resources) {
  Request r;
  r.verb = std::string(verb);
  if (resource.starts_with("/")) {
    r.path = std::string(resource);
    return r;
  }
  std::string_view base = resource;
  size_t slash = base.find('/');
  if (slash != std::string_view::npos) {
    r.subresource = std::string(base.substr(slash + 1));
    base = base.substr(0, slash);
  }
  // "deployments.apps": the group follows the first dot; core resources have no dot.
  size_t dot = base.find('.');
  std::string_view name_part = base.substr(0, dot);
  std::string_view group = dot == std::string_view::npos ? "" : base.substr(dot + 1);
  const ResourceInfo* info =
      find_resource_named(resources, name_part, group, dot != std::string_view::npos);
  if (!info) {
    if (dot == std::string_view::npos) {
      return tl::unexpected(fmt::format(
          "unknown resource \"{}\": footprint knows the built-in resources of Kubernetes 1.34 "
          "and the CRDs in the bundle; name others as RESOURCE.GROUP",
          resource));
    }
    r.resource = std::string(name_part);
    r.api_group = std::string(group);
    r.namespace_ = std::string(ns);
    r.name = std::string(name);
    return r;
  }
  r.resource = info->resource;
  r.api_group = info->group;
  r.name = std::string(name);
  r.namespace_ = info->scope == Scope::kCluster ? "" : std::string(ns);
  // RequestInfo (apiserver/pkg/endpoints/request/requestinfo.go) reads /api/v1/namespaces/NAME
  // as a request in namespace NAME, so a RoleBinding there can grant access to that Namespace
  // object. Creating or listing namespaces names none and stays cluster-wide.
  if (r.api_group.empty() && r.resource == "namespaces") r.namespace_ = r.name;
  return r;
}

}  // namespace footprint
