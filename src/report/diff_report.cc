#include "report/diff_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "analysis/models/images.h"
#include "model/units.h"
#include "util/strings.h"

namespace footprint {

namespace {

constexpr std::array kSeverities = {Severity::kCritical, Severity::kHigh, Severity::kMedium,
                                    Severity::kLow, Severity::kInfo};

// "1 critical, 2 high" over the severities present; "none" when there are no changes.
std::string counts_text(const UpgradeDiff& diff) {
  std::vector<std::string> parts;
  for (Severity s : kSeverities) {
    size_t n = std::count_if(diff.changes.begin(), diff.changes.end(),
                             [s](const Change& c) { return c.severity == s; });
    if (n) parts.push_back(fmt::format("{} {}", n, severity_name(s)));
  }
  return parts.empty() ? "none" : joined(parts);
}

// What MirrorDelta::bytes is, given the images whose registry could not be read: "exact",
// "lower" (new images of unknown size left out), "upper" (OLD's unread blobs not subtracted) or
// "none" (both).
std::string bytes_bound(const MirrorDelta& m) {
  if (m.unknown.empty()) return m.old_unknown.empty() ? "exact" : "upper";
  return m.old_unknown.empty() ? "lower" : "none";
}

Json render_json(const UpgradeDiff& diff, const std::string& old_name,
                 const std::string& new_name) {
  Json counts = Json::object();
  for (Severity s : kSeverities)
    counts[std::string(severity_name(s))] = std::count_if(
        diff.changes.begin(), diff.changes.end(), [s](const Change& c) { return c.severity == s; });
  Json changes = Json::array();
  for (const Change& c : diff.changes) {
    changes.push_back({{"area", c.area},
                       {"severity", severity_name(c.severity)},
                       {"subject", c.subject},
                       {"change", c.change},
                       {"consequence", c.consequence},
                       {"fix", c.fix},
                       {"location", c.location},
                       {"details", c.details},
                       {"mirrorBytes", c.mirror_bytes ? Json(*c.mirror_bytes) : Json(nullptr)}});
  }
  auto findings_json = [](const std::vector<Finding>& findings) {
    Json out = Json::array();
    for (const Finding& f : findings)
      out.push_back(finding_json(f));
    return out;
  };
  Json mirror = nullptr;
  if (diff.mirror.sized) {
    mirror = {{"images", diff.mirror.images},
              {"unknown", diff.mirror.unknown},
              {"oldUnknown", diff.mirror.old_unknown},
              {"bytes", diff.mirror.bytes},
              {"bytesBound", bytes_bound(diff.mirror)}};
  }
  return Json{{"schemaVersion", kJsonSchemaVersion},
              {"old", old_name},
              {"new", new_name},
              {"summary",
               {{"changes", counts},
                {"findings",
                 {{"new", diff.findings.added.size()},
                  {"worse", diff.findings.worse.size()},
                  {"better", diff.findings.better.size()},
                  {"resolved", diff.findings.resolved.size()},
                  {"unchanged", diff.findings.unchanged}}},
                {"mirror", mirror}}},
              {"changes", changes},
              {"findings",
               {{"new", findings_json(diff.findings.added)},
                {"worse", findings_json(diff.findings.worse)},
                {"better", findings_json(diff.findings.better)},
                {"resolved", findings_json(diff.findings.resolved)},
                {"unchanged", diff.findings.unchanged}}}};
}

// "HIGH check: ...", or for a severity that changed "HIGH (medium before) check: ...".
std::string finding_line(const Finding& f) {
  std::string before =
      f.severity_before ? fmt::format(" ({} before)", severity_name(*f.severity_before)) : "";
  return upper(severity_name(f.severity)) + before + " " + diff_finding_text(f);
}

std::string render_text_diff(const UpgradeDiff& diff, const std::string& old_name,
                             const std::string& new_name, const ReportOptions& options) {
  std::string out = fmt::format("Upgrade review: {} -> {}\n", old_name, new_name);
  out += diff_counts_line(diff) + "\n";
  if (std::string mirror = mirror_line(diff); !mirror.empty())
    out += wrap_text(mirror, 0, options.width);
  for (const Change& c : diff.changes) {
    out += fmt::format("\n{:<8}  [{}] {}: {}\n", upper(severity_name(c.severity)), c.area,
                       c.subject, c.change);
    if (!c.location.empty()) out += "          at " + c.location + "\n";
    if (!c.consequence.empty()) out += wrap_text(c.consequence, 10, options.width);
    if (!c.fix.empty()) out += wrap_text("Fix: " + c.fix, 10, options.width);
    for (const std::string& d : c.details)
      out += "          - " + d + "\n";
  }
  auto list = [&](std::string_view title, const std::vector<Finding>& findings) {
    if (findings.empty()) return;
    out += fmt::format("\n{} ({})\n", title, findings.size());
    for (const Finding& f : findings)
      out += wrap_text(finding_line(f), 2, options.width);
  };
  list("New findings", diff.findings.added);
  list("Worse findings (severity rose)", diff.findings.worse);
  list("Better findings (severity fell)", diff.findings.better);
  list("Resolved findings", diff.findings.resolved);
  out += fmt::format("\n{} finding{} unchanged.\n", diff.findings.unchanged,
                     diff.findings.unchanged == 1 ? "" : "s");
  return out;
}

std::string render_markdown_diff(const UpgradeDiff& diff, const std::string& old_name,
                                 const std::string& new_name) {
  std::string out = fmt::format("## Upgrade review: {} → {}\n\n", markdown_code(old_name),
                                markdown_code(new_name));
  out += diff_counts_line(diff) + "\n";
  if (std::string mirror = mirror_line(diff); !mirror.empty())
    out += "\n" + escape_markdown(mirror) + "\n";
  if (!diff.changes.empty()) {
    Table table;
    table.header = {"Severity", "Area", "Subject", "Change", "Consequence", "Fix"};
    for (const Change& c : diff.changes) {
      std::string change = c.change;
      if (!c.details.empty()) change += " (" + joined(c.details, "; ") + ")";
      table.rows.push_back({std::string(severity_name(c.severity)), c.area, c.subject, change,
                            c.consequence, c.fix});
    }
    out += "\n" + render_markdown_table(table);
  }
  auto list = [&](std::string_view title, const std::vector<Finding>& findings) {
    if (findings.empty()) return;
    out += fmt::format("\n### {} ({})\n\n", title, findings.size());
    for (const Finding& f : findings)
      out += "- " + escape_markdown(finding_line(f)) + "\n";
  };
  list("New findings", diff.findings.added);
  list("Worse findings (severity rose)", diff.findings.worse);
  list("Better findings (severity fell)", diff.findings.better);
  list("Resolved findings", diff.findings.resolved);
  out += fmt::format("\n{} finding{} unchanged.\n", diff.findings.unchanged,
                     diff.findings.unchanged == 1 ? "" : "s");
  return out;
}

}  // namespace

std::string diff_counts_line(const UpgradeDiff& diff) {
  const FindingsDelta& f = diff.findings;
  std::string changed;
  if (!f.worse.empty()) changed += fmt::format(", {} worse", f.worse.size());
  if (!f.better.empty()) changed += fmt::format(", {} better", f.better.size());
  return fmt::format("Changes: {}. Findings: {} new{}, {} resolved, {} unchanged.",
                     counts_text(diff), f.added.size(), changed, f.resolved.size(), f.unchanged);
}

std::string mirror_line(const UpgradeDiff& diff) {
  const MirrorDelta& m = diff.mirror;
  if (!m.sized) {
    bool images = std::any_of(diff.changes.begin(), diff.changes.end(),
                              [](const Change& c) { return c.area == "images"; });
    return images ? "Image sizes: not asked (--sizes asks the registries)." : "";
  }
  if (m.images.empty()) return "To mirror for the upgrade: no new image.";
  std::string out = fmt::format(
      "To mirror for the upgrade: {} new image{}, {} (the blobs OLD's images do not already hold)",
      m.images.size(), m.images.size() == 1 ? "" : "s", format_bytes(m.bytes));
  if (!m.unknown.empty())
    out += fmt::format(", plus {} of unknown size ({})", m.unknown.size(), joined(m.unknown));
  std::string bound = bytes_bound(m);
  if (bound == "exact") return out + ".";
  out += bound == "lower"   ? "; a lower bound"
         : bound == "upper" ? "; an upper bound"
                            : "; neither bound (the new images of unknown size are left out)";
  if (!m.old_unknown.empty()) {
    out += fmt::format(
        ": {} of OLD's images could not be read ({}), so the blobs they hold count "
        "as still to copy",
        m.old_unknown.size(), joined(m.old_unknown));
  }
  return out + ".";
}

std::string diff_finding_text(const Finding& f) {
  std::string object;
  if (!f.object.kind.empty()) {
    object =
        f.object.kind + " " +
        (f.object.namespace_.empty() ? f.object.name : f.object.namespace_ + "/" + f.object.name) +
        ": ";
  }
  return fmt::format("{}: {}{}", f.check, object, f.summary.empty() ? f.message : f.summary);
}

std::string render_diff(const UpgradeDiff& diff, const std::string& old_name,
                        const std::string& new_name, Format format, const ReportOptions& options) {
  if (format == Format::kJson) return dump_json(render_json(diff, old_name, new_name), 2) + "\n";
  if (format == Format::kMarkdown) return render_markdown_diff(diff, old_name, new_name);
  if (format == Format::kHtml) return render_diff_html(diff, old_name, new_name);
  return render_text_diff(diff, old_name, new_name, options);
}

}  // namespace footprint
