#include <charconv>
#include <filesystem>

#include "report/report.h"

namespace footprint {

namespace {

std::string chart_root_of(const Bundle& bundle, const std::string& file) {
  const LoadedInput& input = bundle.input;
  for (size_t i = 0; i < input.files.size() && i < input.chart_roots.size(); ++i) {
    if (input.files[i] == file) return input.chart_roots[i];
  }
  return "";
}

}  // namespace

RepositoryLocation repository_location(const Bundle& bundle, const Finding& finding) {
  // A chart's rendered stream exists only in memory: point at the template that produced the
  // object (its line in the template is unknown). A packaged chart's lines are helm's output,
  // not the archive's: name the archive alone.
  std::string root = chart_root_of(bundle, finding.file);
  const std::string& source = finding.helm_template;
  if (!root.empty() && source.find('/') != std::string::npos) {
    return {(std::filesystem::path(root) / source.substr(source.find('/') + 1)).generic_string()};
  }
  // An OLM bundle's generated object points at the line of the bundle it comes from: FILE:LINE.
  size_t colon = source.rfind(':');
  if (bundle.input.renderer_of(finding.file) == "olm" && colon != std::string::npos) {
    uint32_t line = 0;
    std::from_chars(source.data() + colon + 1, source.data() + source.size(), line);
    return {source.substr(0, colon), line, 0};
  }
  if (!bundle.input.renderer_of(finding.file).empty()) return {finding.file};
  return {finding.file, finding.position.line, finding.position.column};
}

}  // namespace footprint
