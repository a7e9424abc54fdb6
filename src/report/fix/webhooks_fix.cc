#include "report/fix/webhooks_fix.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"
#include "analysis/models/webhook_reach.h"
#include "model/kubectl_json.h"
#include "report/section.h"
#include "util/strings.h"

namespace footprint {

namespace {

constexpr std::string_view kSystemNamespaces[] = {"kube-system", "kube-public", "kube-node-lease"};
constexpr std::string_view kAdmissionGroup = "admissionregistration.k8s.io";

// The operator as the fix must keep it working: the service accounts and pod labels of the
// workloads behind its webhooks, and the namespaces that are its own.
struct Operator {
  std::vector<std::pair<std::string, std::string>> service_accounts;  // namespace, name
  std::vector<Labels> pod_labels;
  std::vector<yaml::Node> pod_specs;
  std::vector<std::string> namespaces;  // its own: release, bundle's, backends', --own-namespace
};

Operator operator_of(const Context& ctx, const WebhookFixOptions& options) {
  Operator op;
  for (const ClusterNamespace& ns : ctx.namespaces) {
    if (ns.operator_owned) add_unique(op.namespaces, ns.name);
  }
  for (const std::string& ns : options.own_namespaces)
    add_unique(op.namespaces, ns);
  std::vector<const Object*> owners;
  for (const WebhookSummary& s : ctx.webhooks) {
    const AdmissionWebhook& w = *s.webhook;
    if (w.in_cluster || !w.client.is_service) continue;
    add_unique(op.namespaces, w.client.service_namespace);
    for (const Object* owner : s.backend.backends) {
      if (std::find(owners.begin(), owners.end(), owner) == owners.end()) owners.push_back(owner);
    }
  }
  for (const PodTemplate& t : ctx.pods) {
    if (std::find(owners.begin(), owners.end(), t.owner) == owners.end()) continue;
    std::pair<std::string, std::string> sa{t.owner->namespace_,
                                           std::string(service_account_of(t.spec))};
    if (std::find(op.service_accounts.begin(), op.service_accounts.end(), sa) ==
        op.service_accounts.end()) {
      op.service_accounts.push_back(std::move(sa));
    }
    op.pod_labels.push_back(read_labels(t.metadata.get("labels")));
    op.pod_specs.push_back(t.spec);
  }
  return op;
}

const ClusterNamespace* find_namespace(const Context& ctx, std::string_view name) {
  for (const ClusterNamespace& ns : ctx.namespaces) {
    if (ns.name == name) return &ns;
  }
  return nullptr;
}

Labels labels_of(const Context& ctx, const std::string& name) {
  const ClusterNamespace* ns = find_namespace(ctx, name);
  Labels labels = ns ? ns->labels : Labels{};
  labels[kNamespaceNameLabel] = name;
  return labels;
}

std::string first_concrete(const std::vector<std::string>& values, std::string fallback) {
  for (const std::string& v : values) {
    if (v != "*") return v;
  }
  return fallback;
}

// Requests in namespace `ns` that stand for what a webhook's rules name: one per resource of each
// rule, with the first operation and version it names; pods for "*" in the core group. Only
// resources a namespaceSelector scopes: cluster-scoped ones are outside any namespace.
std::vector<AdmissionRequest> sample_requests(const Context& ctx, const AdmissionWebhook& w,
                                              const std::string& ns) {
  std::vector<AdmissionRequest> out;
  for (const AdmissionRule& rule : w.rules) {
    if (rule.scope == "Cluster") continue;
    std::string group = first_concrete(rule.api_groups, "");
    for (const std::string& written : rule.resources) {
      std::string resource = written.substr(0, written.find('/'));
      std::string sub =
          written.find('/') == std::string::npos ? "" : written.substr(written.find('/') + 1);
      if (sub == "*") sub.clear();
      if (resource == "*") {
        if (!group.empty()) continue;
        resource = "pods";
      }
      const ResourceInfo* info = ctx.bundle.resources.find_resource(group, resource);
      if (info && info->scope == Scope::kCluster) continue;
      AdmissionRequest r;
      r.operation = first_concrete(rule.operations, "CREATE");
      r.api_group = group;
      r.resource = resource;
      r.subresource = sub;
      r.api_version = first_concrete(
          rule.api_versions, info && !info->versions.empty() ? info->versions.front() : "v1");
      if (info) r.served_versions = info->versions;
      r.namespace_ = ns;
      r.namespace_labels = labels_of(ctx, ns);
      out.push_back(std::move(r));
    }
  }
  return out;
}

// The shared cluster-scoped resources a webhook matches, which no namespaceSelector scopes
// (admission/plugin/webhook/predicates/namespace/matcher.go: only namespaced resources and
// Namespace objects themselves are matched against it).
std::vector<std::string> cluster_scoped_reach(const Context& ctx, const AdmissionWebhook& w) {
  std::vector<std::string> out;
  for (const ResourceInfo& info : ctx.bundle.resources.all()) {
    if (info.scope != Scope::kCluster || (info.group.empty() && info.resource == "namespaces"))
      continue;
    if (!info.builtin && ctx.own.owns(info.group)) continue;
    AdmissionRequest r;
    r.api_group = info.group;
    r.resource = info.resource;
    r.served_versions = info.versions;
    if (exempt_from_webhooks(r)) continue;
    bool hit = false;
    for (const char* op : {"CREATE", "UPDATE", "DELETE"}) {
      r.operation = op;
      for (const std::string& v : info.versions) {
        r.api_version = v;
        hit = hit || std::any_of(w.rules.begin(), w.rules.end(), [&](const AdmissionRule& rule) {
                return rule_matches(rule, r, w.exact_match_policy);
              });
      }
    }
    if (hit) out.push_back(info.group.empty() ? info.resource : info.resource + "." + info.group);
  }
  return out;
}

Json& selector_field(Json& webhook, const char* field) {
  Json& s = webhook[field];
  if (!s.is_object()) s = Json::object();
  return s;
}

// Adds `values` to the selector's NotIn expression on the namespace name, or adds that
// expression: either way the selector only narrows (requirements are ANDed).
void exclude_names(Json& selector, const std::vector<std::string>& values) {
  Json& expressions = selector["matchExpressions"];
  if (!expressions.is_array()) expressions = Json::array();
  for (Json& e : expressions) {
    if (e.value("key", "") != kNamespaceNameLabel || e.value("operator", "") != "NotIn") continue;
    Json& have = e["values"];
    if (!have.is_array()) have = Json::array();
    for (const std::string& v : values) {
      if (std::find(have.begin(), have.end(), Json(v)) == have.end()) have.push_back(v);
    }
    return;
  }
  expressions.push_back({{"key", kNamespaceNameLabel}, {"operator", "NotIn"}, {"values", values}});
}

// The system namespaces the webhook is still called in, judged by its current selector.
std::vector<std::string> system_hit(const Context& ctx, const AdmissionWebhook& w) {
  std::vector<std::string> out;
  for (std::string_view ns : kSystemNamespaces) {
    if (w.namespace_selector.matches(labels_of(ctx, std::string(ns)))) out.emplace_back(ns);
  }
  return out;
}

// The resources of the webhook's shared reach, as RBAC requests without a verb: what the
// operator would write itself in a namespace for the webhook to matter to it there.
std::vector<Request> shared_resources(const Context& ctx, const AdmissionWebhook& w) {
  std::vector<Request> out;
  for (const AdmissionRequest& r : sample_requests(ctx, w, "x")) {
    const ResourceInfo* info = ctx.bundle.resources.find_resource(r.api_group, r.resource);
    if (info ? !info->builtin && ctx.own.owns(info->group) : ctx.own.owns(r.api_group)) continue;
    Request q;
    q.api_group = r.api_group;
    q.resource = r.resource;
    out.push_back(std::move(q));
  }
  return out;
}

// The operator's container settings that look like they govern its webhook configuration: flags
// and environment variables about webhooks, certificates or TLS, or whose value names the
// configuration (vault's injector: AGENT_INJECT_TLS_AUTO=vault-agent-injector-cfg). Names only.
std::vector<std::string> webhook_settings(const Operator& op, std::string_view configuration) {
  std::vector<std::string> out;
  auto relevant = [&](std::string_view text) {
    std::string l = lower(text);
    return l.find("webhook") != std::string::npos || l.find("cert") != std::string::npos ||
           l.find("tls") != std::string::npos || text.find(configuration) != std::string::npos;
  };
  for (const yaml::Node& spec : op.pod_specs) {
    for (const char* list : {"initContainers", "containers"}) {
      yaml::Node containers = spec.get(list);
      if (!containers.is_sequence()) continue;
      for (size_t i = 0; i < containers.size(); ++i) {
        yaml::Node c = containers.item(i);
        for (const char* field : {"command", "args"}) {
          yaml::Node args = c.get(field);
          if (!args.is_sequence()) continue;
          for (size_t j = 0; j < args.size(); ++j) {
            std::string_view arg = args.item(j).str();
            // The flag's name only: a value could be key material.
            if (arg.starts_with("-") && relevant(arg))
              add_unique(out, std::string(arg.substr(0, arg.find('='))));
          }
        }
        yaml::Node env = c.get("env");
        if (!env.is_sequence()) continue;
        for (size_t j = 0; j < env.size(); ++j) {
          std::string_view var = env.item(j).get("name").str();
          std::string_view value = env.item(j).get("value").str();
          bool names_it = value.find(configuration) != std::string_view::npos;
          if (!relevant(var) && !names_it) continue;
          add_unique(
              out, names_it ? fmt::format("{} (names this configuration)", var) : std::string(var));
        }
      }
    }
  }
  return out;
}

// One configuration being fixed: its JSON as kubectl would send it, edited in place.
struct Pending {
  const Object* config = nullptr;
  Json object;
  std::vector<std::string> changes;
  std::vector<const AdmissionWebhook*> webhooks;  // the changed ones
};

struct Planner {
  const Context& ctx;
  const WebhookFixOptions& options;
  Operator op;
  std::vector<std::string> managed;  // own: where narrowed webhooks are still called
  const ClusterNamespace* other = nullptr;
  WebhookFixPlan plan;

  // --scope own on a webhook of shared resources: only the operator's namespaces. Refused when
  // the operator may work in namespaces the bundle does not name.
  std::vector<std::string> narrow_to_own(const WebhookSummary& s, Json& webhook) {
    const AdmissionWebhook& w = *s.webhook;
    bool beyond =
        std::any_of(ctx.namespaces.begin(), ctx.namespaces.end(), [&](const ClusterNamespace& ns) {
          return !contains(managed, ns.name) && w.namespace_selector.matches(ns.labels);
        });
    if (!beyond) return {};
    // The operator writes these resources in namespaces the bundle does not show: narrowing to
    // the ones it shows would skip the webhook for the operator's own work elsewhere.
    if (other && options.own_namespaces.empty()) {
      for (Request q : shared_resources(ctx, w)) {
        q.namespace_ = other->name;
        for (const char* verb : {"create", "update", "patch"}) {
          q.verb = verb;
          for (const auto& [ns, name] : op.service_accounts) {
            Decision d = ctx.rbac.authorize(Identity::service_account(ns, name), q);
            if (!d.allowed) continue;
            plan.refusals.push_back(fmt::format(
                "{}: the operator's service account {}/{} may {} {} in namespaces the bundle does "
                "not show (such as {}){}, so the bundle does not show every namespace the "
                "operator manages; narrowing the webhook to [{}] would skip it for the operator's "
                "work elsewhere. Name them with --own-namespace NS, or use --scope exclude-system "
                "or --scope opt-in",
                w.name, ns, name, verb, q.resource, other->name,
                d.binding ? fmt::format(" through {}", d.binding->display()) : "",
                fmt::join(managed, ", ")));
            return {};
          }
        }
      }
    }
    if (managed.empty()) {
      plan.refusals.push_back(
          fmt::format("{}: the bundle names no namespace of the operator's outside the system "
                      "ones; name them with --own-namespace NS",
                      w.name));
      return {};
    }
    Json& expressions = selector_field(webhook, "namespaceSelector")["matchExpressions"];
    if (!expressions.is_array()) expressions = Json::array();
    expressions.push_back({{"key", kNamespaceNameLabel}, {"operator", "In"}, {"values", managed}});
    return {fmt::format("namespaceSelector: only namespaces [{}]", fmt::join(managed, ", "))};
  }

  // --scope opt-in on a webhook of shared resources: only namespaces or objects with the label.
  std::vector<std::string> narrow_to_label(Json& webhook, const AdmissionWebhook& w) {
    const char* field = options.label_on_objects ? "objectSelector" : "namespaceSelector";
    Json& labels = selector_field(webhook, field)["matchLabels"];
    if (!labels.is_object()) labels = Json::object();
    const std::string& key = options.label_key;
    if (labels.contains(key) && labels[key] != Json(options.label_value)) {
      plan.refusals.push_back(fmt::format(
          "{}: its {} already requires {}={}; requiring {}={} as well would match nothing", w.name,
          field, key, labels[key].is_string() ? labels[key].get<std::string>() : labels[key].dump(),
          key, options.label_value));
      return {};
    }
    labels[key] = options.label_value;
    return {fmt::format("{}: only {} labelled {}={}", field,
                        options.label_on_objects ? "objects" : "namespaces", key,
                        options.label_value)};
  }

  void edit(const WebhookSummary& s, Pending& p, Json& webhook) {
    const AdmissionWebhook& w = *s.webhook;
    bool narrow = options.scope != WebhookScope::kExcludeSystem && s.reach.shared() && !s.opt_in;
    bool by_objects = narrow && options.scope == WebhookScope::kOptIn && options.label_on_objects;
    std::vector<std::string> cluster_scoped = cluster_scoped_reach(ctx, w);
    if (!cluster_scoped.empty() && !by_objects) {
      plan.notes.push_back(fmt::format(
          "{}: {} {} cluster-scoped, and a namespaceSelector does not apply to cluster-scoped "
          "resources, so {} intercepted for everyone; take {} out of the rules, or scope "
          "{} with --scope opt-in --label-on objects",
          w.name, some_of(cluster_scoped, 4), cluster_scoped.size() == 1 ? "is" : "are",
          cluster_scoped.size() == 1 ? "it stays" : "they stay",
          cluster_scoped.size() == 1 ? "it" : "them", cluster_scoped.size() == 1 ? "it" : "them"));
    }
    if (!s.reach.namespaced && !by_objects) return;
    std::vector<std::string> changes;
    if (narrow && options.scope == WebhookScope::kOwn) {
      changes = narrow_to_own(s, webhook);
    } else {
      if (narrow) changes = narrow_to_label(webhook, w);
      if (s.reach.namespaced && !system_hit(ctx, w).empty()) {
        std::vector<std::string> all(std::begin(kSystemNamespaces), std::end(kSystemNamespaces));
        exclude_names(selector_field(webhook, "namespaceSelector"), all);
        changes.push_back(fmt::format("namespaceSelector: not in [{}]", fmt::join(all, ", ")));
      }
    }
    if (changes.empty()) return;
    for (const std::string& c : changes)
      p.changes.push_back(fmt::format("{}: {}", w.name, c));
    p.webhooks.push_back(&w);
  }

  // Why a request in the operator's namespace `ns` no longer reaches a narrowed webhook.
  std::string hint(const std::string& ns) const {
    if (is_system_namespace(ns)) {
      return fmt::format(
          "the operator runs in {}, a system namespace, which every scope keeps out; leave this "
          "webhook as it is",
          ns);
    }
    if (options.scope == WebhookScope::kOptIn && options.label_on_objects) {
      return fmt::format("the operator's own objects there do not carry {}={}; label them first",
                         options.label_key, options.label_value);
    }
    if (options.scope == WebhookScope::kOptIn) {
      return fmt::format(
          "namespace {} does not carry {}={}: label it first (kubectl label namespace {} {}={}) "
          "and give its labels with --namespaces FILE (kubectl get namespaces -o yaml)",
          ns, options.label_key, options.label_value, ns, options.label_key, options.label_value);
    }
    return "its selectors would exclude it";
  }

  // Reads the fixed configurations back with the same admission model the checks use, and
  // refuses every narrowing after which a request in the operator's own namespaces that reached
  // a webhook before no longer does.
  void verify(const std::vector<Pending>& pending) {
    std::string text;
    for (const Pending& p : pending) {
      if (!p.webhooks.empty()) text += p.object.dump() + "\n";  // a JSON stream
    }
    if (text.empty()) return;
    auto loaded = load_texts({NamedText{"fix", text}}, LoadOptions{});
    if (!loaded) {
      plan.refusals.push_back("the fixed configurations do not load back: " +
                              loaded.error().front().to_string());
      return;
    }
    Bundle fixed = build_bundle(std::move(*loaded), BundleOptions{});
    Admission after = read_admission(fixed);
    for (const Pending& p : pending) {
      for (const AdmissionWebhook* w : p.webhooks) {
        auto now = std::find_if(
            after.webhooks.begin(), after.webhooks.end(), [&](const AdmissionWebhook& a) {
              return a.configuration->kind == p.config->kind &&
                     a.configuration->name == p.config->name && a.name == w->name;
            });
        if (now == after.webhooks.end()) {
          plan.refusals.push_back(fmt::format("{}: not found in the fixed configuration", w->name));
          continue;
        }
        for (const std::string& ns : op.namespaces) {
          std::optional<std::string> lost;
          for (AdmissionRequest& r : sample_requests(ctx, *w, ns)) {
            bool pods = r.api_group.empty() && r.resource == "pods";
            std::vector<Labels> variants = pods ? op.pod_labels : std::vector<Labels>{};
            if (variants.empty()) variants.emplace_back();
            for (const Labels& labels : variants) {
              r.object_labels = labels;
              if (!lost && webhook_matches(*w, r) && !webhook_matches(*now, r))
                lost = fmt::format("{} {}", r.resource, r.operation);
            }
          }
          if (!lost) continue;
          plan.refusals.push_back(fmt::format(
              "{}: after --scope {}, {} in {}, the operator's own namespace, would no longer "
              "pass it: {}",
              w->name,
              options.scope == WebhookScope::kOwn     ? "own"
              : options.scope == WebhookScope::kOptIn ? "opt-in"
                                                      : "exclude-system",
              *lost, ns, hint(ns)));
        }
      }
    }
  }

  // The operator's service accounts may rewrite the configuration at run time.
  void check_reverted(const Pending& p) {
    std::string resource = lower(p.config->kind) + "s";
    for (const auto& [ns, name] : op.service_accounts) {
      std::vector<std::string> verbs;
      const RbacBinding* through = nullptr;
      for (const char* verb : {"update", "patch"}) {
        Request q;
        q.verb = verb;
        q.api_group = kAdmissionGroup;
        q.resource = resource;
        q.name = p.config->name;
        Decision d = ctx.rbac.authorize(Identity::service_account(ns, name), q);
        if (!d.allowed) continue;
        verbs.emplace_back(verb);
        if (!through) through = d.binding;
      }
      if (verbs.empty()) continue;
      std::vector<std::string> settings = webhook_settings(op, p.config->name);
      plan.reverted.push_back(fmt::format(
          "{}: the operator's service account {}/{} may {} it{}: an operator that writes its "
          "webhook configurations at run time (rather than only injecting caBundle) reverts "
          "this fix on its next start or reconcile. {}",
          p.config->display(), ns, name, fmt::join(verbs, " and "),
          through ? fmt::format(" (through {})", through->display()) : "",
          settings.empty()
              ? std::string("No flag or value of the operator that governs this is visible in "
                            "the bundle; check after a restart that the selectors stayed.")
              : fmt::format("Its settings that may govern this: {}.", fmt::join(settings, ", "))));
      return;
    }
  }
};

Json patch_of(const Pending& p) {
  Json webhooks = Json::array();
  for (const AdmissionWebhook* w : p.webhooks) {
    for (const Json& entry : p.object["webhooks"]) {
      if (entry.value("name", "") != w->name) continue;
      Json one = {{"name", w->name}};
      for (const char* field : {"namespaceSelector", "objectSelector"}) {
        if (entry.contains(field)) one[field] = entry[field];
      }
      webhooks.push_back(std::move(one));
    }
  }
  return {{"apiVersion", p.object.value("apiVersion", "")},
          {"kind", p.object.value("kind", "")},
          {"metadata", {{"name", p.config->name}}},
          {"webhooks", std::move(webhooks)}};
}

}  // namespace

WebhookFixPlan plan_webhook_fixes(const Context& ctx, const WebhookFixOptions& options) {
  Planner planner{ctx, options, operator_of(ctx, options), {}, other_team_namespace(ctx.namespaces),
                  {}};
  for (const std::string& ns : planner.op.namespaces) {
    if (!is_system_namespace(ns)) planner.managed.push_back(ns);
  }
  std::vector<Pending> pending;
  for (const WebhookSummary& s : ctx.webhooks) {
    const AdmissionWebhook& w = *s.webhook;
    if (w.in_cluster) continue;
    auto p = std::find_if(pending.begin(), pending.end(),
                          [&](const Pending& x) { return x.config == w.configuration; });
    if (p == pending.end()) {
      auto json = kubectl_json(w.configuration->node);
      if (!json) {
        planner.plan.refusals.push_back(
            fmt::format("{}: kubectl cannot encode it: line {}: {}", w.configuration->display(),
                        json.error().position.line, json.error().message));
        continue;
      }
      p = pending.insert(pending.end(), Pending{w.configuration, Json::parse(*json), {}, {}});
    }
    for (Json& entry : p->object["webhooks"]) {
      if (entry.value("name", "") == w.name) {
        planner.edit(s, *p, entry);
        break;
      }
    }
  }
  planner.verify(pending);
  WebhookFixPlan& plan = planner.plan;
  for (const Pending& p : pending) {
    if (p.webhooks.empty()) continue;
    planner.check_reverted(p);
    plan.fixes.push_back(
        WebhookConfigFix{p.config, p.changes, p.object.dump(2) + "\n", patch_of(p).dump(2) + "\n"});
  }
  return std::move(planner.plan);
}

std::string post_render(const Bundle& bundle, const WebhookFixPlan& plan) {
  std::string out;
  for (uint32_t f = 0; f < bundle.input.texts.size(); ++f) {
    std::string_view text = bundle.input.texts[f];
    std::vector<const WebhookConfigFix*> here;
    for (const WebhookConfigFix& fix : plan.fixes) {
      if (fix.configuration->file == f) here.push_back(&fix);
    }
    std::sort(here.begin(), here.end(), [](const WebhookConfigFix* a, const WebhookConfigFix* b) {
      return a->configuration->node.begin_offset() < b->configuration->node.begin_offset();
    });
    if (!out.empty() && !out.ends_with("\n")) out += "\n";
    if (f > 0) out += "---\n";
    size_t at = 0;
    for (const WebhookConfigFix* fix : here) {
      // One line of JSON is a valid YAML node wherever the object's mapping stood.
      size_t begin = fix->configuration->node.begin_offset();
      size_t end = fix->configuration->node.end_offset();
      out.append(text.substr(at, begin - at));
      out += Json::parse(fix->fixed).dump();
      // A block mapping's range ends after its last line break: keep the line breaks.
      size_t kept = end;
      while (kept > begin && (text[kept - 1] == '\n' || text[kept - 1] == '\r'))
        --kept;
      at = kept;
    }
    out.append(text.substr(at));
  }
  return out;
}

}  // namespace footprint
