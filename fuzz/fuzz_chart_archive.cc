// libFuzzer harness: the packaged-chart reader (gzip-compressed tar held in memory).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "load/chart_archive.h"

using namespace footprint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  chart_files_from_tgz(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
