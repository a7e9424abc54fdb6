// `diff --format html`: the upgrade review as one self-contained page in the audit page's style
// (html_page.cc): the counts, then every change worst first (the JSON's order) with its
// consequence and fix, then the findings the upgrade adds and resolves.
#include <fmt/format.h>

#include "report/diff_report.h"
#include "report/html.h"

namespace footprint {

namespace {

std::string change_html(const Change& c, size_t number) {
  std::string name(severity_name(c.severity));
  std::string out = fmt::format(
      "<article class=\"finding change {0}\" id=\"change-{1}\" data-severity=\"{0}\" "
      "data-area=\"{2}\">\n<h3>#{1} {3} <code>{2}</code> <span class=\"subject\">{4}</span>: "
      "<span class=\"what\">{5}</span></h3>\n",
      name, number, html_escape(c.area), html_badge(c.severity), html_escape(c.subject),
      html_escape(c.change));
  if (!c.location.empty())
    out += "<p class=\"muted mono\">at " + html_escape(c.location) + "</p>\n";
  if (!c.consequence.empty()) out += "<p>" + html_prose(c.consequence) + "</p>\n";
  if (!c.fix.empty()) out += "<p><b>Fix:</b> " + html_prose(c.fix) + "</p>\n";
  if (!c.details.empty()) {
    out += fmt::format("<details><summary>{} item{}</summary><ul class=\"mono\">\n",
                       c.details.size(), c.details.size() == 1 ? "" : "s");
    for (const std::string& d : c.details)
      out += "<li>" + html_escape(d) + "</li>\n";
    out += "</ul></details>\n";
  }
  return out + "</article>\n";
}

std::string findings_list(std::string_view id, std::string_view title,
                          const std::vector<Finding>& findings) {
  if (findings.empty()) return "";
  std::string out = fmt::format("<h3>{} ({})</h3>\n<ul id=\"{}\">\n", title, findings.size(), id);
  for (const Finding& f : findings) {
    std::string before =
        f.severity_before ? fmt::format(" ({} before)", severity_name(*f.severity_before)) : "";
    out += fmt::format("<li data-severity=\"{}\">{}{} {}</li>\n", severity_name(f.severity),
                       html_badge(f.severity), before, html_escape(diff_finding_text(f)));
  }
  return out + "</ul>\n";
}

}  // namespace

std::string render_diff_html(const UpgradeDiff& diff, const std::string& old_name,
                             const std::string& new_name) {
  std::string title = fmt::format("footprint diff: {} \u2192 {}", old_name, new_name);
  std::string out = html_page_start(title);
  out += fmt::format(
      "<header><h1>{}</h1><p class=\"muted\">footprint {}. Generated offline; this page makes no "
      "network requests.</p></header>\n",
      html_escape(title), FOOTPRINT_VERSION);
  out +=
      "<nav><a href=\"#summary\">Summary</a><a href=\"#changes\">Changes</a>"
      "<a href=\"#findings\">Findings</a></nav>\n";
  out += "<section id=\"summary\">\n<h2>Summary</h2>\n";
  out += fmt::format("<p id=\"change-counts\" data-total=\"{}\">{} change{}:", diff.changes.size(),
                     diff.changes.size(), diff.changes.size() == 1 ? "" : "s");
  for (Severity s :
       {Severity::kCritical, Severity::kHigh, Severity::kMedium, Severity::kLow, Severity::kInfo}) {
    size_t n = std::count_if(diff.changes.begin(), diff.changes.end(),
                             [s](const Change& c) { return c.severity == s; });
    if (n)
      out += fmt::format(" {} <b data-severity=\"{}\">{}</b>", html_badge(s), severity_name(s), n);
  }
  out += diff.changes.empty() ? " none</p>\n" : "</p>\n";
  out += "<p>" + html_escape(diff_counts_line(diff)) + "</p>\n";
  if (std::string mirror = mirror_line(diff); !mirror.empty())
    out += "<p id=\"mirror\">" + html_escape(mirror) + "</p>\n";
  out += "</section>\n<section id=\"changes\">\n<h2>Changes, worst first</h2>\n";
  if (diff.changes.empty()) out += "<p>The upgrade changes nothing footprint models.</p>\n";
  for (size_t i = 0; i < diff.changes.size(); ++i)
    out += change_html(diff.changes[i], i + 1);
  out += "</section>\n<section id=\"findings\">\n<h2>Findings</h2>\n";
  out += findings_list("findings-new", "New findings", diff.findings.added);
  out += findings_list("findings-worse", "Worse findings (severity rose)", diff.findings.worse);
  out += findings_list("findings-better", "Better findings (severity fell)", diff.findings.better);
  out += findings_list("findings-resolved", "Resolved findings", diff.findings.resolved);
  out += fmt::format("<p>{} finding{} unchanged.</p>\n</section>\n", diff.findings.unchanged,
                     diff.findings.unchanged == 1 ? "" : "s");
  return out + html_page_end();
}

}  // namespace footprint
