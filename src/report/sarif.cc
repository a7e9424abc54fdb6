#include <fmt/format.h>

#include <filesystem>

#include "analysis/check.h"
#include "analysis/fingerprint.h"
#include "report/report.h"

namespace footprint {

namespace {

constexpr const char* kInvalidDocumentRule = "invalid-document";
// Versioned, so a future change of what the fingerprint covers gets a new key instead of
// silently breaking the matches code scanning keeps.
constexpr const char* kSarifFingerprintKey = "footprint/v1";

std::string_view sarif_level(Severity severity) {
  switch (severity) {
    case Severity::kCritical:
    case Severity::kHigh:
      return "error";
    case Severity::kMedium:
      return "warning";
    default:
      return "note";
  }
}

// GitHub code scanning ranks results by this score: 9+ critical, 7+ high, 4+ medium, else low.
std::string_view security_severity(Severity severity) {
  switch (severity) {
    case Severity::kCritical:
      return "9.5";
    case Severity::kHigh:
      return "8.0";
    case Severity::kMedium:
      return "5.5";
    case Severity::kLow:
      return "3.0";
    case Severity::kInfo:
      break;
  }
  return "1.0";
}

std::string percent_encode(std::string_view path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

// Code scanning resolves relative URIs against the repository root, which is where footprint
// normally runs; absolute paths under the working directory are made relative.
std::string artifact_uri(const std::string& file) {
  if (file == "<stdin>") return "stdin";
  namespace fs = std::filesystem;
  fs::path path(file);
  if (path.is_absolute()) {
    std::error_code ec;
    fs::path relative = path.lexically_relative(fs::current_path(ec));
    if (ec || relative.empty() || relative.native().starts_with("..")) {
      return "file://" + percent_encode(path.generic_string());
    }
    path = relative;
  }
  return percent_encode(path.lexically_normal().generic_string());
}

}  // namespace

std::string render_sarif(const Report& report) {
  Json rules = Json::array();
  for (const Check* check : all_checks()) {
    rules.push_back(
        {{"id", check->id},
         {"name", check->id},
         {"shortDescription", {{"text", check->description}}},
         {"fullDescription", {{"text", check->rationale}}},
         {"help",
          {{"text", fmt::format("{} Fix: {}", check->rationale, check->fix)},
           {"markdown", fmt::format("{}\n\n**Fix:** {}\n\nSeverity: {}.", check->rationale,
                                    check->fix, severity_range(*check))}}},
         {"defaultConfiguration", {{"level", sarif_level(check->max_severity)}}},
         {"properties",
          {{"security-severity", security_severity(check->max_severity)},
           {"area", area_name(check->area)}}}});
  }
  // Not a check: a document that is not a valid object, which applying the input fails on.
  rules.push_back(
      {{"id", kInvalidDocumentRule},
       {"name", kInvalidDocumentRule},
       {"shortDescription", {{"text", "A document is not a valid Kubernetes object."}}},
       {"fullDescription",
        {{"text",
          "The document cannot be read as a Kubernetes object, so it is left out of the "
          "analysis, and applying the input fails on it."}}},
       {"help", {{"text", "Fix the document at the given line."}}},
       {"defaultConfiguration", {{"level", "error"}}},
       {"properties", {{"security-severity", security_severity(Severity::kHigh)}}}});
  const int invalid_rule_index = static_cast<int>(rules.size()) - 1;
  auto rule_index = [](const std::string& id) {
    auto checks = all_checks();
    for (size_t i = 0; i < checks.size(); ++i) {
      if (checks[i]->id == id) return static_cast<int>(i);
    }
    return -1;
  };
  Json results = Json::array();
  for (const Finding& f : report.analysis.findings) {
    RepositoryLocation at = repository_location(*report.bundle, f);
    Json physical = {{"artifactLocation", {{"uri", artifact_uri(at.file)}}}};
    // A packaged chart's lines are helm's output, not the archive's: name the archive alone.
    bool archive = at.file == f.file && !report.bundle->input.renderer_of(f.file).empty();
    if (!archive) {
      Json region = {{"startLine", std::max<uint32_t>(at.line, 1)}};
      if (at.column) region["startColumn"] = at.column;
      physical["region"] = region;
    }
    std::string object = f.object.namespace_.empty()
                             ? f.object.kind + "/" + f.object.name
                             : f.object.kind + "/" + f.object.namespace_ + "/" + f.object.name;
    Json result = {
        {"ruleId", f.check},
        {"ruleIndex", rule_index(f.check)},
        {"level", sarif_level(f.severity)},
        {"message", {{"text", f.message + " Fix: " + f.remediation}}},
        {"partialFingerprints", {{kSarifFingerprintKey, fingerprint(f)}}},
        {"locations",
         Json::array({{{"physicalLocation", physical},
                       {"logicalLocations",
                        Json::array({{{"fullyQualifiedName", object}, {"kind", "resource"}}})}}})}};
    Json properties = {{"severity", severity_name(f.severity)},
                       {"security-severity", security_severity(f.severity)}};
    if (!f.helm_template.empty()) properties["helmTemplate"] = f.helm_template;
    std::string_view renderer = report.bundle->input.renderer_of(f.file);
    if (!renderer.empty()) {
      properties["renderedBy"] = renderer;
      properties["renderedLine"] = f.position.line;
    }
    if (f.suppression_request) {
      // Not a SARIF suppression: viewers would hide the result, which the chart does not decide.
      properties["suppressionRequest"] = *f.suppression_request;
      result["message"]["text"] =
          result["message"]["text"].get<std::string>() + " " + suppression_request_text(f);
    }
    result["properties"] = properties;
    if (f.suppressed) {
      result["suppressions"] =
          Json::array({{{"kind", f.suppressed_by == kIgnoreAnnotation ? "inSource" : "external"},
                        {"justification", f.suppression_reason}}});
    }
    if (report.analysis.resolved) {
      // SARIF 2.1.0 result.baselineState: "updated" for a result matched in the baseline whose
      // details changed, here its severity.
      result["baselineState"] = f.severity_before ? "updated" : f.known ? "unchanged" : "new";
    }
    results.push_back(std::move(result));
  }
  // SARIF 2.1.0 result.baselineState "absent": a result of the baseline run that this run does
  // not have. It is a pass of its rule (kind "pass", level "none"), not a problem.
  for (const ResolvedFinding& r :
       report.analysis.resolved.value_or(std::vector<ResolvedFinding>{})) {
    const Finding& f = r.finding;
    Json result = {{"ruleId", f.check},
                   {"kind", "pass"},
                   {"level", "none"},
                   {"baselineState", "absent"},
                   {"message", {{"text", "Resolved since the baseline: " + f.message}}},
                   {"partialFingerprints", {{kSarifFingerprintKey, r.fingerprint}}},
                   {"properties", {{"severity", severity_name(f.severity)}}}};
    if (int index = rule_index(f.check); index >= 0) result["ruleIndex"] = index;
    if (!f.file.empty()) {
      Json physical = {{"artifactLocation", {{"uri", artifact_uri(f.file)}}}};
      if (f.position.line) physical["region"] = {{"startLine", f.position.line}};
      result["locations"] = Json::array({{{"physicalLocation", physical}}});
    }
    results.push_back(std::move(result));
  }
  for (const LoadError& e : report.bundle->input.invalid_documents) {
    Json physical = {{"artifactLocation", {{"uri", artifact_uri(e.file)}}}};
    if (e.position.line) {
      physical["region"] = {{"startLine", e.position.line}};
      if (e.position.column) physical["region"]["startColumn"] = e.position.column;
    }
    results.push_back({{"ruleId", kInvalidDocumentRule},
                       {"ruleIndex", invalid_rule_index},
                       {"kind", "fail"},
                       {"level", "error"},
                       {"message", {{"text", e.message}}},
                       {"locations", Json::array({{{"physicalLocation", physical}}})}});
  }
  Json run = {
      {"tool",
       {{"driver", {{"name", "footprint"}, {"version", FOOTPRINT_VERSION}, {"rules", rules}}}}},
      {"results", results}};
  // SARIF 2.1.0 §3.20.21: what the tool could not analyse is a notification of the invocation.
  if (!report.bundle->input.skipped.empty()) {
    Json notifications = Json::array();
    for (const Skipped& item : report.bundle->input.skipped) {
      Json physical = {{"artifactLocation", {{"uri", artifact_uri(item.path)}}}};
      if (item.line) physical["region"] = {{"startLine", item.line}};
      std::string text = fmt::format("Not analysed: {}{}{}: {}", unit_name(item.unit),
                                     item.what.empty() ? "" : " ", item.what, item.reason);
      notifications.push_back({{"descriptor", {{"id", "not-analysed"}}},
                               {"level", "note"},
                               {"message", {{"text", text}}},
                               {"locations", Json::array({{{"physicalLocation", physical}}})}});
    }
    run["invocations"] = Json::array(
        {{{"executionSuccessful", true}, {"toolExecutionNotifications", notifications}}});
  }
  Json sarif = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                {"version", "2.1.0"},
                {"runs", Json::array({run})}};
  return dump_json(sarif, 2) + "\n";
}

}  // namespace footprint
