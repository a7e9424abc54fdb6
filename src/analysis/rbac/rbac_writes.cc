// RBAC checks on writing what shapes everyone's API: webhook configurations and admission
// policies (which requests are intercepted or rejected) and CustomResourceDefinitions.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"
#include "analysis/models/rights.h"
#include "analysis/rbac/held_paths.h"
#include "analysis/rbac/rbac_internal.h"

namespace footprint {

namespace {

void run_webhook_config_write(const Context& ctx, Findings& out) {
  for (const SubjectRights* held : holders_of(ctx, "write-admission")) {
    const SubjectRights& rr = *held;
    // create cannot be limited by name; the other verbs can.
    bool any_name = std::any_of(rr.rights.begin(), rr.rights.end(), [](const Right& r) {
      return r.grant.rule->resource_names.empty() ||
             std::any_of(r.requests.begin(), r.requests.end(),
                         [](const Request& q) { return q.verb == "create"; });
    });
    bool webhooks = false;
    bool policies = false;
    std::vector<std::string> own;  // the names every rule is limited to, in rule order
    for (const Right& r : rr.rights) {
      for (const Request& q : r.requests) {
        bool policy = q.resource.find("admissionpolic") != std::string::npos;
        policies = policies || policy;
        webhooks = webhooks || !policy;
      }
      for (const std::string& n : r.grant.rule->resource_names)
        if (!contains(own, n)) own.push_back(n);
    }
    std::string what = webhooks && policies ? "webhook configuration or admission policy"
                       : policies           ? "admission policy"
                                            : "webhook configuration";
    std::string whats = webhooks && policies ? "webhook configurations and admission policies"
                        : policies           ? "admission policies"
                                             : "webhook configurations";
    std::vector<std::string> verbs_held = rr.what();
    bool creates_or_deletes = std::any_of(
        verbs_held.begin(), verbs_held.end(),
        [](const std::string& w) { return w.starts_with("create ") || w.starts_with("delete "); });
    std::string power =
        webhooks && policies
            ? "Webhook configurations decide which API requests are sent to which server, and "
              "admission policies with their bindings which ones the API server rejects or changes"
        : policies ? "An admission policy with its binding decides which API requests the API "
                     "server rejects or changes"
                   : "A webhook configuration decides which API requests are sent to which server";
    std::string names = any_name ? fmt::format("any {}, other teams' included", what)
                                 : fmt::format("only {}", bracketed(own));
    report_rights(
        out, rr, any_name ? Severity::kHigh : Severity::kLow,
        fmt::format("{} may {} ({}), through {}. {}{}.", rr.subject.display(),
                    merge_verbs(rr.what()), names, rr.sources(), power,
                    any_name ? ", so this can intercept or block writes anywhere in the cluster"
                             : "; limited to the operator's own, this is how operators inject "
                               "their CA"),
        any_name ? fmt::format("Restrict update and patch with resourceNames to the operator's "
                               "own{}.",
                               creates_or_deletes
                                   ? fmt::format(", and drop create and delete unless managing {} "
                                                 "is the operator's purpose",
                                                 whats)
                                   : "")
                 : "Already limited by resourceNames: nothing to change when these are the "
                   "operator's own; remove the right if the bundle injects the CA itself.",
        any_name ? fmt::format("{} can rewrite any {}", rr.subject.display(), what)
                 : fmt::format("{} can update its own {}", rr.subject.display(), whats));
  }
}

}  // namespace

extern const Check kRbacWebhookConfigWrite{
    .id = "rbac-webhook-config-write",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kHigh,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description =
        "A binding allows writing admission webhook configurations or admission policies.",
    .run = run_webhook_config_write,
    .rationale =
        "A webhook configuration decides which API requests are sent to which server, and a "
        "ValidatingAdmissionPolicy or MutatingAdmissionPolicy with its binding rejects or changes "
        "requests in the API server itself; writing any of them can intercept or block writes "
        "anywhere in the cluster. High for any configuration or policy (create cannot be limited "
        "by name); low when limited by resourceNames to the operator's own, which is how operators "
        "inject their CA. Only ClusterRoleBindings grant it: the resources are cluster-scoped.",
    .fix =
        "Limit update and patch with resourceNames to the operator's own configurations, and drop "
        "create and delete.",
};

namespace {

// The last two labels of a group: "gateway.networking.k8s.io" -> "k8s.io".
std::string_view group_domain(std::string_view group) {
  size_t last = group.rfind('.');
  if (last == std::string_view::npos || last == 0) return group;
  size_t second = group.rfind('.', last - 1);
  return second == std::string_view::npos ? group : group.substr(second + 1);
}

// Named CRDs that belong to other projects: groups the bundle's CRDs do not define, under a domain
// they do not define either; under the domains Kubernetes' community APIs share (k8s.io,
// x-k8s.io: Gateway API's gateway.networking.k8s.io is installed and upgraded by every controller
// that implements it) only the exact groups the bundle defines count as its own.
std::vector<std::string> other_projects_crds(const Context& ctx,
                                             const std::vector<std::string>& names) {
  std::vector<std::string_view> own_groups;
  std::vector<std::string_view> own_domains;
  for (const ResourceInfo& r : ctx.bundle.resources.all()) {
    if (r.builtin) continue;
    own_groups.push_back(r.group);
    own_domains.push_back(group_domain(r.group));
  }
  std::vector<std::string> out;
  for (const std::string& name : names) {
    size_t dot = name.find('.');
    if (dot == std::string::npos) continue;
    std::string_view group = std::string_view(name).substr(dot + 1);
    if (std::find(own_groups.begin(), own_groups.end(), group) != own_groups.end()) continue;
    std::string_view domain = group_domain(group);
    bool shared = domain == "k8s.io" || domain == "x-k8s.io";
    bool foreign = !own_domains.empty() &&
                   std::find(own_domains.begin(), own_domains.end(), domain) == own_domains.end();
    if (shared || foreign) out.push_back(name);
  }
  return out;
}

void run_crd_write(const Context& ctx, Findings& out) {
  for (const SubjectRights* held : holders_of(ctx, "write-crds")) {
    const SubjectRights& rr = *held;
    std::vector<std::string> what = rr.what();
    bool creates = contains(what, "create customresourcedefinitions");
    // What it may rewrite comes from its update and patch rights only: a create rule without
    // names says nothing about which existing CRDs it may change.
    std::vector<std::string> named;
    bool any_name = false;
    for (const Right& r : rr.rights) {
      bool rewrites = std::any_of(r.requests.begin(), r.requests.end(), [](const Request& q) {
        return q.verb == "update" || q.verb == "patch";
      });
      if (!rewrites) continue;
      any_name = any_name || r.grant.rule->resource_names.empty();
      for (const std::string& n : r.grant.rule->resource_names)
        add_unique(named, n);
    }
    std::vector<std::string> others = other_projects_crds(ctx, named);
    std::string rewritten = named.size() == 1
                                ? fmt::format("the CRD {}", named.front())
                                : fmt::format("the {} CRDs {}", named.size(), some_of(named, 6));
    if (!others.empty()) {
      rewritten += named.size() == 1
                       ? ", another project's CRD, which its own controllers also install and "
                         "upgrade"
                       : fmt::format(
                             ", {} of them other projects' ({}), which their own "
                             "controllers also install and upgrade",
                             others.size(), some_of(others, 4));
    }
    std::string hidden =
        creates && any_name ? "it may create any CustomResourceDefinition, and rewrite any"
        : creates && !named.empty()
            ? fmt::format("it may create any CustomResourceDefinition, and rewrite {}", rewritten)
        : creates  ? "it may create any CustomResourceDefinition"
        : any_name ? "it may rewrite any CustomResourceDefinition in the cluster, other "
                     "projects' included"
                   : fmt::format("it may rewrite only {}", rewritten);
    Severity severity = creates || any_name || !others.empty() ? Severity::kMedium : Severity::kLow;
    std::string fix =
        creates || any_name
            ? "Ship the CRDs in the bundle (or a CRD chart) and remove this right, or restrict "
              "update and patch to the operator's own CRDs with resourceNames."
        : !others.empty()
            ? fmt::format(
                  "Already limited to named CRDs; check that the operator's versions of "
                  "{} match what the other controllers using them expect, or leave "
                  "those CRDs to their projects and drop the names.",
                  some_of(others, 2))
            : "Already limited to named CRDs: nothing to change when they are the operator's "
              "own (the usual way to inject a conversion webhook's CA); remove the right if "
              "the bundle wires the CA itself.";
    Finding& f = report_rights(
        out, rr, severity,
        fmt::format("{} may {}, through {}: the operator {} CRDs at run time, so its true "
                    "cluster footprint is larger than this bundle. Hidden footprint: {}.",
                    rr.subject.display(), merge_verbs(what), rr.sources(),
                    creates ? "may install" : "may change", hidden),
        std::move(fix),
        fmt::format("{} can {} CRDs at run time", rr.subject.display(),
                    creates ? "install" : "rewrite"));
    if (!named.empty()) f.affects.emplace_back("may rewrite", named);
    if (!others.empty()) f.affects.emplace_back("other projects' CRDs", others);
  }
}

}  // namespace

extern const Check kRbacCrdWrite{
    .id = "rbac-crd-write",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kMedium,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description = "A ClusterRoleBinding allows creating or changing CustomResourceDefinitions.",
    .run = run_crd_write,
    .rationale =
        "A subject that may update or patch any CustomResourceDefinition can rewrite other "
        "projects' APIs (schemas, versions, conversion); with create it installs CRDs beyond the "
        "bundle (also crd-installed-at-runtime). Medium for any CRD or create, and for named CRDs "
        "of other projects (groups under k8s.io or x-k8s.io such as Gateway API's, or outside "
        "every domain the bundle's CRDs define); low when limited by resourceNames to the "
        "operator's own CRDs, which the finding lists.",
    .fix =
        "Ship the CRDs in the bundle and remove the right, or limit update and patch to the "
        "operator's own CRDs.",
};

}  // namespace footprint
