#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/baseline.h"
#include "analysis/fingerprint.h"
#include "report/overview.h"
#include "report/report.h"

namespace footprint {

Json finding_json(const Finding& f) {
  Json source = {{"file", f.file}, {"line", f.position.line}, {"column", f.position.column}};
  if (!f.helm_template.empty()) source["helmTemplate"] = f.helm_template;
  Json object = {{"apiVersion", f.object.api_version}, {"kind", f.object.kind}};
  if (!f.object.namespace_.empty()) object["namespace"] = f.object.namespace_;
  object["name"] = f.object.name;
  Json j = {{"check", f.check},          {"severity", severity_name(f.severity)},
            {"object", object},          {"source", source},
            {"message", f.message},      {"remediation", f.remediation},
            {"suppressed", f.suppressed}};
  j["impact"] = impact_name(f.impact);
  j["fingerprint"] = fingerprint(f);
  if (!f.summary.empty()) j["summary"] = f.summary;
  if (!f.affects.empty()) {
    Json affects = Json::object();
    for (const auto& [kind, items] : f.affects)
      affects[kind] = items;
    j["affects"] = affects;
  }
  if (f.suppressed) {
    j["suppression"] = {{"by", f.suppressed_by}, {"reason", f.suppression_reason}};
  }
  if (f.severity_before) j["severityBefore"] = severity_name(*f.severity_before);
  if (f.suppression_request) {
    j["suppressionRequest"] = {{"by", kIgnoreAnnotation},
                               {"reason", *f.suppression_request},
                               {"honoured", false},
                               {"text", suppression_request_text(f)}};
  }
  return j;
}

namespace {

Json resolved_finding_json(const ResolvedFinding& r) {
  const Finding& f = r.finding;
  Json object = {{"apiVersion", f.object.api_version}, {"kind", f.object.kind}};
  if (!f.object.namespace_.empty()) object["namespace"] = f.object.namespace_;
  object["name"] = f.object.name;
  return {{"check", f.check},
          {"severity", severity_name(f.severity)},
          {"object", object},
          {"source", {{"file", f.file}, {"line", f.position.line}, {"column", f.position.column}}},
          {"message", f.message},
          {"fingerprint", r.fingerprint}};
}

Json baseline_counts_json(const AnalysisResult& analysis) {
  BaselineCounts counts = baseline_counts(analysis);
  return {{"new", counts.added},
          {"worse", counts.worse},
          {"better", counts.better},
          {"resolved", counts.resolved},
          {"known", counts.known}};
}

// `out`, a dump(2) of an object, with the null of each section's top-level member replaced by
// the section's JSON dumped as dump(2) would at that depth. JSON strings escape newlines, so
// every newline of a dump is structure and takes the member's two spaces of indent. Built once
// at its final size: replacing in place would move the rest of a report of hundreds of megabytes
// once per section.
std::string splice_sections(const std::string& out, const std::vector<const Section*>& sections) {
  struct Splice {
    size_t at;  // of the null
    std::string text;
  };
  std::vector<Splice> splices;
  size_t size = out.size() + 1;
  for (const Section* s : sections) {
    std::string member = "\n  " + dump_json(Json(s->id)) + ": ";
    size_t at = out.find(member + "null");
    if (at == std::string::npos) continue;
    std::string text = dump_json(s->json, 2);
    size += text.size() + 2 * static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) - 4;
    splices.push_back({at + member.size(), std::move(text)});
  }
  std::sort(splices.begin(), splices.end(),
            [](const Splice& a, const Splice& b) { return a.at < b.at; });
  std::string spliced;
  spliced.reserve(size);
  size_t from = 0;
  for (Splice& s : splices) {
    spliced.append(out, from, s.at - from);
    std::string_view rest = s.text;
    for (size_t nl = rest.find('\n'); nl != std::string_view::npos; nl = rest.find('\n')) {
      spliced.append(rest.substr(0, nl + 1));
      spliced.append("  ");
      rest.remove_prefix(nl + 1);
    }
    spliced.append(rest);
    from = s.at + 4;
    std::string().swap(s.text);
  }
  spliced.append(out, from);
  spliced += "\n";
  return spliced;
}

}  // namespace

std::string render_json(const Report& report) {
  const LoadedInput& input = report.bundle->input;
  Json j;
  j["schemaVersion"] = kJsonSchemaVersion;
  j["tool"] = {{"name", "footprint"}, {"version", FOOTPRINT_VERSION}};
  Json inputs = Json::array();
  for (size_t i = 0; i < input.files.size(); ++i) {
    inputs.push_back({{"file", input.files[i]}, {"bytes", input.file_bytes[i]}});
    if (!input.renderers[i].empty()) inputs.back()["renderedBy"] = input.renderers[i];
  }
  j["inputs"] = std::move(inputs);
  if (report.show_inventory) j["inventory"] = inventory_section(report.inventory).json;
  // A section can be megabytes of JSON (podSecurity on a big bundle): rather than copy it into
  // the document, hold its place with a null and splice its own dump in (the last of an id).
  std::vector<const Section*> spliced;
  for (const Section& s : report.sections) {
    auto same = std::find_if(spliced.begin(), spliced.end(),
                             [&](const Section* other) { return other->id == s.id; });
    if (same == spliced.end()) {
      spliced.push_back(&s);
    } else {
      *same = &s;
    }
    j[s.id] = nullptr;
  }
  Json findings = Json::array();
  Json counts = {{"critical", 0}, {"high", 0}, {"medium", 0}, {"low", 0}, {"info", 0}};
  for (const Finding& f : report.analysis.findings) {
    findings.push_back(finding_json(f));
    if (std::string_view renderer = input.renderer_of(f.file); !renderer.empty()) {
      findings.back()["source"]["renderedBy"] = renderer;
    }
    if (report.analysis.resolved) {
      findings.back()["baseline"] = !f.severity_before ? (f.known ? "known" : "new")
                                    : f.known          ? "better"
                                                       : "worse";
    }
    if (!f.suppressed)
      counts[std::string(severity_name(f.severity))] =
          counts[std::string(severity_name(f.severity))].get<int>() + 1;
  }
  j["findings"] = std::move(findings);
  if (report.analysis.resolved) {
    // The baseline's findings this run no longer has, as the baseline gave them.
    Json resolved = Json::array();
    for (const ResolvedFinding& r : *report.analysis.resolved)
      resolved.push_back(resolved_finding_json(r));
    j["resolvedFindings"] = std::move(resolved);
  }
  Overview overview = make_overview(report);
  Json risks = Json::array();
  for (const OverviewRisk& r : overview.risks) {
    risks.push_back({{"finding", r.number},
                     {"severity", severity_name(r.severity)},
                     {"check", r.check},
                     {"summary", r.text}});
  }
  j["summary"] = {{"findings", counts},
                  {"suppressed", report.analysis.suppressed},
                  {"suppressionRequests", report.analysis.suppression_requests},
                  {"creates", overview.creates},
                  {"topRisks", risks}};
  if (report.analysis.resolved) j["summary"]["baseline"] = baseline_counts_json(report.analysis);
  if (!report.analysis.waiver_issues.empty()) {
    Json waivers = Json::array();
    for (const WaiverIssue& w : report.analysis.waiver_issues) {
      Json item = {{"at", w.at},
                   {"status", w.expired ? "expired" : "stale"},
                   {"check", w.rule.check},
                   {"reason", w.rule.reason},
                   {"findings", w.findings}};
      const std::pair<const char*, const std::string*> optional_fields[] = {
          {"owner", &w.rule.owner},
          {"ticket", &w.rule.ticket},
          {"expires", &w.rule.expires},
          {"fingerprint", &w.rule.fingerprint}};
      for (const auto& [key, value] : optional_fields) {
        if (!value->empty()) item[key] = *value;
      }
      waivers.push_back(std::move(item));
    }
    j["waivers"] = waivers;
  }
  Json notes = Json::array();
  for (const std::string& n : input.notes)
    notes.push_back(n);
  for (const std::string& n : report.analysis.notes)
    notes.push_back(n);
  j["notes"] = notes;
  return splice_sections(dump_json(j, 2), spliced);
}

}  // namespace footprint
