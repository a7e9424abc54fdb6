// Test helper: run one check over a bundle.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/check.h"
#include "model/object.h"
#include "model/testing.h"

namespace footprint::testing {

inline std::vector<Finding> run_check(const Bundle& bundle, std::string_view id,
                                      const std::vector<Expectation>& expectations = {}) {
  const Check* check = find_check(id);
  EXPECT_NE(check, nullptr) << id;
  Findings out(bundle);
  if (check) {
    out.set_check(check->id);
    check->run(Context(bundle, {}, expectations), out);
  }
  return std::move(out.list());
}

}  // namespace footprint::testing
