// Test helpers: a Bundle from YAML text, and the YAML of common objects.
#pragma once

#include <fmt/format.h>
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

// A ClusterRole bound cluster-wide to ServiceAccount op-system/op, with `rules` as written.
inline std::string cluster_role(std::string_view rules) {
  return fmt::format(R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {{name: op}}
rules:
{}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {{name: op}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: op}}
subjects: [{{kind: ServiceAccount, name: op, namespace: op-system}}]
)",
                     rules);
}

}  // namespace footprint::testing
