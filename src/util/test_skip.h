// Skips in the unit tests follow the rule of tests/cli/common.inc: under CI=true a skip is a
// failure, since CI installs everything the tests need, unless the reason holds on any fresh
// machine (FOOTPRINT_SKIP_LEGITIMATELY).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string_view>

namespace footprint {

inline bool running_in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string_view(ci) == "true";
}

}  // namespace footprint

#define FOOTPRINT_SKIP(reason)                                  \
  do {                                                          \
    if (::footprint::running_in_ci()) {                         \
      FAIL() << "would skip under CI: " << reason; /* NOLINT */ \
    }                                                           \
    GTEST_SKIP() << reason; /* NOLINT */                        \
  } while (false)
#define FOOTPRINT_SKIP_LEGITIMATELY(reason) GTEST_SKIP() << reason
