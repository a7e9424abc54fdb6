// Charts as input: footprint renders them with the real helm binary (`helm template`), the way
// the chart would be installed, and reads the rendered stream like any other manifest.
#pragma once

#include <string>
#include <tl/expected.hpp>
#include <vector>

namespace footprint {

// A directory holding Chart.yaml, or a packaged chart (.tgz).
bool is_chart(const std::string& path);

struct ChartOptions {
  std::string release;  // empty: the chart's name
  std::string namespace_ = "default";
  std::vector<std::string> values_files;
  std::vector<std::string> set;
  std::vector<std::string> set_string;
  std::vector<std::string> set_file;  // KEY=FILE: the file's text as the value (--set-file)
  std::vector<std::string> api_versions;
  std::string kube_version;
  bool include_crds = true;  // --include-crds; off for a Flux HelmRelease whose install skips CRDs
};

// What each capability check changes: the chart is rendered again with that API version
// declared (when it was not) or not (when it was), and the objects that differ are listed.
// What one capability check changes in a render (see probe_capabilities).
struct CapabilityEffect {
  std::string api_version;
  bool declared = false;             // given with --api-versions
  std::vector<std::string> objects;  // "Kind name" rendered only when the version is declared
};

struct RenderedChart {
  std::string chart;
  std::string release;
  std::string text;                  // the rendered manifests, with `# Source:` comments
  std::vector<std::string> command;  // the helm invocation, for the report
  std::string helm_version;
  std::vector<CapabilityEffect> capabilities;  // filled by probe_capabilities when asked
};

struct HelmFailure {
  std::string message;  // what to print, helm's own words first
};

// The name Chart.yaml gives a chart directory or archive (else the path's stem): the release name
// footprint renders a chart as when --release gives none.
std::string chart_name(const std::string& chart);

// Finds helm: $FOOTPRINT_HELM, else `helm` on PATH. Empty when there is none.
std::string find_helm();

// Runs `helm template RELEASE CHART --namespace NS --include-crds ...`.
tl::expected<RenderedChart, HelmFailure> render_chart(const std::string& chart,
                                                      const ChartOptions& options);

// API versions the chart's templates test with `.Capabilities.APIVersions.Has "..."`, sorted.
std::vector<std::string> capability_checks(const std::string& chart);

// Renders the chart again once per capability check, with that API version declared when it
// was not (or without it when it was), and lists the objects that differ.
std::vector<CapabilityEffect> probe_capabilities(const std::string& chart,
                                                 const ChartOptions& options,
                                                 const RenderedChart& base);

}  // namespace footprint
