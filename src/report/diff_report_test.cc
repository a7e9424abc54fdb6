// The mirror total of `diff --sizes` says which bound it is. diff_sizes.sh covers the exact,
// lower and upper cases against a real registry; this covers both kinds of unread image at once,
// which no single registry run there sets up.
#include "report/diff_report.h"

#include <gtest/gtest.h>

#include "model/units.h"

namespace footprint {
namespace {

// NEW's c:1 could not be read, so its blobs are left out (the total may be short); OLD's a:0
// could not be read, so blobs it may hold are counted (the total may be long): neither bound
// holds, and the line names both. 1000 bytes is format_bytes' "1.0 kB (1,000 bytes)".
TEST(MirrorLine, UnreadImagesOnBothSidesMakeNeitherBound) {
  UpgradeDiff diff;
  diff.mirror.sized = true;
  diff.mirror.images = {"r/b:2", "r/c:1"};
  diff.mirror.unknown = {"r/c:1"};
  diff.mirror.old_unknown = {"r/a:0"};
  diff.mirror.bytes = 1000;
  EXPECT_EQ(mirror_line(diff),
            "To mirror for the upgrade: 2 new images, 1.0 kB (1,000 bytes) (the blobs OLD's "
            "images do not already hold), plus 1 of unknown size (r/c:1); neither bound (the new "
            "images of unknown size are left out): 1 of OLD's images could not be read (r/a:0), "
            "so the blobs they hold count as still to copy.");
  diff.mirror.unknown.clear();
  diff.mirror.images = {"r/b:2"};
  EXPECT_NE(mirror_line(diff).find("; an upper bound: 1 of OLD's images"), std::string::npos);
}

}  // namespace
}  // namespace footprint
