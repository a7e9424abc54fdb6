// --expect: requests a subject must be allowed, checked against the bundle's RBAC.
#include <fmt/format.h>

#include "analysis/context.h"
#include "analysis/rbac/rbac_internal.h"

namespace footprint {

namespace {

void run_expectation_unmet(const Context& ctx, Findings& out) {
  for (const Expectation& e : ctx.expectations) {
    Decision d = ctx.rbac.authorize(e.identity, e.request);
    if (d.allowed) continue;
    ObjectId who{"v1", "User", "", e.identity.user};
    std::string_view user = e.identity.user;
    if (e.identity.is_service_account()) {
      std::string_view rest = user.substr(std::string_view("system:serviceaccount:").size());
      size_t colon = rest.find(':');
      who = ObjectId{"v1", "ServiceAccount", std::string(rest.substr(0, colon)),
                     std::string(rest.substr(colon + 1))};
    }
    Finding& f = out.add_at(
        std::move(who), e.file, e.position, Severity::kHigh,
        fmt::format("{} must be allowed to {}, but is not: {}.", e.as, e.request.describe(),
                    fmt::join(d.reasons, "; ")),
        fmt::format(
            "Grant {} on {} to {} in a rule without resourceNames, bound {}.", e.request.verb,
            e.request.is_resource_request() ? e.request.resource : e.request.path, e.as,
            e.request.namespace_.empty() ? std::string("with a ClusterRoleBinding")
                                         : "with a RoleBinding in " + e.request.namespace_));
    f.summary = fmt::format("{} cannot {}, which --expect requires", e.as, e.request.describe());
  }
}

}  // namespace

extern const Check kRbacExpectationUnmet{
    .id = "rbac-expectation-unmet",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kRbac,
    .description = "A request that --expect says must be allowed is denied by the bundle's RBAC.",
    .run = run_expectation_unmet,
    .rationale =
        "A request that --expect says the subject must be allowed is denied by the bundle's RBAC, "
        "as the authorizer evaluates it. High: the operator will fail where it makes that request.",
    .fix = "Grant the request in a rule without resourceNames, bound where the request is made.",
};

}  // namespace footprint
