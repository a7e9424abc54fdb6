#include "load/helm_gzip.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

namespace footprint {
namespace {

// 3,000 ConfigMaps with values from a 32-bit LCG, 369,780 bytes. The expected sizes come from
// Debian's libdeflate-gzip 1.14 on the same text written by this Python:
//   seed = 1
//   for i in range(3000):
//       seed = (seed * 1664525 + 1013904223) % 2**32
//       print(f"---\n# Source: chart/templates/cm{i}.yaml\napiVersion: v1\nkind: ConfigMap\n"
//             f"metadata:\n  name: cm{i}\ndata:\n  value: \"{seed:08x}\"", end="\n")
// `libdeflate-gzip -7 -c t.yaml | wc -c`, and per piece `split -b 65536 t.yaml p` and the same
// on each. The tool writes the library's 10-byte header (no name, no time): `cmp` found its
// output byte-identical to libdeflate_gzip_compress's.
std::string config_maps() {
  std::string out;
  uint32_t seed = 1;
  for (int i = 0; i < 3000; ++i) {
    seed = seed * 1664525u + 1013904223u;
    out += fmt::format(
        "---\n# Source: chart/templates/cm{}.yaml\napiVersion: v1\nkind: ConfigMap\n"
        "metadata:\n  name: cm{}\ndata:\n  value: \"{:08x}\"\n",
        i, i, seed);
  }
  return out;
}

TEST(HelmGzip, OnePieceIsTheGzipOfTheWholeFile) {
  std::string text = config_maps();
  ASSERT_EQ(text.size(), 369'780u);
  // The limit only stops compression between pieces: the last piece is always compressed.
  std::optional<GzipSize> size = helm_gzip_size(text, 1);
  ASSERT_TRUE(size);
  EXPECT_EQ(size->bytes, 32'567u);
  EXPECT_EQ(size->input_bytes, text.size());
  EXPECT_TRUE(size->complete);
}

TEST(HelmGzip, PiecesAreGzipMembers) {
  std::string text = config_maps();
  std::optional<GzipSize> size = helm_gzip_size(text, uint64_t{1} << 30, 65'536);
  ASSERT_TRUE(size);
  // 6,025 + 5,925 + 5,822 + 5,833 + 5,824 + 3,757 for the six pieces: each restarts the
  // dictionary, so more than the whole file's 32,567.
  EXPECT_EQ(size->bytes, 33'186u);
  EXPECT_EQ(size->input_bytes, text.size());
  EXPECT_TRUE(size->complete);
}

TEST(HelmGzip, StopsAtThePieceThatReachesTheLimit) {
  std::string text = config_maps();
  // Two pieces come to 11,950 bytes: reaching the limit stops there.
  std::optional<GzipSize> size = helm_gzip_size(text, 11'950, 65'536);
  ASSERT_TRUE(size);
  EXPECT_EQ(size->bytes, 11'950u);
  EXPECT_EQ(size->input_bytes, 2u * 65'536);
  EXPECT_FALSE(size->complete);
  // One byte more takes a third piece.
  size = helm_gzip_size(text, 11'951, 65'536);
  ASSERT_TRUE(size);
  EXPECT_EQ(size->bytes, 17'772u);
  EXPECT_EQ(size->input_bytes, 3u * 65'536);
  EXPECT_FALSE(size->complete);
}

}  // namespace
}  // namespace footprint
