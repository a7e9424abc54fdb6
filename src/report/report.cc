#include "report/report.h"

#include <fmt/format.h>

#include "report/html.h"

namespace footprint {

const FormatName& name_of(Format format) {
  for (const FormatName& f : kFormatNames) {
    if (f.format == format) return f;
  }
  return kFormatNames[0];
}

std::optional<Format> parse_format(std::string_view name) {
  for (const FormatName& f : kFormatNames) {
    if (name == f.name || (!f.alias.empty() && name == f.alias)) return f.format;
  }
  return std::nullopt;
}

std::string suppression_request_text(const Finding& f) {
  if (!f.suppression_request) return "";
  const std::string& reason = *f.suppression_request;
  return fmt::format(
      "The chart asks to suppress this: {} ({}; not honoured: {}).",
      reason.empty() ? "no reason given" : reason, kIgnoreAnnotation,
      f.severity == Severity::kCritical
          ? "a critical finding is waived only by an ignore entry of your own .footprint.yaml"
          : "the input's annotations count only with --trust-annotations or trustAnnotations "
            "in your .footprint.yaml");
}

SectionParts section_parts(Format format) {
  switch (format) {
    case Format::kJson:
      return {.blocks = false, .json = true};
    case Format::kText:
    case Format::kMarkdown:
    case Format::kHtml:
      return {.blocks = true, .json = false};
    case Format::kSarif:
    case Format::kGithub:
    case Format::kJunit:
    case Format::kList:
      break;
  }
  return {.blocks = false, .json = false};
}

std::string render_report(const Report& report, Format format, const ReportOptions& options) {
  switch (format) {
    case Format::kJson:
      return render_json(report);
    case Format::kMarkdown:
      return render_markdown(report);
    case Format::kSarif:
      return render_sarif(report);
    case Format::kHtml:
      return render_html(report);
    case Format::kGithub:
      return render_github(report, options);
    case Format::kJunit:
      return render_junit(report, options);
    case Format::kText:
    case Format::kList:  // the images command writes its list itself
      break;
  }
  return render_text(report, options);
}

}  // namespace footprint
