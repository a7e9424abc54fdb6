// Charts by reference: `oci://HOST/PATH/CHART` or `REPO/CHART` (a repository `helm repo add`
// knows), pulled by the real helm (`helm pull`) with the user's helm configuration (registry
// logins, repositories), then rendered like a local chart.
#pragma once

#include <string>
#include <tl/expected.hpp>

namespace footprint {

struct ChartPullOptions {
  std::string version;      // helm pull --version: a version or a constraint; empty for the latest
  bool plain_http = false;  // helm pull --plain-http, for an OCI registry without TLS
  std::string ca_file;      // helm pull --ca-file
  std::string repo_url;     // helm pull --repo: the chart is a name in this repository
};

// `oci://...`, or REPO/CHART: one '/', no file extension, and no such path on disk (as helm
// reads its chart argument: a local path first).
bool is_chart_reference(const std::string& input);

// Pulls the chart into a folder of this process's, removed when it ends, and returns the
// archive's path. The error is helm's message, with a hint where one helps.
tl::expected<std::string, std::string> pull_chart(const std::string& reference,
                                                  const ChartPullOptions& options);

}  // namespace footprint
