// GitHub Actions workflow commands (docs.github.com, "Workflow commands for GitHub Actions"):
// `::error file=F,line=L,col=C,title=T::message`. The runner reads properties up to the first
// `::` and splits them at `,` and `=`, so values escape `%`, CR, LF, `:` and `,`; the message
// escapes `%`, CR and LF (actions/runner, src/Runner.Common/ActionCommand.cs, unescapes those).
#include <fmt/format.h>

#include "report/report.h"
#include "util/display_text.h"

namespace footprint {

namespace {

// The input's control characters are shown escaped first (util/display_text.h): escaped as %0D,
// a carriage return from the input would reach the annotation as it was.
std::string escape_data(std::string_view text) {
  std::string out;
  for (char c : display_text(text)) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string escape_property(std::string_view text) {
  std::string out;
  for (char c : escape_data(text)) {
    if (c == ':') {
      out += "%3A";
    } else if (c == ',') {
      out += "%2C";
    } else {
      out += c;
    }
  }
  return out;
}

// Errors fail a reviewer's eye where the finding breaks something; notices stay out of the way.
std::string_view command_for(Severity severity) {
  switch (severity) {
    case Severity::kCritical:
    case Severity::kHigh:
      return "error";
    case Severity::kMedium:
      return "warning";
    default:
      return "notice";
  }
}

}  // namespace

std::string render_github(const Report& report, const ReportOptions& options) {
  std::string out;
  for (const Finding& f : report.analysis.findings) {
    if (f.suppressed || f.known || f.severity < options.min_severity) continue;
    RepositoryLocation at = repository_location(*report.bundle, f);
    std::string properties = "file=" + escape_property(at.file);
    if (at.line) properties += fmt::format(",line={}", at.line);
    if (at.column) properties += fmt::format(",col={}", at.column);
    properties +=
        ",title=" + escape_property(fmt::format("{} ({})", f.check, severity_name(f.severity)));
    std::string message = f.message + "\nFix: " + f.remediation;
    if (f.suppression_request) message += "\n" + suppression_request_text(f);
    out += fmt::format("::{} {}::{}\n", command_for(f.severity), properties, escape_data(message));
  }
  // A document that is no object is left out of the analysis: the run must not look clean.
  for (const LoadError& e : report.bundle->input.invalid_documents) {
    std::string properties = "file=" + escape_property(e.file);
    if (e.position.line) properties += fmt::format(",line={}", e.position.line);
    if (e.position.column) properties += fmt::format(",col={}", e.position.column);
    properties += ",title=" + escape_property("invalid-document");
    out += fmt::format("::error {}::{}\n", properties,
                       escape_data(e.message + "\nThe document is left out of the analysis, and "
                                               "applying the input fails on it."));
  }
  return out;
}

}  // namespace footprint
