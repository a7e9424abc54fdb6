#include "load/helm_gzip.h"

#include <libdeflate.h>

#include <algorithm>
#include <memory>

namespace footprint {

namespace {

// The closest to Helm's own gzip (Go's compress/gzip at BestCompression) that is still above it
// in all on the corpus, at two thirds of zlib level 6's instructions (docs/performance.md).
constexpr int kLevel = 7;

struct FreeCompressor {
  void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
};

}  // namespace

std::optional<GzipSize> helm_gzip_size(std::string_view text, uint64_t max_bytes,
                                       size_t piece_bytes) {
  // Not thread-safe to share: one per call, and each call is one task.
  std::unique_ptr<libdeflate_compressor, FreeCompressor> compressor(
      libdeflate_alloc_compressor(kLevel));
  if (!compressor) return std::nullopt;
  size_t first = std::min(piece_bytes, text.size());
  size_t capacity = libdeflate_gzip_compress_bound(compressor.get(), first);
  auto out = std::make_unique_for_overwrite<unsigned char[]>(capacity);
  GzipSize size;
  // Pieces after the first restart the dictionary, which costs a little compression (the estimate
  // errs high). Concatenated gzip members are one valid gzip file (RFC 1952, 2.2), so the total
  // is a real gzip's size.
  size_t offset = 0;
  do {
    size_t n = std::min(piece_bytes, text.size() - offset);
    size_t written =
        libdeflate_gzip_compress(compressor.get(), text.data() + offset, n, out.get(), capacity);
    if (written == 0) return std::nullopt;  // cannot happen with the bound's capacity
    size.bytes += written;
    offset += n;
    if (offset < text.size() && size.bytes >= max_bytes) {
      size.complete = false;
      break;
    }
  } while (offset < text.size());
  size.input_bytes = offset;
  return size;
}

}  // namespace footprint
