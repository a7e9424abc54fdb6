// --expect: requests a subject must be allowed, checked against the bundle's RBAC.
#include <fmt/format.h>

#include "analysis/context.h"
#include "analysis/rbac/rbac_internal.h"

namespace footprint {

tl::expected<std::vector<Expectation>, LoadError> load_expectations(
    const std::string& path, const ResourceTable& resources) {
  auto text = read_text_file(path);
  if (!text) return tl::unexpected(LoadError{path, {}, "cannot read: " + text.error()});
  auto docs = yaml::parse(*text);
  if (!docs) return tl::unexpected(LoadError{path, docs.error().position, docs.error().message});
  std::vector<Expectation> out;
  auto fail = [&](const yaml::Node& at, std::string message) {
    return tl::unexpected(LoadError{path, at.position(), std::move(message)});
  };
  if (docs->empty()) return out;
  yaml::Node list = docs->front().root;
  if (!list.is_sequence()) {
    return fail(list, "expected a list of {as, verb, resource, namespace, name}");
  }
  for (size_t i = 0; i < list.size(); ++i) {
    yaml::Node item = list.item(i);
    if (!item.is_mapping()) return fail(item, "each expectation must be a mapping");
    for (size_t k = 0; k < item.size(); ++k) {
      std::string_view key = item.key(k).text();
      if (key != "as" && key != "verb" && key != "resource" && key != "namespace" &&
          key != "name") {
        return fail(item.key(k), fmt::format("unknown field \"{}\" (expected as, verb, resource, "
                                             "namespace, name)",
                                             key));
      }
    }
    for (const char* required : {"as", "verb", "resource"}) {
      if (item.get(required).str().empty()) {
        return fail(item, fmt::format("an expectation needs {}", required));
      }
    }
    Expectation e;
    e.as = std::string(item.get("as").str());
    auto identity = Identity::parse(e.as, {});
    if (!identity) return fail(item.get("as"), identity.error());
    e.identity = std::move(*identity);
    auto request = make_request(item.get("verb").str(), item.get("resource").str(),
                                item.get("name").str(), item.get("namespace").str(), resources);
    if (!request) return fail(item.get("resource"), request.error());
    e.request = std::move(*request);
    e.file = path;
    e.position = item.position();
    out.push_back(std::move(e));
  }
  return out;
}

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
    "rbac-expectation-unmet",
    Severity::kHigh,
    Severity::kHigh,
    Impact::kInstall,
    "rbac",
    "A request that --expect says must be allowed is denied by the bundle's RBAC.",
    run_expectation_unmet,
    "A request that --expect says the subject must be allowed is denied by the bundle's RBAC, as "
    "the authorizer evaluates it. High: the operator will fail where it makes that request.",
    "Grant the request in a rule without resourceNames, bound where the request is made."};

}  // namespace footprint
