// The RBAC graph: subject -> binding -> role -> the risky rights the role gives, as SVG, one
// band for cluster-wide bindings and one for namespaced ones. A risky path is drawn thick in
// the warning colour and its rights node says what the risk is in words; bindings whose roles
// give no risky right are one line per subject in a last band.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/check.h"
#include "analysis/context.h"
#include "analysis/models/rbac_models.h"
#include "report/html.h"

namespace footprint {

namespace {

constexpr int kNodeWidth = 210;
constexpr int kRightsWidth = 200;
constexpr int kGap = 36;
constexpr int kLine = 18;  // one line of text in a node
constexpr int kBandLabel = 24;
constexpr size_t kMaxChars = 32;  // longer labels are cut; the full text is in the node's title

int column_x(int column) {
  return 10 + column * (kNodeWidth + kGap);
}

std::string cut(const std::string& text) {
  if (text.size() <= kMaxChars) return text;
  return fmt::format("{}\u2026", std::string_view(text).substr(0, kMaxChars - 1));
}

std::string node(int x, int y, int width, int lines, std::string_view cls,
                 const std::vector<std::string>& text, const std::string& title) {
  std::string out = fmt::format(
      "<g class=\"node {}\"><title>{}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
      "rx=\"4\"/>",
      cls, html_escape(title), x, y, width, lines * kLine + 6);
  for (size_t i = 0; i < text.size(); ++i) {
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>", x + 6,
                       y + kLine * static_cast<int>(i + 1) - 2, html_escape(text[i]));
  }
  return out + "</g>\n";
}

// Every drawn path ends in a risky right.
std::string edge(int x1, int y1, int x2, int y2) {
  int mid = (x1 + x2) / 2;
  return fmt::format("<path class=\"edge risky\" d=\"M{} {} C{} {} {} {} {} {}\"/>\n", x1, y1, mid,
                     y1, mid, y2, x2, y2);
}

// "ClusterRoleBinding name" as two lines: the kind, then the name.
std::vector<std::string> two_lines(const std::string& display) {
  size_t space = display.find(' ');
  if (space == std::string::npos) return {cut(display)};
  return {display.substr(0, space), cut(display.substr(space + 1))};
}

std::vector<std::string> role_risks(const RbacRole* role) {
  std::vector<std::string> risks;
  if (!role) return risks;
  for (const PolicyRule& rule : role->rules) {
    for (std::string& r : rule_risks(rule)) {
      if (std::find(risks.begin(), risks.end(), r) == risks.end()) risks.push_back(std::move(r));
    }
  }
  return risks;
}

}  // namespace

std::string html_rbac_graph(const Context& ctx) {
  std::vector<const RbacBinding*> bindings;
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (!b.builtin()) bindings.push_back(&b);
  }
  std::stable_sort(
      bindings.begin(), bindings.end(),
      [](const RbacBinding* a, const RbacBinding* b) { return a->cluster > b->cluster; });
  size_t cluster_count = std::count_if(bindings.begin(), bindings.end(),
                                       [](const RbacBinding* b) { return b->cluster; });
  // Paths that end in a risky right are drawn; the others shrink to one line per subject, so
  // the paths that matter fit the first screen.
  std::vector<const RbacBinding*> drawn;
  std::vector<std::pair<std::string, std::vector<const RbacBinding*>>> quiet;  // per subject
  for (const RbacBinding* b : bindings) {
    if (!role_risks(b->role).empty()) {
      drawn.push_back(b);
      continue;
    }
    for (const Subject& s : b->subjects) {
      std::string name = s.display();
      auto it = std::find_if(quiet.begin(), quiet.end(),
                             [&](const auto& entry) { return entry.first == name; });
      if (it == quiet.end()) it = quiet.insert(quiet.end(), {name, {}});
      it->second.push_back(b);
    }
  }
  std::string out = fmt::format(
      "<section id=\"rbac\" data-bindings=\"{}\" data-cluster-bindings=\"{}\" "
      "data-drawn-bindings=\"{}\">\n<h2>RBAC: who can do what</h2>\n",
      bindings.size(), cluster_count, drawn.size());
  if (bindings.empty()) return out + "<p>The bundle binds no roles.</p>\n</section>\n";
  out +=
      "<p>Each path runs subject \u2192 binding \u2192 role \u2192 the risky rights that role "
      "gives (reading secrets, creating workloads, exec, escalation, changing webhooks or CRDs). "
      "<b>Thick orange-red</b> paths end in such a right; cluster-wide bindings are in the upper "
      "band, with orange nodes. Bindings whose roles give no risky right are one line per subject "
      "at the bottom. The full rights per subject are in Details \u2192 Permissions.</p>\n";

  std::string body;
  std::map<std::string, int> subject_y;  // a subject's node, placed where it first appears
  int y = 0;
  bool in_cluster_band = true;
  int band_top = 0;
  std::string bands;
  auto close_band = [&](bool cluster) {
    bands += fmt::format(
        "<rect class=\"band\" x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\"/><text x=\"6\" "
        "y=\"{}\" font-weight=\"700\">{}</text>\n",
        band_top, column_x(3) + kRightsWidth + 10, y - band_top, band_top + 16,
        cluster ? "Cluster-wide: ClusterRoleBindings, every namespace"
                : "Namespaced: RoleBindings, one namespace each");
  };
  y = drawn.empty() ? 0 : kBandLabel;
  for (size_t i = 0; i < drawn.size(); ++i) {
    const RbacBinding& b = *drawn[i];
    if (in_cluster_band && !b.cluster) {
      if (i > 0) {
        close_band(true);
        band_top = y + 10;
        y = band_top + kBandLabel;
      }
      in_cluster_band = false;
    }
    std::vector<std::string> risks = role_risks(b.role);
    int lines = std::max<int>(2, static_cast<int>(risks.size()));
    int row = y;
    // New subjects stack down the first column.
    int subject_row = y;
    std::vector<int> edges_from;
    for (const Subject& s : b.subjects) {
      std::string name = s.display();
      auto it = subject_y.find(name);
      if (it == subject_y.end()) {
        it = subject_y.emplace(name, subject_row).first;
        body += node(column_x(0), subject_row, kNodeWidth, 2, "subject", two_lines(name), name);
        subject_row += 2 * kLine + 14;
      }
      edges_from.push_back(it->second);
    }
    std::string binding_class = b.cluster ? "binding cluster" : "binding";
    body += fmt::format("<g data-binding=\"{}\" data-risky=\"1\">\n", html_escape(b.display()));
    for (int from : edges_from)
      body += edge(column_x(0) + kNodeWidth, from + kLine, column_x(1), row + kLine);
    body +=
        node(column_x(1), row, kNodeWidth, 2, binding_class, two_lines(b.display()), b.display());
    std::string role_name = b.role ? b.role->display() : b.role_kind + " " + b.role_name;
    std::string role_text = b.role ? role_name : role_name + " (missing)";
    body += edge(column_x(1) + kNodeWidth, row + kLine, column_x(2), row + kLine);
    body += node(column_x(2), row, kNodeWidth, 2, b.cluster ? "role cluster" : "role",
                 two_lines(role_text),
                 role_text + (b.role ? fmt::format(": {} rules", b.role->rules.size()) : ""));
    body += edge(column_x(2) + kNodeWidth, row + kLine, column_x(3), row + kLine);
    body += node(column_x(3), row, kRightsWidth, lines, "risk", risks,
                 fmt::format("{}: {}", role_name, fmt::join(risks, ", ")));
    body += "</g>\n";
    y = std::max(subject_row, row + lines * kLine + 14);
  }
  if (!drawn.empty()) close_band(in_cluster_band);
  if (!quiet.empty()) {
    band_top = drawn.empty() ? 0 : y + 10;
    y = band_top + kBandLabel;
    for (const auto& [name, list] : quiet) {
      std::vector<std::string> paths;
      for (const RbacBinding* b : list) {
        paths.push_back(
            fmt::format("{} \u2192 {}", b->display(),
                        b->role ? b->role->display() : b->role_kind + " " + b->role_name));
      }
      bool more = subject_y.count(name) > 0;
      body += fmt::format(
          "<g class=\"quiet\" data-subject=\"{}\" data-count=\"{}\"><title>{}</title>"
          "<text x=\"{}\" y=\"{}\" class=\"muted\">{}: {} {}binding{}, no risky right</text>"
          "</g>\n",
          html_escape(name), list.size(), html_escape(fmt::format("{}", fmt::join(paths, "; "))),
          column_x(0) + 6, y + kLine - 4, html_escape(name), list.size(), more ? "more " : "",
          list.size() == 1 ? "" : "s");
      y += kLine + 4;
    }
    bands += fmt::format(
        "<rect class=\"band\" x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\"/><text x=\"6\" "
        "y=\"{}\" font-weight=\"700\">No risky right: one line per subject (hover for the "
        "bindings)</text>\n",
        band_top, column_x(3) + kRightsWidth + 10, y + 6 - band_top, band_top + 16);
    y += 6;
  }
  out += fmt::format(
      "<div class=\"scroll\"><svg class=\"graph\" xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"{0}\" "
      "height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"RBAC graph\" "
      "data-risky-paths=\"{2}\">\n{3}{4}</svg></div>\n",
      column_x(3) + kRightsWidth + 10, y + 10, drawn.size(), bands, body);
  return out + "</section>\n";
}

}  // namespace footprint
