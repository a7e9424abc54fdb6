// Where this binary comes from, filled in at build time by cmake/build_info.cmake.
#pragma once

#include <string_view>

namespace footprint {

// The git commit built from (40 hex digits), or "unknown" when the source had no git metadata.
extern const std::string_view kBuildCommit;
// Whether tracked files differed from that commit.
extern const bool kBuildTreeModified;

}  // namespace footprint
