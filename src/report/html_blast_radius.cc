// The blast-radius matrix: one row per webhook and admission policy, worst first, one column per
// namespace of the set the audit measured against, each cell saying what happens to a request
// there. Colours follow the ratings of the webhook checks (webhook_reach.h), so the picture
// highlights what the findings rate high or critical and nothing else.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <optional>

#include "analysis/check.h"
#include "analysis/context.h"
#include "analysis/models/webhook_reach.h"
#include "report/html.h"

namespace footprint {

namespace {

// What a request in one namespace meets, as the webhook checks rate it: not sent; sent, but the
// cost stays with the install (only its own API groups, or its own namespace); or sent with
// failurePolicy Fail or Ignore. `alarm` marks the cells the findings rate high or critical.
enum class State : uint8_t { kExcluded, kOwn, kFailOpen, kFailClosed };

struct Cell {
  State state = State::kExcluded;
  bool alarm = false;
};

std::string_view state_class(State s) {
  switch (s) {
    case State::kFailClosed:
      return "fail-closed";
    case State::kFailOpen:
      return "fail-open";
    case State::kOwn:
      return "own";
    case State::kExcluded:
      break;
  }
  return "excluded";
}

// The symbol is the colour's twin for readers and printers without colour: filled for the
// highlighted cells.
std::string_view cell_symbol(Cell c) {
  switch (c.state) {
    case State::kFailClosed:
      return c.alarm ? "\u2716" : "\u2715";  // ✖ ✕
    case State::kFailOpen:
      return c.alarm ? "\u25cf" : "\u25cb";  // ● ○
    case State::kOwn:
      return "\u25c7";  // ◇
    case State::kExcluded:
      break;
  }
  return "\u00b7";  // ·
}

std::string cell_words(Cell c) {
  std::string_view words;
  switch (c.state) {
    case State::kFailClosed:
      words =
          "intercepted, fail-closed (failurePolicy Fail: the request is rejected when the call "
          "fails)";
      break;
    case State::kFailOpen:
      words =
          "intercepted, fail-open (failurePolicy Ignore: the request is admitted when the call "
          "fails)";
      break;
    case State::kOwn:
      words =
          "intercepted, but only the install's own resources or namespace: the cost stays "
          "with the install";
      break;
    case State::kExcluded:
      return "not intercepted";
  }
  return c.alarm ? std::string(words) + "; a high or critical finding" : std::string(words);
}

std::optional<Severity> worse(std::optional<Severity> a, std::optional<Severity> b) {
  if (!a) return b;
  if (!b) return a;
  return std::max(*a, *b);
}

bool is_high(std::optional<Severity> s) {
  return s && *s >= Severity::kHigh;
}

// A webhook's cell in one namespace it is sent in. Other teams' namespaces carry what
// webhook-fail-closed and webhook-intercepts-shared-resources rate; the cluster's own namespaces
// what webhook-kube-system rates, and only where its components' requests are sent.
Cell webhook_cell(const WebhookSummary& s, const ClusterNamespace& ns) {
  Cell c;
  if (!s.reach.shared() || ns.operator_owned) {
    c.state = State::kOwn;
    return c;
  }
  c.state =
      s.webhook->failure_policy == FailurePolicy::kFail ? State::kFailClosed : State::kFailOpen;
  if (ns.system) {
    bool components = std::find(s.components.namespaces.begin(), s.components.namespaces.end(),
                                ns.name) != s.components.namespaces.end();
    c.alarm = components && is_high(components_severity(s));
  } else {
    bool others =
        std::find(s.others_hit.begin(), s.others_hit.end(), ns.name) != s.others_hit.end();
    c.alarm = others && is_high(worse(fail_closed_severity(s), intercepts_severity(s)));
  }
  return c;
}

std::string column_class(const ClusterNamespace& ns) {
  if (ns.name == "kube-system") return "system";
  return ns.operator_owned ? "own" : "";
}

struct Row {
  std::string name;
  std::string kind;  // "mutating webhook", "validating policy", ...
  std::string intercepts;
  bool webhook = true;
  bool pod_creation = false;
  bool namespaced = true;
  // The worst the webhook checks rate this webhook (what its findings say); none for policies.
  std::optional<Severity> severity;
  std::vector<Cell> cells;  // per namespace
  bool alarm = false;       // a cell is highlighted, or a cluster-scoped row is rated high
  std::string note;         // why the row has no cells
};

std::string row_html(const Row& r, const std::vector<ClusterNamespace>& namespaces) {
  std::string out = fmt::format(
      "<tr class=\"{}{}\" data-name=\"{}\" data-kind=\"{}\" data-severity=\"{}\" "
      "data-pod-creation=\"{}\"><td class=\"hook\" title=\"{} {}: {}\"><code>{}</code><br/><span "
      "class=\"muted\">{} \u2014 {}</span></td>",
      r.namespaced ? "namespaced" : "cluster", r.alarm ? " alarm" : "", html_escape(r.name),
      r.webhook ? "webhook" : "policy", r.severity ? severity_name(*r.severity) : "",
      r.pod_creation ? 1 : 0, html_escape(r.kind), html_escape(r.name), html_escape(r.intercepts),
      html_escape(r.name), html_escape(r.kind), html_escape(r.intercepts));
  if (!r.namespaced) {
    return out + fmt::format("<td class=\"note{}\" colspan=\"{}\">{}</td><td></td></tr>\n",
                             r.alarm ? " alarm" : "", std::max<size_t>(namespaces.size(), 1),
                             html_escape(r.note));
  }
  size_t hit = 0;
  for (size_t i = 0; i < namespaces.size(); ++i) {
    Cell c = r.cells[i];
    if (c.state != State::kExcluded) ++hit;
    std::string column = column_class(namespaces[i]);
    out += fmt::format(
        "<td class=\"cell {}{}{}\" data-ns=\"{}\" data-state=\"{}\" data-alarm=\"{}\" "
        "title=\"{} in {}: {}\">{}</td>",
        state_class(c.state), c.alarm ? " alarm" : "", column.empty() ? "" : " col-" + column,
        html_escape(namespaces[i].name), state_class(c.state), c.alarm ? 1 : 0, html_escape(r.name),
        html_escape(namespaces[i].name), cell_words(c), cell_symbol(c));
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
    r.severity =
        worse(worse(fail_closed_severity(s), intercepts_severity(s)), components_severity(s));
    for (const ClusterNamespace& ns : namespaces) {
      bool hit = std::find(s.namespaces_hit.begin(), s.namespaces_hit.end(), ns.name) !=
                 s.namespaces_hit.end();
      r.cells.push_back(hit ? webhook_cell(s, ns) : Cell{});
      r.alarm = r.alarm || r.cells.back().alarm;
    }
    if (!r.namespaced) {
      r.note = s.reach.matches_nothing() ? "matches no resource the API server serves"
                                         : "cluster-scoped resources only: every request";
      r.alarm = is_high(r.severity);
    }
    rows.push_back(std::move(r));
  }
  for (const AdmissionPolicy& p : ctx.admission.policies) {
    Row r;
    r.name = p.name;
    r.kind = p.mutating ? "mutating policy" : "validating policy";
    r.intercepts = describe_rules(p.rules);
    r.webhook = false;
    r.namespaced = p.binding != nullptr;
    r.note = "no binding: does nothing";
    State sent = p.failure_policy == FailurePolicy::kFail ? State::kFailClosed : State::kFailOpen;
    for (const ClusterNamespace& ns : namespaces) {
      bool hit = r.namespaced && p.namespace_selector.matches(ns.labels);
      r.cells.push_back(Cell{hit ? sent : State::kExcluded, false});
    }
    rows.push_back(std::move(r));
  }
  // Worst first, as the findings; within a severity, in the order of the input.
  auto rank = [](const Row& r) { return r.severity ? static_cast<int>(*r.severity) + 1 : 0; };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const Row& a, const Row& b) { return rank(a) > rank(b); });
  size_t alarms = std::count_if(rows.begin(), rows.end(), [](const Row& r) { return r.alarm; });

  std::string out = fmt::format(
      "<section id=\"blast-radius\" data-webhooks=\"{}\" data-policies=\"{}\" "
      "data-namespaces=\"{}\" data-alarm-rows=\"{}\">\n<h2>Blast radius</h2>\n",
      ctx.webhooks.size(), ctx.admission.policies.size(), namespaces.size(), alarms);
  if (rows.empty()) {
    return out +
           "<p>No admission webhooks or policies: nothing intercepts other teams' "
           "requests.</p>\n</section>\n";
  }
  out += fmt::format(
      "<p>{} webhook{} and {} admission polic{} against {} namespaces, worst first. Each cell: "
      "does a request in that namespace reach it, and what does that cost? Hover a cell or a name "
      "for the resources and operations. {} highlighted, where the findings rate the cost high or "
      "critical: other teams' requests in their namespaces, and in kube-system or "
      "kube-node-lease only the requests of the cluster's own components.</p>\n",
      ctx.webhooks.size(), ctx.webhooks.size() == 1 ? "" : "s", ctx.admission.policies.size(),
      ctx.admission.policies.size() == 1 ? "y" : "ies", namespaces.size(),
      alarms == 0   ? std::string("No row is")
      : alarms == 1 ? std::string("One row is")
                    : fmt::format("{} rows are", alarms));
  out +=
      "<p class=\"legend\"><span><span class=\"swatch alarm fail-closed\">\u2716</span> "
      "fail-closed, highlighted</span><span><span class=\"swatch alarm fail-open\">\u25cf</span> "
      "fail-open, highlighted</span><span><span class=\"swatch fail-closed\">\u2715</span> "
      "fail-closed</span><span><span class=\"swatch fail-open\">\u25cb</span> "
      "fail-open</span><span><span class=\"swatch own\">\u25c7</span> only the install's own "
      "resources or namespace</span><span><span class=\"swatch excluded\">\u00b7</span> "
      "excluded</span></p>\n";
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
      "<p class=\"muted\">! kube-system, \u2605 the install's own namespaces. A fail-open webhook "
      "is highlighted where it may change every team's pods. matchConditions (CEL) are not "
      "evaluated: a cell means the request may be sent.</p>\n";
  return out + "</section>\n";
}

}  // namespace footprint
