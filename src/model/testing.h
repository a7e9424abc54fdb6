// Test helper: a Bundle from YAML text.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "model/object.h"

namespace footprint::testing {

inline Bundle bundle_from(std::string_view yaml, std::string ns = "default") {
  auto loaded = load_texts({{"test.yaml", std::string(yaml)}}, LoadOptions{});
  EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().front().to_string());
  if (!loaded) return Bundle{};
  return build_bundle(std::move(*loaded), BundleOptions{std::move(ns)});
}

}  // namespace footprint::testing
