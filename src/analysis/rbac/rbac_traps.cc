// RBAC traps: rules that do not grant what their author meant, so the operator fails at run
// time: create with resourceNames, cluster-scoped resources in a Role, wildcards RBAC does not
// expand. Before a finding says a request is forbidden, it asks the authorizer whether another
// rule allows it; a rule covered elsewhere is dead code, reported as such. The resourceNames
// list/watch trap has its own file (rbac_list_watch.cc).
#include "analysis/rbac/rbac_traps.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"
#include "analysis/rbac/rbac_internal.h"

namespace footprint {

std::string covered_text(const Decision& d) {
  return fmt::format("{} (through {})", d.role->display(), d.binding->display());
}

namespace {

// For a rule that grants nothing for some requests, whether the subjects of its role get those
// requests from another rule: the first subject and request left without, or the covering
// decisions. `requests` are evaluated per binding, in that binding's scope.
struct Coverage {
  bool bound = false;
  std::vector<std::string> denied;  // "ServiceAccount a/b: create secrets in ns"
  std::vector<std::string> covered_by;
};

template <typename MakeRequests>
Coverage coverage(const RbacPolicy& policy, const RbacRole& role, MakeRequests make_requests) {
  Coverage c;
  for (const RbacBinding* b : bindings_of(policy, role)) {
    for (const Subject& s : b->subjects) {
      c.bound = true;
      for (const Request& r : make_requests(*b)) {
        Decision d = policy.authorize(identity_of(s), r);
        if (!d.allowed) {
          c.denied.push_back(fmt::format("{}: {}", s.display(), r.describe()));
          continue;
        }
        std::string by = covered_text(d);
        if (std::find(c.covered_by.begin(), c.covered_by.end(), by) == c.covered_by.end())
          c.covered_by.push_back(std::move(by));
      }
    }
  }
  return c;
}

// The verbs of `wanted` a rule lists, with "*" standing for all of them.
std::vector<std::string> listed_verbs(const PolicyRule& rule,
                                      std::initializer_list<const char*> wanted) {
  std::vector<std::string> out;
  for (const char* v : wanted) {
    if (verb_matches(rule, v)) out.emplace_back(v);
  }
  return out;
}

// A resource whose name holds a dot is no resource the API server serves (plurals are DNS
// labels): it is a pseudo-resource that an aggregated API server asks the authorizer about
// itself, through a SubjectAccessReview, with a name of its choosing. Calico's API server asks
// for create on tier.networkpolicies named "TIER.*" before it creates a policy in that tier.
bool pseudo_resource(std::string_view resource) {
  return resource.find('.') != std::string_view::npos;
}

// Cluster-wide objects that change how the API server treats everyone's requests: create on
// every one of them is never the fix for a rule that names a few.
bool cluster_control_resource(std::string_view resource) {
  static constexpr std::string_view kControl[] = {
      "customresourcedefinitions",         "mutatingwebhookconfigurations",
      "validatingwebhookconfigurations",   "validatingadmissionpolicies",
      "validatingadmissionpolicybindings", "mutatingadmissionpolicies",
      "mutatingadmissionpolicybindings",   "apiservices"};
  return std::find(std::begin(kControl), std::end(kControl), resource) != std::end(kControl);
}

// Another rule of the role that grants something on the resource without resourceNames: the
// operator's use of the resource is written there, and the named rule's create is a leftover.
bool unrestricted_rule_beside(const RbacRole& role, const PolicyRule& named,
                              const std::string& group, const std::string& resource) {
  return std::any_of(role.rules.begin(), role.rules.end(), [&](const PolicyRule& r) {
    return &r != &named && r.resource_names.empty() && api_group_matches(r, group) &&
           resource_matches(r, resource, "");
  });
}

void run_resourcenames_create(const Context& ctx, Findings& out) {
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin()) continue;
    for (const PolicyRule& rule : role.rules) {
      if (rule.resource_names.empty()) continue;
      std::vector<std::string> verbs = listed_verbs(rule, {"create", "deletecollection"});
      // A subresource create (pods/eviction, serviceaccounts/token) names its parent object.
      std::vector<std::pair<std::string, std::string>> targets;
      for (const auto& [group, resource] : literal_targets(rule)) {
        if (resource.find('/') == std::string::npos && !pseudo_resource(resource))
          targets.emplace_back(group, resource);
      }
      if (verbs.empty() || targets.empty()) continue;
      std::vector<std::string> resources;
      bool control = false;
      bool beside = true;
      for (const auto& [group, resource] : targets) {
        resources.push_back(group_resource(group, resource));
        control = control || cluster_control_resource(resource);
        beside = beside && unrestricted_rule_beside(role, rule, group, resource);
      }
      Coverage c = coverage(ctx.rbac, role, [&](const RbacBinding& b) {
        std::vector<Request> requests;
        for (const std::string& verb : verbs) {
          for (const auto& [group, resource] : targets)
            requests.push_back(
                resource_request(verb, group, resource, b.cluster ? "" : b.namespace_));
        }
        return requests;
      });
      std::string head = fmt::format(
          "{} lists {} on {} with resourceNames {}. A {} request carries no object name, so this "
          "rule never allows it",
          role.display(), fmt::join(verbs, " and "), fmt::join(resources, ", "),
          bracketed(rule.resource_names), fmt::join(verbs, " or "));
      // Widening is the fix only where creating any object of the kind is harmless; for
      // cluster-wide control objects the chart should ship the named objects instead.
      std::string fix =
          control
              ? fmt::format(
                    "Remove {} from this rule. If the operator must create these "
                    "objects, ship them in the chart instead: RBAC cannot limit {} "
                    "to names, and {} on every one of them lets it change how the "
                    "API server treats everyone's requests.",
                    fmt::join(verbs, " and "), fmt::join(verbs, " or "), fmt::join(verbs, " or "))
              : fmt::format(
                    "Move {} to a rule without resourceNames if the operator needs "
                    "it; keep resourceNames for get, update, patch and delete.",
                    fmt::join(verbs, " and "));
      Severity severity;
      std::string message;
      if (!c.bound) {
        severity = Severity::kLow;
        message = head + "; nothing in the bundle binds the role yet.";
      } else if (c.denied.empty()) {
        severity = Severity::kInfo;
        message = fmt::format(
            "{}, but the requests are allowed elsewhere ({}): the rule is dead "
            "code.",
            head, fmt::join(c.covered_by, "; "));
        fix = fmt::format("Remove {} from this rule.", fmt::join(verbs, " and "));
      } else if (beside) {
        // The role's unrestricted rule on the same resource says what the operator does with
        // it; a create that only the named rule lists is most likely never issued.
        severity = Severity::kLow;
        message = fmt::format(
            "{}. Another rule of the role grants the same resource without names, and does not "
            "list {}: the operator most likely never issues it, so nothing fails, but {} would "
            "be forbidden.",
            head, fmt::join(verbs, " or "), some_of(c.denied, 2));
        fix = fmt::format("Remove {} from this rule.", fmt::join(verbs, " and "));
      } else {
        severity = Severity::kMedium;
        message = fmt::format("{}, and nothing else allows it: {} is forbidden.", head,
                              some_of(c.denied, 2));
      }
      Finding& f = out.add(*role.object, severity, std::move(message), std::move(fix), rule.node);
      f.summary = fmt::format("{} never allows {} on {}", role.display(), fmt::join(verbs, " or "),
                              fmt::join(resources, ", "));
      if (!c.denied.empty()) f.affects.emplace_back("forbidden", c.denied);
    }
  }
}

}  // namespace

extern const Check kRbacResourceNamesCreate{
    .id = "rbac-resourcenames-create",
    .min_severity = Severity::kInfo,
    .max_severity = Severity::kMedium,
    .impact = Impact::kInstall,
    .area = Area::kRbac,
    .description =
        "create or deletecollection is listed with resourceNames, which those requests never "
        "carry.",
    .run = run_resourcenames_create,
    .rationale =
        "create and deletecollection requests carry no object name, so a rule that lists them with "
        "resourceNames never allows them. Medium when a bound subject has no other rule for the "
        "request (it is forbidden); low while the role is unbound, or when another rule of the "
        "role grants the same resource without names and without the verb (the operator most "
        "likely never issues it); info when another rule allows it (dead code). Pseudo-resources "
        "with a dot (Calico's tier.networkpolicies), which an aggregated API server authorizes "
        "itself with names of its own, are not reported. The fix never grants create on every CRD, "
        "webhook configuration, admission policy or APIService.",
    .fix =
        "Remove create and deletecollection from rules with resourceNames; grant them without "
        "names only where creating any object of the kind is acceptable.",
};

namespace {

// One rule of a Role that names cluster-scoped resources, and whether its requests are granted
// elsewhere.
struct RulePart {
  std::string text;     // "get, list on nodes"
  bool plural = false;  // several resources
  yaml::Node node;
  Coverage coverage;
};

// One finding per Role: its rules on cluster-scoped resources share one cause (rules written for
// a ClusterRole, as a chart's namespace-restricted mode copies them), listed as its parts.
void report_cluster_scoped_rules(const RbacRole& role, const std::vector<RulePart>& parts,
                                 Findings& out) {
  if (parts.empty()) return;
  std::vector<std::string> texts;
  std::vector<std::string> denied;
  std::vector<std::string> covered;
  bool bound = false;
  for (const RulePart& p : parts) {
    texts.push_back(p.text);
    bound = bound || p.coverage.bound;
    for (const std::string& d : p.coverage.denied)
      add_unique(denied, d);
    for (const std::string& c : p.coverage.covered_by)
      add_unique(covered, c);
  }
  bool one = parts.size() == 1;
  std::string head = fmt::format(
      "{} grants {}, {} cluster-scoped. A Role's rules apply only inside its namespace, so {} "
      "nothing",
      role.display(),
      one ? texts.front() : fmt::format("in {} rules: {}", parts.size(), some_of(texts, 4)),
      one ? (parts.front().plural ? "which are" : "which is") : "all",
      one ? "this rule grants" : "these rules grant");
  Severity severity;
  std::string message;
  std::string fix = fmt::format(
      "Move the {} to a ClusterRole bound with a ClusterRoleBinding, or "
      "remove {}.",
      one ? "rule" : "rules", one ? "it" : "them");
  if (!bound) {
    severity = Severity::kLow;
    message = head + "; nothing in the bundle binds the role yet.";
  } else if (denied.empty()) {
    severity = Severity::kInfo;
    message = fmt::format("{}. The same requests are allowed elsewhere ({}), so {} dead code.",
                          head, fmt::join(covered, "; "), one ? "the rule is" : "the rules are");
    fix = one ? "Remove the rule." : "Remove the rules.";
  } else {
    severity = Severity::kMedium;
    message = fmt::format("{}, and nothing else allows these requests: {} is forbidden.", head,
                          some_of(denied, 2));
  }
  Finding& f = out.add(*role.object, severity, std::move(message), std::move(fix),
                       one ? parts.front().node : role.object->node.get("rules"));
  f.summary = fmt::format("{} cannot grant cluster-scoped {}", role.display(),
                          one ? texts.front().substr(texts.front().find(" on ") + 4)
                              : fmt::format("resources ({} rules)", parts.size()));
  if (!one) f.affects.emplace_back("rules", texts);
  if (!denied.empty()) f.affects.emplace_back("forbidden", denied);
}

void run_role_cluster_resource(const Context& ctx, Findings& out) {
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin() || role.cluster) continue;
    std::vector<RulePart> parts;
    for (const PolicyRule& rule : role.rules) {
      std::vector<std::pair<std::string, std::string>> cluster_scoped;
      for (const auto& [group, resource] : literal_targets(rule)) {
        std::string base = resource.substr(0, resource.find('/'));
        const ResourceInfo* info = ctx.bundle.resources.find_resource(group, base);
        // A Role may hold get on its own Namespace object: the request is in that namespace.
        if (info && info->scope == Scope::kCluster && !(group.empty() && base == "namespaces"))
          cluster_scoped.emplace_back(group, resource);
      }
      if (cluster_scoped.empty()) continue;
      std::vector<std::string> names;
      for (const auto& [group, resource] : cluster_scoped)
        names.push_back(group_resource(group, resource));
      std::vector<std::string> verbs =
          contains(rule.verbs, "*") ? std::vector<std::string>{"get", "list"} : rule.verbs;
      Coverage c = coverage(ctx.rbac, role, [&](const RbacBinding&) {
        std::vector<Request> requests;
        for (const std::string& verb : verbs) {
          for (const auto& [group, resource] : cluster_scoped) {
            std::string base = resource.substr(0, resource.find('/'));
            std::string sub = resource.size() > base.size() ? resource.substr(base.size() + 1) : "";
            requests.push_back(resource_request(verb, group, base, "", sub));
          }
        }
        return requests;
      });
      parts.push_back(
          RulePart{fmt::format("{} on {}", fmt::join(rule.verbs, ", "), fmt::join(names, ", ")),
                   names.size() > 1, rule.node, std::move(c)});
    }
    report_cluster_scoped_rules(role, parts, out);
    for (const PolicyRule& rule : role.rules) {
      if (rule.non_resource_urls.empty()) continue;
      Finding& f = out.add(
          *role.object, Severity::kHigh,
          fmt::format("{} lists nonResourceURLs {}, which only a ClusterRole may hold: the API "
                      "server rejects this Role, and the install fails.",
                      role.display(), bracketed(rule.non_resource_urls)),
          "Move the nonResourceURLs rule to a ClusterRole bound with a ClusterRoleBinding.",
          rule.node);
      f.summary =
          fmt::format("The API server rejects {} (nonResourceURLs in a Role)", role.display());
    }
  }
}

}  // namespace

extern const Check kRbacRoleClusterResource{
    .id = "rbac-role-cluster-resource",
    .min_severity = Severity::kInfo,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kRbac,
    .description =
        "A namespaced Role names cluster-scoped resources or URLs, which it cannot grant.",
    .run = run_role_cluster_resource,
    .rationale =
        "A Role's rules apply only to requests in its namespace, and requests for cluster-scoped "
        "resources (nodes, CRDs, webhook configurations) carry none, so such rules grant nothing; "
        "nonResourceURLs in a Role are rejected by the API server. High for nonResourceURLs (the "
        "install fails); medium when a bound subject has no other grant (the request is "
        "forbidden); low while unbound; info when another rule covers it. One finding per Role, "
        "listing its rules on cluster-scoped resources.",
    .fix = "Move the rule to a ClusterRole bound with a ClusterRoleBinding, or remove it.",
};

namespace {

// An aggregated API server (APIService) serves groups that are neither built in nor CRDs.
bool maybe_aggregated_api(const Context& ctx, const std::vector<std::string>& groups) {
  for (const std::string& g : groups) {
    if (g == "*" || ctx.bundle.resources.is_builtin_group(g)) return false;
    if (std::any_of(ctx.bundle.resources.all().begin(), ctx.bundle.resources.all().end(),
                    [&](const ResourceInfo& r) { return r.group == g; })) {
      return false;
    }
  }
  return !groups.empty();
}

// Names someone asks the authorizer about literally. The certificates admission plugin
// (plugin/pkg/admission/certificates/util.go, IsAuthorizedForSignerName) checks `approve` and
// `sign` on signers first for the signer's name and then for "<domain>/*". A rule whose verbs
// are all custom (approve, sign, use...) is only ever asked about by the code that defines the
// verb, through a SubjectAccessReview with names of its choosing: cert-manager's approver asks
// for "issuers.cert-manager.io/*" on its own signers resource.
bool literal_star_name(const PolicyRule& rule, std::string_view name) {
  static constexpr std::string_view kApiVerbs[] = {
      "get", "list", "watch", "create", "update", "patch", "delete", "deletecollection", "*"};
  bool custom_verbs_only =
      !rule.verbs.empty() &&
      std::none_of(rule.verbs.begin(), rule.verbs.end(), [](const std::string& v) {
        return std::find(std::begin(kApiVerbs), std::end(kApiVerbs), v) != std::end(kApiVerbs);
      });
  if (custom_verbs_only) return true;
  return api_group_matches(rule, "certificates.k8s.io") && resource_matches(rule, "signers", "") &&
         name.ends_with("/*") && name.find('*') == name.size() - 1;
}

void run_ineffective_wildcard(const Context& ctx, Findings& out) {
  for (const RbacRole& role : ctx.rbac.roles()) {
    if (role.builtin()) continue;
    for (const PolicyRule& rule : role.rules) {
      std::vector<std::string> resources;
      for (const std::string& r : rule.resources) {
        size_t slash = r.find('/');
        if (slash != std::string::npos && slash > 0 && r.substr(0, slash) != "*" &&
            r.find('*', slash) != std::string::npos) {
          resources.push_back(r);
        }
      }
      std::vector<std::string> names;
      for (const std::string& n : rule.resource_names) {
        if (n.find_first_of("*?") != std::string::npos && !literal_star_name(rule, n))
          names.push_back(n);
      }
      if (resources.empty() && names.empty()) continue;
      bool aggregated = maybe_aggregated_api(ctx, rule.api_groups);
      std::string what;
      if (!resources.empty()) {
        what = fmt::format(
            "resources {} match only a subresource literally named \"*\", not every subresource",
            bracketed(resources));
      }
      if (!names.empty()) {
        if (!what.empty()) what += ", and ";
        what += fmt::format("resourceNames {} match only objects with exactly that name",
                            bracketed(names));
      }
      std::string message = fmt::format(
          "In {}, {}: the built-in RBAC authorizer does not expand wildcards there, so the rule "
          "grants less than it appears to.",
          role.display(), what);
      if (aggregated) {
        message += fmt::format(
            " The group {} is served by an aggregated API server, whose own authorization may "
            "ask for such names literally; then the rule works as written.",
            fmt::join(rule.api_groups, ", "));
      }
      Finding& f = out.add(
          *role.object, aggregated ? Severity::kInfo : Severity::kMedium, std::move(message),
          "List the subresources (pods/log, pods/exec...) or use \"*/subresource\" for one "
          "subresource of every resource; list exact names in resourceNames.",
          rule.node);
      f.summary = fmt::format("A wildcard in {} matches less than it appears to", role.display());
    }
  }
}

}  // namespace

extern const Check kRbacIneffectiveWildcard{
    .id = "rbac-ineffective-wildcard",
    .min_severity = Severity::kInfo,
    .max_severity = Severity::kMedium,
    .impact = Impact::kInstall,
    .area = Area::kRbac,
    .description =
        "A rule uses pods/*-style resources or glob-like resourceNames, which RBAC does not "
        "expand.",
    .run = run_ineffective_wildcard,
    .rationale =
        "The RBAC authorizer expands \"*\" only as a whole resource, a whole group, or "
        "*/subresource; pods/* matches a subresource literally named \"*\", and resourceNames "
        "compare by equality. Medium: the rule grants less than its author meant. Names the API "
        "server itself asks for literally (a signer domain's <domain>/* for approve and sign) are "
        "not reported, nor names in rules whose verbs are all custom (approve, sign, use), which "
        "only the code defining the verb asks about; aggregated API servers may do the same, so "
        "rules on their groups are info.",
    .fix =
        "List the subresources, use */subresource for one subresource of every resource, and list "
        "exact names.",
};

}  // namespace footprint
