// The gzip size of Helm-rendered manifests, which bounds the size of the release Helm stores
// (docs/crds.md, docs/performance.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace footprint {

// A file's size after gzip, as Helm compresses a release before storing it.
struct GzipSize {
  uint64_t bytes = 0;        // compressed bytes, gzip header and trailer included
  uint64_t input_bytes = 0;  // bytes of the file compressed to get them
  bool complete = true;      // false: stopped at LoadOptions::max_gzip_bytes
};

// libdeflate's gzip compressor works on whole buffers: a file is compressed in pieces of this
// size, each a gzip member of its own, so that compression can stop once past the limit.
inline constexpr size_t kHelmGzipPiece = size_t{8} << 20;

// The size of `text` as gzip at libdeflate's level 7, stopping after the first piece that takes
// the total to `max_bytes` or more; nullopt when the compressor cannot be allocated.
// `piece_bytes` (more than 0) is a parameter for tests.
std::optional<GzipSize> helm_gzip_size(std::string_view text, uint64_t max_bytes,
                                       size_t piece_bytes = kHelmGzipPiece);

}  // namespace footprint
