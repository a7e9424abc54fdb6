#include "analysis/compare/decision_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analysis/commands/install_rights.h"
#include "analysis/context.h"
#include "analysis/models/crd_models.h"
#include "analysis/models/inventory.h"
#include "analysis/models/rbac_models.h"
#include "analysis/models/rights.h"
#include "analysis/models/webhook_reach.h"
#include "model/units.h"
#include "util/strings.h"

namespace footprint {

namespace {

std::string comma_list(const std::vector<std::string>& items) {
  return fmt::format("{}", fmt::join(items, ", "));
}

// "yes: mpod.example.com (pods CREATE, Ignore, 10 s) in 4 of 4 namespaces of other teams", or
// "no: only team-a". Whose pod creation a webhook sees is the admission engine's reach over the
// namespace set (summarize_webhooks), as for the webhook-* checks.
DecisionAnswer pod_creation(const Context& ctx) {
  DecisionAnswer a;
  std::vector<std::string> reaching;
  std::vector<std::string> only;
  std::vector<std::string> opted_in;
  for (const WebhookSummary& s : ctx.webhooks) {
    if (s.reach.pod_creation.empty()) continue;
    const AdmissionWebhook& w = *s.webhook;
    std::string requests = comma_list(s.reach.pod_creation);
    a.evidence.push_back(
        fmt::format("{} webhook {}: {}; namespaceSelector {}, objectSelector {}; called in {}",
                    w.configuration->display(), w.name, requests, s.namespace_scope, s.object_scope,
                    s.namespaces_hit.empty() ? std::string("none of the namespaces known")
                                             : comma_list(s.namespaces_hit)));
    if (!s.others_hit.empty()) {
      reaching.push_back(
          fmt::format("{} ({}, {}, {} s) in {} of {} of other teams{}", w.name, requests,
                      w.failure_policy == FailurePolicy::kFail ? "Fail" : "Ignore", s.worst_seconds,
                      s.others_hit.size(), count_of(s.others_total, "namespace"),
                      s.hits_kube_system ? " and kube-system" : ""));
    } else if (s.opt_in) {
      add_unique(opted_in, w.name);
    } else {
      for (const std::string& ns : s.namespaces_hit)
        add_unique(only, ns);
    }
  }
  if (!reaching.empty()) {
    a.answer = "yes: " + fmt::format("{}", fmt::join(reaching, "; "));
  } else if (!only.empty()) {
    std::sort(only.begin(), only.end());
    a.answer = "no: only " + comma_list(only);
  } else if (!opted_in.empty()) {
    a.answer = "no: only where teams opt in by label (" + comma_list(opted_in) + ")";
  } else {
    a.answer = "no";
  }
  return a;
}

// The install's own API groups no CRD of the bundle defines: someone applies them first.
std::vector<std::string> own_groups_without_crds(const Context& ctx,
                                                 const std::vector<const Object*>& crds) {
  std::vector<std::string> out;
  for (const auto& entry : ctx.own.groups) {
    const std::string& group = entry.first;
    bool shipped = std::any_of(crds.begin(), crds.end(), [&](const Object* crd) {
      return crd->node.at({"spec", "group"}).str() == group;
    });
    if (!shipped) out.push_back(group);
  }
  return out;
}

struct CrdInstaller {
  DecisionAnswer answer;
  std::vector<std::string> groups_to_apply;  // when the answer is "you"
};

CrdInstaller crd_installer(const Context& ctx) {
  CrdInstaller out;
  DecisionAnswer& a = out.answer;
  const HiddenFootprint& hidden = ctx.hidden;
  const std::vector<const Object*>& crds = ctx.crds;
  const CrdWriter* creator = nullptr;
  for (const CrdWriter& w : hidden.writers) {
    a.evidence.push_back(fmt::format("{} may {} CustomResourceDefinitions (through {})",
                                     w.subject.display(), fmt::join(w.verbs, "/"),
                                     comma_list(w.via)));
    if (!creator && w.creates()) creator = &w;
  }
  for (const CrdInstallCommand& c : hidden.commands) {
    a.evidence.push_back(
        fmt::format("container {} of {} runs {}", c.container, c.workload->display(), c.evidence));
  }
  for (const Object* crd : crds)
    a.evidence.push_back("the bundle ships CustomResourceDefinition " + crd->name);
  if (!hidden.commands.empty()) {
    const CrdInstallCommand& c = hidden.commands.front();
    a.answer =
        fmt::format("the operator, at run time ({} of {})", c.container, c.workload->display());
  } else if (!crds.empty()) {
    // An OLM bundle's CRDs are created by OLM, which also upgrades them.
    const std::vector<std::string>& renderers = ctx.bundle.input.renderers;
    bool olm = std::find(renderers.begin(), renderers.end(), "olm") != renderers.end();
    a.answer = fmt::format("{} ({} CRD{})", olm ? "OLM" : "the chart", crds.size(),
                           crds.size() == 1 ? "" : "s");
    if (creator) a.answer += fmt::format("; {} may create more", creator->subject.display());
  } else if (creator) {
    a.answer =
        fmt::format("the operator, at run time ({} may create CRDs)", creator->subject.display());
  } else {
    out.groups_to_apply = own_groups_without_crds(ctx, crds);
    for (const std::string& group : out.groups_to_apply)
      a.evidence.push_back(fmt::format("{} is the install's own API group: {}", group,
                                       ctx.own.groups.find(group)->second));
    a.answer = out.groups_to_apply.empty()
                   ? "nobody needed"
                   : "you, before installing (" + comma_list(out.groups_to_apply) + ")";
  }
  return out;
}

// "ServiceAccount a/b (may patch it, through ...)" -> "ServiceAccount a/b".
std::string injector_name(const std::string& injector) {
  return injector.substr(0, injector.find(" (may "));
}

// Whether the Service a conversion webhook ends up calling exists: the one a run-time applier
// writes into the CRD (ConversionWiring::rewriter), else the file's own reference.
bool conversion_service_ok(const ConversionWiring& w) {
  if (w.rewriter) return w.rewritten_service != nullptr;
  return !w.service_missing() && !w.port_mismatch();
}

// "Service ops/hooks and the CA of CRD widgets.example.com": what is left to the user.
std::string left_to_you(const ConversionWiring& w) {
  std::string service;
  if (w.rewriter) {
    service = fmt::format("{}/{}", w.rewriter->conversion_service_namespace,
                          w.rewriter->conversion_service_name);
  } else {
    service = w.target_service()
                  ? w.target_service()->qualified_name()
                  : fmt::format("{}/{}", w.client.service_namespace, w.client.service_name);
  }
  if (!conversion_service_ok(w) && w.ca_missing())
    return fmt::format("Service {} and the CA of CRD {}", service, w.crd->name);
  if (!conversion_service_ok(w)) return fmt::format("Service {} of CRD {}", service, w.crd->name);
  return fmt::format("the CA of CRD {}", w.crd->name);
}

// Who fills in the CA: "ServiceAccount a/b may patch CRDs", or the injector's own words.
std::string ca_writer(const ConversionWiring& w) {
  const std::string& who = w.injectors.front();
  return who.starts_with("ServiceAccount ") ? fmt::format("{} may patch CRDs", injector_name(who))
                                            : injector_name(who);
}

DecisionAnswer conversion_wiring_answer(const Context& ctx) {
  DecisionAnswer a;
  const std::vector<ConversionWiring>& wiring = ctx.conversions;
  const ConversionWiring* yours = nullptr;
  const ConversionWiring* rewritten = nullptr;
  const ConversionWiring* injected = nullptr;
  for (const ConversionWiring& w : wiring) {
    std::string service = w.client.is_service
                              ? fmt::format("Service {}/{}:{}", w.client.service_namespace,
                                            w.client.service_name, w.client.port)
                              : w.client.url;
    a.evidence.push_back(
        fmt::format("CRD {}: {}{}; caBundle {}{}", w.crd->name, service,
                    w.service_missing() ? " (not in the bundle)" : "",
                    w.ca == CaBundleState::kSet ? "set" : "empty",
                    w.injectors.empty() ? "" : "; injected by " + comma_list(w.injectors)));
    if (w.rewriter) {
      const CrdInstallCommand& c = *w.rewriter;
      a.evidence.push_back(fmt::format(
          "container {} of {} applies CRD {} and points its conversion webhook at Service {}/{}{} "
          "(`{}`)",
          c.container, c.workload->display(), w.crd->name, c.conversion_service_namespace,
          c.conversion_service_name, w.rewritten_service ? "" : " (not in the bundle)",
          c.evidence));
    }
    if (!yours && (!conversion_service_ok(w) || w.ca_missing())) yours = &w;
    if (!rewritten && w.rewriter) rewritten = &w;
    if (!injected && w.ca != CaBundleState::kSet && !w.injectors.empty()) injected = &w;
  }
  // Whether a CRD converts through a webhook is in the CRD itself: without the install's own
  // CRDs (applied by hand, or by the operator at run time) the table cannot answer.
  std::vector<std::string> unseen = own_groups_without_crds(ctx, ctx.crds);
  const std::vector<CrdInstallCommand>& runtime = ctx.hidden.commands;
  if (wiring.empty() && (!unseen.empty() || (!runtime.empty() && ctx.crds.empty()))) {
    std::string what =
        !unseen.empty()
            ? fmt::format("the CRDs of {} (the install's own)", comma_list(unseen))
            : fmt::format("the CRDs {} applies at run time", runtime.front().workload->display());
    a.evidence.push_back(fmt::format("the input holds no CustomResourceDefinition of {}",
                                     unseen.empty() ? "the install" : comma_list(unseen)));
    a.answer = fmt::format(
        "cannot tell: {} are not in the input, and only they say whether conversion goes through "
        "a webhook; add them (give this mode a directory holding its manifests and the CRD "
        "files, NAME=DIR)",
        what);
  } else if (wiring.empty()) {
    a.answer = "nobody needed (no conversion webhooks)";
  } else if (yours) {
    a.answer = fmt::format("you: {} (`footprint fix crds` prints how)", left_to_you(*yours));
  } else if (rewritten) {
    // The operator's applier sets the Service whenever it applies the CRDs; the CA is set or
    // injected, else `yours` would hold this CRD.
    const CrdInstallCommand& c = *rewritten->rewriter;
    std::string ca = rewritten->ca == CaBundleState::kSet ? "caBundle set in the CRD"
                     : rewritten->injectors.empty()       ? ""
                                                          : ca_writer(*rewritten);
    a.answer = fmt::format(
        "the operator (container {} of {} sets Service {} when it applies the CRDs; {})",
        c.container, c.workload->display(), rewritten->rewritten_service->qualified_name(), ca);
  } else if (injected) {
    const std::string& who = injected->injectors.front();
    a.answer = who.starts_with("ServiceAccount ")
                   ? fmt::format("the operator ({})", ca_writer(*injected))
                   : injector_name(who);
  } else {
    a.answer = "the chart";
  }
  return a;
}

// A resourceNames rule that leaves the operator unable to list what it watches, where no other
// grant covers it: the RBAC authorizer's answer (Context::list_watch_traps), graded by the evidence
// rbac-resourcenames-list-watch grades it by. A watch of the named objects by field selector
// metadata.name is allowed, an informer over the kind is not: "no" only when the subject's rights
// elsewhere show an informer, "yes" when its containers name the object (read by name), and
// "depends" when nothing shows which. The strongest evidence among the traps decides.
DecisionAnswer separate_namespaces(const Context& ctx) {
  DecisionAnswer a;
  const std::vector<ListWatchTrap>& traps = ctx.list_watch_traps;
  const ListWatchTrap* informer = nullptr;
  const ListWatchTrap* unknown = nullptr;
  for (const ListWatchTrap& t : traps) {
    if (!t.binding) continue;
    std::string what = group_resource(t.api_group, t.resource);
    if (t.covered_by.allowed) {
      a.evidence.push_back(fmt::format("{} lists {} only by name, but {} allows the list",
                                       t.role->display(), what, t.covered_by.role->display()));
      continue;
    }
    std::string denied = fmt::format("{} lists {} only by name, and nothing else lets {} list them",
                                     t.role->display(), what, t.subject.display());
    switch (t.evidence) {
      case ListWatchEvidence::kInformer:
        a.evidence.push_back(
            fmt::format("{}; it lists and watches all {} in namespace {}, as an informer does",
                        denied, what, t.informer_namespace));
        if (!informer) informer = &t;
        break;
      case ListWatchEvidence::kNamedByContainers:
        a.evidence.push_back(
            fmt::format("{}; its containers name the object (`{}`), which it can watch by name",
                        denied, t.named_by));
        break;
      case ListWatchEvidence::kNone:
        a.evidence.push_back(
            fmt::format("{}; nothing shows whether it runs an informer over them", denied));
        if (!unknown) unknown = &t;
        break;
    }
  }
  auto where = [](const ListWatchTrap& t) {
    return t.namespace_.empty() ? std::string("cluster-wide") : "in " + t.namespace_;
  };
  // What `footprint fix rbac` writes: a grant in the binding's scope.
  auto fix = [](const ListWatchTrap& t) {
    return t.namespace_.empty() ? "add a ClusterRole" : "add a Role";
  };
  if (informer) {
    a.answer = fmt::format(
        "no: {} cannot list {} {} (resourceNames rule): {} (`footprint fix rbac`)",
        informer->subject.display(), group_resource(informer->api_group, informer->resource),
        where(*informer), fix(*informer));
  } else if (unknown) {
    a.answer = fmt::format(
        "depends: if {} runs an informer over {} {}, it cannot list them (resourceNames rule): {} "
        "(`footprint fix rbac`); a watch by field selector metadata.name works",
        unknown->subject.display(), group_resource(unknown->api_group, unknown->resource),
        where(*unknown), fix(*unknown));
  } else {
    a.answer = "yes";
  }
  return a;
}

std::string plural(const std::string& kind, uint32_t count) {
  std::string name = kind == "CustomResourceDefinition" ? "CRD" : kind;
  if (count == 1) return fmt::format("1 {}", name);
  if (name.ends_with("s") || name.ends_with("x") || name.ends_with("ch"))
    return fmt::format("{} {}es", count, name);
  if (name.ends_with("y") && name.size() > 1 &&
      std::string_view("aeiou").find(name[name.size() - 2]) == std::string_view::npos) {
    return fmt::format("{} {}ies", count, name.substr(0, name.size() - 1));
  }
  return fmt::format("{} {}s", count, name);
}

size_t risk_rank(const std::string& risk) {
  static const std::vector<std::string_view> kRanked = risks_by_danger();
  auto it = std::find(kRanked.begin(), kRanked.end(), risk);
  return static_cast<size_t>(it - kRanked.begin());
}

DecisionAnswer cluster_footprint(const Context& ctx) {
  DecisionAnswer a;
  const Inventory& inv = ctx.inventory;
  // RBAC objects by kind, as a reviewer weighs them; the other cluster-scoped objects (CRDs,
  // webhook configurations...) counted together, with their kinds in the evidence.
  uint32_t cluster_roles = 0;
  uint32_t cluster_role_bindings = 0;
  uint32_t others = 0;
  uint32_t roles = 0;
  for (const KindCount& k : inv.kinds) {
    if (k.key == "ClusterRole") {
      cluster_roles = k.cluster;
    } else if (k.key == "ClusterRoleBinding") {
      cluster_role_bindings = k.cluster;
    } else if (k.cluster > 0) {
      others += k.cluster;
      a.evidence.push_back(plural(k.key, k.cluster));
    }
    if (k.key == "Role") roles = k.namespaced;
  }
  std::vector<std::string> counts;
  if (cluster_roles > 0) counts.push_back(plural("ClusterRole", cluster_roles));
  if (cluster_role_bindings > 0)
    counts.push_back(plural("ClusterRoleBinding", cluster_role_bindings));
  if (others > 0) {
    counts.push_back(
        fmt::format("{} other cluster-scoped object{}", others, others == 1 ? "" : "s"));
  }
  a.answer = counts.empty() ? "nothing cluster-scoped" : comma_list(counts);
  if (roles > 0) a.answer += " + " + plural("Role", roles);

  std::string riskiest;
  size_t best = risks_by_danger().size();
  for (const SubjectPermissions& p : ctx.permissions) {
    std::set<std::string> risks;
    for (const PermissionGrant& g : p.grants) {
      if (!g.namespace_.empty()) continue;
      risks.insert(g.risks.begin(), g.risks.end());
      for (const std::string& r : g.risks) {
        if (risk_rank(r) >= best) continue;
        best = risk_rank(r);
        riskiest = fmt::format("{} {}", p.subject.display(), r);
      }
    }
    if (!risks.empty()) {
      a.evidence.push_back(
          fmt::format("{} cluster-wide: {}", p.subject.display(), fmt::join(risks, ", ")));
    }
  }
  a.answer += riskiest.empty() ? "; no risky cluster-wide right"
                               : fmt::format("; riskiest cluster-wide right: {}", riskiest);
  return a;
}

// Whether the built-in admin role in the install's namespaces is enough (can-install's model);
// otherwise what only a cluster admin holds, first three of each kind.
DecisionAnswer who_installs(const Context& ctx) {
  NamespaceAdminRights admin = namespace_admin_rights(ctx, ctx.bundle.default_namespace);
  DecisionAnswer a;
  if (admin.rights.allowed()) {
    a.answer = "a namespace admin of " + comma_list(admin.namespaces);
    return a;
  }
  a.answer = "cluster admin only";
  size_t shown = 0;
  for (const InstallNeed& n : admin.rights.needs) {
    if (n.allowed || shown++ == 3) continue;
    std::string what = n.request.resource;
    if (!n.request.api_group.empty()) what += "." + n.request.api_group;
    a.evidence.push_back(
        fmt::format("a namespace admin may not {} {} {} ({})", n.request.verb, what,
                    n.request.namespace_.empty() ? "cluster-wide" : "in " + n.request.namespace_,
                    some_of(n.needed_by, 2)));
  }
  for (size_t i = 0; i < admin.rights.denials.size() && i < 3; ++i) {
    const EscalationDenial& d = admin.rights.denials[i];
    a.evidence.push_back(fmt::format("{} grants rights admin does not hold: {}",
                                     d.object->display(), some_of(d.lacking, 2)));
  }
  a.evidence.emplace_back("footprint can-install --print-role writes the least grant instead");
  return a;
}

DecisionAnswer prerequisites(const Context& ctx, const std::vector<std::string>& own_to_apply) {
  DecisionAnswer a;
  std::vector<std::string> crds;
  for (const std::string& group : own_to_apply)
    crds.push_back(group + " (the install's own)");
  for (const MissingCrd& m : ctx.missing_crds) {
    std::vector<std::string> kinds;
    for (const auto& [kind, objects] : m.kinds)
      kinds.push_back(kind);
    std::string entry = fmt::format("{} ({})", m.group, comma_list(kinds));
    if (std::find(own_to_apply.begin(), own_to_apply.end(), m.group) == own_to_apply.end())
      crds.push_back(entry);
    a.evidence.push_back("the bundle uses " + entry + " without its CRD");
  }
  std::vector<std::string> namespaces;
  const Inventory& inv = ctx.inventory;
  for (const NamespaceUsage& ns : inv.namespaces) {
    // Every cluster has default, kube-system, kube-public and kube-node-lease.
    bool exists = ns.created || ns.release || every_cluster_has(ns.name);
    if (exists) continue;
    namespaces.push_back(ns.name);
    a.evidence.push_back(fmt::format("{} land{} in namespace {}, which the bundle does not create",
                                     count_of(ns.objects, "object"), ns.objects == 1 ? "s" : "",
                                     ns.name));
  }
  std::vector<std::string> parts;
  if (!crds.empty()) parts.push_back("CRDs of " + comma_list(crds));
  if (!namespaces.empty()) parts.push_back("namespaces " + comma_list(namespaces));
  a.answer = parts.empty() ? "nothing beyond the release namespace"
                           : fmt::format("{}", fmt::join(parts, "; "));
  return a;
}

DecisionAnswer worst_finding(const std::vector<Finding>& findings) {
  DecisionAnswer a;
  auto it = std::find_if(findings.begin(), findings.end(),
                         [](const Finding& f) { return !f.suppressed; });
  if (it == findings.end()) {
    a.answer = "none";
    return a;
  }
  a.answer = fmt::format("{} {}: {}", severity_name(it->severity), it->check,
                         it->summary.empty() ? it->message : it->summary);
  a.evidence.push_back(
      fmt::format("{} {} at {}:{}{}", it->object.kind, it->object.name, it->file, it->position.line,
                  it->helm_template.empty() ? "" : " (" + it->helm_template + ")"));
  return a;
}

// A mode that needs its own CRDs applied by hand, while another mode of the comparison ships
// them: say how large the largest is, and whether client-side apply can carry it.
void size_crds_to_apply(DecisionAnswer& answer, const std::vector<std::string>& groups,
                        const std::vector<DecisionMode>& modes) {
  const Object* largest = nullptr;
  uint64_t largest_bytes = 0;
  uint64_t largest_annotation = 0;
  std::string from;
  for (const DecisionMode& m : modes) {
    if (!m.context) continue;
    for (const ObjectSize& s : m.context->sizes) {
      const Object& obj = *s.object;
      if (obj.kind != "CustomResourceDefinition" || !s.sizes) continue;
      std::string_view group = obj.node.at({"spec", "group"}).str();
      if (std::find(groups.begin(), groups.end(), group) == groups.end()) continue;
      if (!largest || s.sizes->json_bytes > largest_bytes) {
        largest = &obj;
        largest_bytes = s.sizes->json_bytes;
        largest_annotation = s.sizes->annotation_bytes;
        from = m.name;
      }
    }
  }
  if (!largest) return;
  answer.evidence.push_back(fmt::format("mode {} ships them; the largest, {}, is {} bytes", from,
                                        largest->name, with_commas(largest_bytes)));
  if (largest_annotation > kAnnotationLimit) {
    answer.answer =
        fmt::format("you, before installing (server-side apply: the largest is {} bytes)",
                    with_commas(largest_bytes));
  }
}

// Helm's multi-line error as one line for a table cell.
std::string one_line(const std::string& text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = std::string_view(text).substr(start, end - start);
    if (!line.empty()) out += (out.empty() ? "" : " ") + std::string(line);
    start = end + 1;
  }
  return out;
}

}  // namespace

DecisionTable decision_table(const std::vector<DecisionMode>& modes) {
  DecisionTable t;
  const std::pair<const char*, const char*> questions[] = {
      {"pod-creation", "Does it reach other teams' pod creation?"},
      {"crd-installer", "Who installs the CRDs?"},
      {"conversion-wiring", "Who wires conversion webhooks and their CA?"},
      {"separate-namespaces", "Can the operator and the workloads live in different namespaces?"},
      {"cluster-footprint", "Cluster-scoped footprint"},
      {"who-installs", "Who can install it?"},
      {"prerequisites", "What must exist first"},
      {"worst-finding", "Worst finding"},
  };
  bool any_failed = false;
  for (const DecisionMode& m : modes) {
    t.modes.push_back(m.name);
    any_failed = any_failed || !m.context;
  }
  if (any_failed) {
    DecisionRow render{"renders", "Does it render?", {}};
    for (const DecisionMode& m : modes)
      render.answers.push_back({m.context ? "yes" : "no: " + one_line(m.error), {}});
    t.rows.push_back(std::move(render));
  }
  for (const auto& [id, question] : questions)
    t.rows.push_back(DecisionRow{id, question, {}});
  size_t first = any_failed ? 1 : 0;
  for (const DecisionMode& m : modes) {
    if (!m.context) {
      for (size_t r = first; r < t.rows.size(); ++r)
        t.rows[r].answers.emplace_back();
      continue;
    }
    const Context& ctx = *m.context;
    CrdInstaller installer = crd_installer(ctx);
    if (!installer.groups_to_apply.empty())
      size_crds_to_apply(installer.answer, installer.groups_to_apply, modes);
    size_t r = first;
    t.rows[r++].answers.push_back(pod_creation(ctx));
    t.rows[r++].answers.push_back(std::move(installer.answer));
    t.rows[r++].answers.push_back(conversion_wiring_answer(ctx));
    t.rows[r++].answers.push_back(separate_namespaces(ctx));
    t.rows[r++].answers.push_back(cluster_footprint(ctx));
    t.rows[r++].answers.push_back(who_installs(ctx));
    t.rows[r++].answers.push_back(prerequisites(ctx, installer.groups_to_apply));
    t.rows[r++].answers.push_back(m.findings ? worst_finding(*m.findings) : DecisionAnswer{});
  }
  // With no mode rendered, only "Does it render?" has answers.
  if (std::none_of(modes.begin(), modes.end(), [](const DecisionMode& m) { return m.context; }))
    t.rows.resize(any_failed ? 1 : 0);
  return t;
}

}  // namespace footprint
