#include "analysis/compare/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/analyze.h"
#include "analysis/context.h"
#include "analysis/models/inventory.h"
#include "analysis/models/rbac_models.h"
#include "analysis/models/webhook_reach.h"
#include "model/units.h"

namespace footprint {

namespace {

constexpr const char* kAbsent = "-";

// Everything compared, computed once per mode.
struct ModeFacts {
  bool ok = false;
  std::map<std::string, std::string> kinds;  // kind -> "12" or "12 (cluster)"...
  std::string webhooks;
  std::string cluster_scoped;
  std::map<std::string, std::string> webhook_scope;   // webhook name -> scope and failure policy
  std::map<std::string, std::string> cluster_rights;  // "ServiceAccount ns/name" -> rights
  std::string crds_shipped;
  std::string crds_required;
  std::map<std::string, std::string> ca_injection;  // configuration or CRD -> who injects
  std::map<std::string, std::string> findings;      // "check Kind name" -> severity
};

std::string join(const std::vector<std::string>& items) {
  return items.empty() ? std::string("none") : fmt::format("{}", fmt::join(items, ", "));
}

ModeFacts facts_of(const Context& ctx, const std::vector<Finding>& findings) {
  const Bundle& bundle = ctx.bundle;
  ModeFacts f;
  f.ok = true;
  const Inventory& inv = ctx.inventory;
  for (const KindCount& k : inv.kinds)
    f.kinds[k.key] = std::to_string(k.total());
  f.webhooks = fmt::format("{} ({} mutating + {} validating)", inv.webhooks(),
                           inv.mutating_webhooks, inv.validating_webhooks);
  f.cluster_scoped = std::to_string(inv.cluster_scoped);

  for (const WebhookSummary& s : ctx.webhooks) {
    const AdmissionWebhook& w = *s.webhook;
    f.webhook_scope[(w.mutating ? "M " : "V ") + w.name] = fmt::format(
        "{}, {}", s.namespace_scope, w.failure_policy == FailurePolicy::kFail ? "Fail" : "Ignore");
  }

  for (const SubjectPermissions& p : ctx.permissions) {
    if (p.subject.kind != SubjectKind::kServiceAccount) continue;
    std::set<std::string> rights;
    size_t cluster_grants = 0;
    std::set<std::string> namespaces;
    for (const PermissionGrant& g : p.grants) {
      if (!g.namespace_.empty()) {
        namespaces.insert(g.namespace_);
        continue;
      }
      ++cluster_grants;
      rights.insert(g.risks.begin(), g.risks.end());
    }
    std::string value;
    if (cluster_grants == 0) {
      value = namespaces.empty()
                  ? "none"
                  : fmt::format("none; namespaced in {}", fmt::join(namespaces, ", "));
    } else {
      value = fmt::format("{}{}", count_of(cluster_grants, "rule"),
                          rights.empty() ? "" : fmt::format(": {}", fmt::join(rights, ", ")));
    }
    f.cluster_rights[p.subject.display()] = value;
  }

  std::vector<std::string> shipped;
  std::set<std::string> required;
  for (const Object& obj : bundle.objects) {
    if (obj.group == "apiextensions.k8s.io" && obj.kind == "CustomResourceDefinition") {
      shipped.push_back(obj.name);
    }
    if (obj.scope == Scope::kUnknown && !bundle.resources.is_builtin_group(obj.group)) {
      required.insert(fmt::format("{} ({})", obj.kind, obj.group));
    }
  }
  f.crds_shipped = std::to_string(shipped.size());
  f.crds_required = join({required.begin(), required.end()});

  std::set<const Object*> configurations;
  for (const AdmissionWebhook& w : ctx.admission.webhooks) {
    if (w.client.is_service && !w.client.has_ca_bundle) configurations.insert(w.configuration);
  }
  for (const Object& obj : bundle.objects) {
    bool conversion = obj.kind == "CustomResourceDefinition" &&
                      obj.node.at({"spec", "conversion", "strategy"}).str() == "Webhook";
    if (conversion) configurations.insert(&obj);
  }
  for (const Object* o : configurations) {
    std::vector<std::string> who = ca_injectors(*o, ctx.rbac);
    f.ca_injection[o->kind + " " + o->name] = who.empty() ? "nobody" : join(who);
  }

  // An object can have several findings of one check: show the worst and how many.
  std::map<std::string, std::pair<Severity, size_t>> worst;
  for (const Finding& finding : findings) {
    if (finding.suppressed) continue;
    std::string key =
        fmt::format("{}: {} {}", finding.check, finding.object.kind, finding.object.name);
    auto [it, added] = worst.try_emplace(key, finding.severity, 0);
    it->second.first = std::max(it->second.first, finding.severity);
    ++it->second.second;
  }
  for (const auto& [key, seen] : worst) {
    f.findings[key] = seen.second == 1
                          ? std::string(severity_name(seen.first))
                          : fmt::format("{} ({})", severity_name(seen.first), seen.second);
  }
  return f;
}

// Whether the modes that could be read disagree; a failed mode has an empty value.
bool differ(const std::vector<std::string>& values, const std::vector<bool>& ok) {
  const std::string* first = nullptr;
  for (size_t i = 0; i < values.size(); ++i) {
    if (!ok[i]) continue;
    if (first && *first != values[i]) return true;
    first = &values[i];
  }
  return false;
}

void add_row(Comparison& c, const std::vector<bool>& ok, const std::string& group,
             const std::string& label, std::vector<std::string> values) {
  bool differs = differ(values, ok);
  c.rows.push_back(ComparisonRow{group, label, std::move(values), differs});
}

using Keyed = std::map<std::string, std::string>;

// One row per key found in any mode, "-" where a mode lacks it; `per_mode` is null for a mode
// that failed.
void add_keyed_rows(Comparison& c, const std::string& group,
                    const std::vector<const Keyed*>& per_mode, bool only_differences) {
  std::vector<bool> ok;
  for (const Keyed* m : per_mode)
    ok.push_back(m != nullptr);
  std::set<std::string> keys;
  for (const Keyed* m : per_mode) {
    if (!m) continue;
    for (const auto& [key, value] : *m)
      keys.insert(key);
  }
  for (const std::string& key : keys) {
    std::vector<std::string> values;
    for (const Keyed* m : per_mode) {
      auto it = m ? m->find(key) : Keyed::const_iterator{};
      values.push_back(!m ? "" : it == m->end() ? kAbsent : it->second);
    }
    bool differs = differ(values, ok);
    if (only_differences && !differs) continue;
    c.rows.push_back(ComparisonRow{group, key, std::move(values), differs});
  }
}

}  // namespace

Comparison compare_modes(const std::vector<ModeInput>& modes, const Config& config,
                         const Cluster* cluster) {
  Comparison c;
  // One context and one analysis per mode, shared by the decision table and the detail rows.
  std::vector<std::unique_ptr<Context>> contexts;
  std::vector<DecisionMode> decision_modes;
  std::vector<ModeFacts> facts;
  std::vector<bool> ok;
  for (const ModeInput& m : modes) {
    c.modes.push_back(m.name);
    ok.push_back(m.bundle != nullptr);
    contexts.push_back(m.bundle
                           ? std::make_unique<Context>(*m.bundle, std::vector<ClusterNamespace>{},
                                                       std::vector<Expectation>{}, cluster)
                           : nullptr);
    c.analyses.push_back(m.bundle ? analyze(*contexts.back(), config) : AnalysisResult{});
    facts.push_back(m.bundle ? facts_of(*contexts.back(), c.analyses.back().findings)
                             : ModeFacts{});
  }
  for (size_t i = 0; i < modes.size(); ++i)
    decision_modes.push_back(
        {modes[i].name, contexts[i].get(), &c.analyses[i].findings, modes[i].error});
  c.decisions = decision_table(decision_modes);
  if (std::find(ok.begin(), ok.end(), false) != ok.end()) {
    std::vector<std::string> errors;
    for (const ModeInput& m : modes)
      errors.push_back(m.bundle ? "ok" : m.error);
    // Modes that fail alike (helm missing for all of them) do not differ.
    bool differs = differ(errors, std::vector<bool>(errors.size(), true));
    c.rows.push_back(ComparisonRow{"Render", "result", std::move(errors), differs});
  }
  // With no mode rendered, every other row would be empty.
  if (std::find(ok.begin(), ok.end(), true) == ok.end()) return c;
  auto keyed = [&](auto member) {
    std::vector<const Keyed*> out;
    for (const ModeFacts& f : facts)
      out.push_back(f.ok ? &member(f) : nullptr);
    return out;
  };
  auto column = [&](auto member) {
    std::vector<std::string> values;
    for (const ModeFacts& f : facts)
      values.push_back(f.ok ? member(f) : "");
    return values;
  };
  add_keyed_rows(c, "Kinds", keyed([](const ModeFacts& f) -> const Keyed& { return f.kinds; }),
                 false);
  add_row(c, ok, "Footprint", "cluster-scoped objects",
          column([](const ModeFacts& f) { return f.cluster_scoped; }));
  add_row(c, ok, "Footprint", "webhooks", column([](const ModeFacts& f) { return f.webhooks; }));
  add_row(c, ok, "Footprint", "CRDs shipped",
          column([](const ModeFacts& f) { return f.crds_shipped; }));
  add_row(c, ok, "Footprint", "custom kinds used, CRD not in the input",
          column([](const ModeFacts& f) { return f.crds_required; }));
  add_keyed_rows(c, "Webhook scope",
                 keyed([](const ModeFacts& f) -> const Keyed& { return f.webhook_scope; }), false);
  add_keyed_rows(c, "Cluster-wide rights",
                 keyed([](const ModeFacts& f) -> const Keyed& { return f.cluster_rights; }), false);
  add_keyed_rows(c, "CA injected by",
                 keyed([](const ModeFacts& f) -> const Keyed& { return f.ca_injection; }), false);
  add_keyed_rows(c, "Findings in some modes only",
                 keyed([](const ModeFacts& f) -> const Keyed& { return f.findings; }), true);
  return c;
}

}  // namespace footprint
