// rule_risks() and risks_by_danger() (rbac_models.h): the short marks the Permissions table, the
// RBAC graph and the decision table put on a rule, from the escalation paths it takes alone.
#include <algorithm>

#include "analysis/models/escalation_paths.h"
#include "analysis/models/rbac_models.h"
#include "analysis/models/rights.h"

namespace footprint {

namespace {

// The marks rule_risks() puts on a rule, most dangerous first, each for the escalation paths
// (escalation_paths.h) that give it: cluster-admin, then what leads to it (RBAC, credentials,
// exec), then what reaches other teams' workloads, data and APIs.
struct RiskMark {
  std::string_view mark;
  std::vector<std::string_view> paths;
};

const std::vector<RiskMark>& risk_marks() {
  static const std::vector<RiskMark> kMarks = {
      {"escalates privileges", {"escalate", "bind", "impersonate", "request-tokens"}},
      {"writes bindings", {"write-bindings"}},
      {"issues certificates", {"issue-certificates"}},
      {"execs into pods", {"exec-into-pods", "node-proxy"}},
      {"reads secrets", {"read-secrets"}},
      {"creates workloads", {"create-workloads"}},
      {"creates volumes", {"create-persistentvolumes"}},
      {"changes webhooks", {"write-admission"}},
      {"repoints APIServices", {"write-apiservices"}},
      {"relabels namespaces", {"modify-namespaces"}},
      {"rewrites NetworkPolicies", {"write-network-policies"}},
      {"deletes workloads", {"delete-workloads"}},
      {"deletes volumes", {"delete-volumes"}},
      {"deletes namespaces", {"delete-namespaces"}},
      {"changes CRDs", {"write-crds"}},
  };
  return kMarks;
}

// The rule alone takes every step of the path, for any object name (or the one the API server
// asks about).
bool rule_takes(const PolicyRule& rule, const EscalationPath& path) {
  return std::all_of(
      path.steps.begin(), path.steps.end(), [&](const std::vector<PathRequest>& step) {
        return std::any_of(step.begin(), step.end(), [&](const PathRequest& r) {
          return rule_allows_resource(rule, r.verb, r.group, r.resource, r.subresource, r.name);
        });
      });
}

}  // namespace

std::vector<std::string_view> risks_by_danger() {
  std::vector<std::string_view> out = {"everything"};
  for (const RiskMark& m : risk_marks())
    out.push_back(m.mark);
  return out;
}

std::vector<std::string> rule_risks(const PolicyRule& rule) {
  std::vector<std::string> risks;
  if (grants_everything(rule)) risks.emplace_back("everything");
  for (const RiskMark& m : risk_marks()) {
    bool taken = std::any_of(m.paths.begin(), m.paths.end(), [&](std::string_view id) {
      const EscalationPath* path = find_escalation_path(id);
      return path && rule_takes(rule, *path);
    });
    if (taken) risks.emplace_back(m.mark);
  }
  return risks;
}

}  // namespace footprint
