// The blast-radius matrix: one row per webhook and admission policy, one column per namespace
// of the set the audit measured against, each cell saying what happens to a request there.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/check.h"
#include "analysis/context.h"
#include "analysis/webhooks/webhook_reach.h"
#include "report/html.h"

namespace footprint {

namespace {

enum class Cell { kFailClosed, kFailOpen, kExcluded };

std::string_view cell_class(Cell c) {
  switch (c) {
    case Cell::kFailClosed:
      return "fail-closed";
    case Cell::kFailOpen:
      return "fail-open";
    case Cell::kExcluded:
      break;
  }
  return "excluded";
}

// The symbol is the colour's twin for readers and printers without colour.
std::string_view cell_symbol(Cell c) {
  switch (c) {
    case Cell::kFailClosed:
      return "\u2715";  // ✕
    case Cell::kFailOpen:
      return "\u25cb";  // ○
    case Cell::kExcluded:
      break;
  }
  return "\u00b7";  // ·
}

std::string_view cell_words(Cell c) {
  switch (c) {
    case Cell::kFailClosed:
      return "intercepted, fail-closed (failurePolicy Fail: the request is rejected when the call "
             "fails)";
    case Cell::kFailOpen:
      return "intercepted, fail-open (failurePolicy Ignore: the request is admitted when the call "
             "fails)";
    case Cell::kExcluded:
      break;
  }
  return "not intercepted";
}

std::string column_class(const ClusterNamespace& ns) {
  if (ns.name == "kube-system") return "system";
  return ns.operator_owned ? "own" : "";
}

struct Row {
  std::string name;
  std::string kind;  // "mutating webhook", "validating policy", ...
  std::string intercepts;
  bool pod_creation = false;
  bool namespaced = true;
  FailurePolicy failure = FailurePolicy::kFail;
  std::vector<bool> hits;  // per namespace
  std::string note;        // why the row has no cells
};

std::string row_html(const Row& r, const std::vector<ClusterNamespace>& namespaces) {
  std::string out = fmt::format(
      "<tr class=\"{}\" data-name=\"{}\" data-pod-creation=\"{}\">"
      "<td class=\"hook\" title=\"{} {}: {}\"><code>{}</code><br/><span class=\"muted\">{} "
      "\u2014 {}</span></td>",
      r.namespaced ? "namespaced" : "cluster", html_escape(r.name), r.pod_creation ? 1 : 0,
      html_escape(r.kind), html_escape(r.name), html_escape(r.intercepts), html_escape(r.name),
      html_escape(r.kind), html_escape(r.intercepts));
  if (!r.namespaced) {
    return out + fmt::format("<td class=\"note\" colspan=\"{}\">{}</td><td></td></tr>\n",
                             std::max<size_t>(namespaces.size(), 1), html_escape(r.note));
  }
  size_t hit = 0;
  for (size_t i = 0; i < namespaces.size(); ++i) {
    Cell c = !r.hits[i]                          ? Cell::kExcluded
             : r.failure == FailurePolicy::kFail ? Cell::kFailClosed
                                                 : Cell::kFailOpen;
    if (r.hits[i]) ++hit;
    std::string column = column_class(namespaces[i]);
    out += fmt::format(
        "<td class=\"cell {}{}\" data-ns=\"{}\" data-state=\"{}\" title=\"{} in {}: {}\">{}</td>",
        cell_class(c), column.empty() ? "" : " col-" + column, html_escape(namespaces[i].name),
        cell_class(c), html_escape(r.name), html_escape(namespaces[i].name), cell_words(c),
        cell_symbol(c));
  }
  return out + fmt::format("<td class=\"muted\">{}/{}</td></tr>\n", hit, namespaces.size());
}

}  // namespace

std::string html_blast_radius(const Context& ctx) {
  const std::vector<ClusterNamespace>& namespaces = ctx.namespaces;
  std::vector<Row> rows;
  for (const WebhookSummary& s : ctx.webhooks) {
    Row r;
    r.name = s.webhook->name;
    r.kind = s.webhook->mutating ? "mutating webhook" : "validating webhook";
    r.intercepts = s.intercepts;
    r.pod_creation = !s.reach.pod_creation.empty();
    r.namespaced = s.reach.namespaced;
    r.failure = s.webhook->failure_policy;
    for (const ClusterNamespace& ns : namespaces) {
      r.hits.push_back(std::find(s.namespaces_hit.begin(), s.namespaces_hit.end(), ns.name) !=
                       s.namespaces_hit.end());
    }
    if (!r.namespaced) {
      r.note = s.reach.matches_nothing() ? "matches no resource the API server serves"
                                         : "cluster-scoped resources only: every request";
    }
    rows.push_back(std::move(r));
  }
  for (const AdmissionPolicy& p : ctx.admission.policies) {
    Row r;
    r.name = p.name;
    r.kind = p.mutating ? "mutating policy" : "validating policy";
    r.intercepts = describe_rules(p.rules);
    r.failure = p.failure_policy;
    r.namespaced = p.binding != nullptr;
    r.note = "no binding: does nothing";
    for (const ClusterNamespace& ns : namespaces)
      r.hits.push_back(r.namespaced && p.namespace_selector.matches(ns.labels));
    rows.push_back(std::move(r));
  }

  std::string out = fmt::format(
      "<section id=\"blast-radius\" data-webhooks=\"{}\" data-policies=\"{}\" "
      "data-namespaces=\"{}\">\n<h2>Blast radius</h2>\n",
      ctx.webhooks.size(), ctx.admission.policies.size(), namespaces.size());
  if (rows.empty()) {
    return out +
           "<p>No admission webhooks or policies: nothing intercepts other teams' "
           "requests.</p>\n</section>\n";
  }
  out += fmt::format(
      "<p>{} webhook{} and {} admission polic{} against {} namespaces. Each cell: does a request "
      "in that namespace reach it? Hover a cell or a name for the resources and operations. "
      "<b>Bold red</b> columns are kube-system, <b>bold blue</b> ones the install's own "
      "namespaces.</p>\n",
      ctx.webhooks.size(), ctx.webhooks.size() == 1 ? "" : "s", ctx.admission.policies.size(),
      ctx.admission.policies.size() == 1 ? "y" : "ies", namespaces.size());
  out +=
      "<p class=\"legend\"><span><span class=\"swatch\" style=\"background:var(--fc);color:#fff\">"
      "\u2715</span> intercepted, fail-closed</span><span><span class=\"swatch\" "
      "style=\"background:var(--fo)\">\u25cb</span> intercepted, fail-open</span><span><span "
      "class=\"swatch\" style=\"background:var(--ex)\">\u00b7</span> excluded</span></p>\n";
  out += "<div class=\"scroll\"><table class=\"matrix\">\n<thead><tr><th>webhook / policy</th>";
  for (const ClusterNamespace& ns : namespaces) {
    std::string column = column_class(ns);
    std::string marker = ns.name == "kube-system" ? " !" : ns.operator_owned ? " \u2605" : "";
    out += fmt::format("<th class=\"ns {}\" data-ns=\"{}\">{}{}</th>", column, html_escape(ns.name),
                       html_escape(ns.name), marker);
  }
  out += "<th>hit</th></tr></thead>\n<tbody>\n";
  for (const Row& r : rows)
    out += row_html(r, namespaces);
  out += "</tbody></table></div>\n";
  out +=
      "<p class=\"muted\">! kube-system, \u2605 the install's own namespaces. "
      "matchConditions (CEL) are not evaluated: a cell means the request may be sent.</p>\n";
  return out + "</section>\n";
}

}  // namespace footprint
