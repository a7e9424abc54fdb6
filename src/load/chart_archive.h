// A packaged Helm chart (`helm package` output: a gzip-compressed tar): its size, and the
// Chart.yaml and values.yaml of the chart and of each subchart under charts/.
#pragma once

#include <cstdint>
#include <string>
#include <tl/expected.hpp>
#include <vector>

namespace footprint {

struct ChartFile {
  std::string path;  // inside the archive, e.g. "dynamo-platform/Chart.yaml"
  std::string text;
};

struct ChartArchive {
  std::string file;
  uint64_t bytes = 0;            // the archive's size on disk
  std::vector<ChartFile> files;  // Chart.yaml and values.yaml files, in archive order
};

// Reads the archive; other files are skipped. Errors name the file and what is wrong.
tl::expected<ChartArchive, std::string> read_chart_archive(const std::string& path);

// Parses a gzip-compressed tar held in memory; exposed for tests.
tl::expected<std::vector<ChartFile>, std::string> chart_files_from_tgz(std::string_view data);

}  // namespace footprint
