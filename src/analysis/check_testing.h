// Test helpers: run one check over a bundle, and fixtures more than one test file uses.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/context.h"
#include "load/loader.h"
#include "model/cluster.h"
#include "model/object.h"
#include "model/testing.h"

namespace footprint::testing {

// Runs one check, against `cluster` when given (a cluster snapshot, as `--cluster` loads it).
// Every finding's severity must lie in the range the check declares (docs/checks.md states it).
inline std::vector<Finding> run_check(const Bundle& bundle, std::string_view id,
                                      const std::vector<Expectation>& expectations = {},
                                      const Cluster* cluster = nullptr) {
  const Check* check = find_check(id);
  EXPECT_NE(check, nullptr) << id;
  Findings out(bundle);
  if (check) {
    out.set_check(check->id, check->impact);
    check->run(Context(bundle, {}, expectations, cluster), out);
    for (const Finding& f : out.list()) {
      EXPECT_GE(f.severity, check->min_severity) << id << ": " << f.message;
      EXPECT_LE(f.severity, check->max_severity) << id << ": " << f.message;
    }
  }
  return std::move(out.list());
}

// Runs one check on a Context the test set up (its deploy_with or provider), holding its findings
// to the check's severity range as run_check does.
inline std::vector<Finding> run_check_on(const Context& ctx, std::string_view id) {
  const Check* check = find_check(id);
  EXPECT_NE(check, nullptr) << id;
  Findings out(ctx.bundle);
  if (check) {
    out.set_check(check->id, check->impact);
    check->run(ctx, out);
    for (const Finding& f : out.list()) {
      EXPECT_GE(f.severity, check->min_severity) << id << ": " << f.message;
      EXPECT_LE(f.severity, check->max_severity) << id << ": " << f.message;
    }
  }
  return std::move(out.list());
}

// The items a finding lists under `kind` in Finding::affects, or none.
inline const std::vector<std::string>& affects(const Finding& f, std::string_view kind) {
  static const std::vector<std::string> kNone;
  for (const auto& [k, items] : f.affects) {
    if (k == kind) return items;
  }
  return kNone;
}

// Checks against a cluster snapshot, on the hand-written fixtures of tests/data/cluster/
// (snapshot.yaml, bundle.yaml; each object there is commented with why it is there).
class ClusterChecks : public ::testing::Test {
 protected:
  static constexpr const char* kData = FOOTPRINT_SOURCE_DIR "/tests/data/cluster/";

  static Bundle fixture_bundle() {
    auto loaded = load_inputs({std::string(kData) + "bundle.yaml"}, LoadOptions{});
    EXPECT_TRUE(loaded.has_value());
    return build_bundle(std::move(*loaded), BundleOptions{"dynamo-system"});
  }
  static Cluster fixture_cluster() {
    auto loaded = load_cluster(std::string(kData) + "snapshot.yaml", 1);
    EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().front().to_string());
    return std::move(*loaded);
  }

  Bundle bundle = fixture_bundle();
  Cluster cluster = fixture_cluster();
};

// The field report's namespace-restricted install: the cert rotator's Role in the release
// namespace lists Secrets only by name, and nothing else lets the operator list Secrets there.
inline constexpr const char* kRestrictedMode = R"(
apiVersion: v1
kind: ServiceAccount
metadata: {name: controller-manager, namespace: dynamo-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: cert-rotator, namespace: dynamo-system}
rules:
- apiGroups: [""]
  resources: [secrets]
  resourceNames: [webhook-server-cert]
  verbs: [get, list, watch, update, patch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: cert-rotator, namespace: dynamo-system}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: cert-rotator}
subjects:
- {kind: ServiceAccount, name: controller-manager, namespace: dynamo-system}
)";

// The cluster-wide mode adds a ClusterRole that lists Secrets everywhere, hiding the trap.
inline constexpr const char* kClusterWideGrant = R"(
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: manager}
rules:
- apiGroups: [""]
  resources: [secrets]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: manager}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: manager}
subjects:
- {kind: ServiceAccount, name: controller-manager, namespace: dynamo-system}
)";

// Whether the finding's message contains `text`.
inline bool says(const Finding& f, std::string_view text) {
  return f.message.find(text) != std::string::npos;
}

// A bundle of tests/data/FOLDER/NAME, installed into op-system.
inline Bundle data_fixture(std::string_view folder, const char* name) {
  std::string path = FOOTPRINT_SOURCE_DIR;
  path += "/tests/data/";
  path += folder;
  path += "/";
  path += name;
  auto loaded = load_inputs({path}, LoadOptions{});
  EXPECT_TRUE(loaded.has_value()) << path;
  if (!loaded) return Bundle{};
  return build_bundle(std::move(*loaded), BundleOptions{"op-system"});
}

inline Bundle rbac_paths_fixture(const char* name) {
  return data_fixture("rbac-paths", name);
}
inline Bundle rbac_traps_fixture(const char* name) {
  return data_fixture("rbac-traps", name);
}

// The subject each finding is about, for findings of one check.
inline std::vector<std::string> subjects(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) {
    for (const auto& [kind, items] : f.affects) {
      if (kind == "subjects") out.insert(out.end(), items.begin(), items.end());
    }
  }
  return out;
}

// The finding whose subjects include `subject`, or null.
inline const Finding* about(const std::vector<Finding>& findings, std::string_view subject) {
  for (const Finding& f : findings) {
    for (const auto& [kind, items] : f.affects) {
      if (kind == "subjects" && std::find(items.begin(), items.end(), subject) != items.end())
        return &f;
    }
  }
  return nullptr;
}

inline bool says(const Finding* f, std::string_view text) {
  return f && f->message.find(text) != std::string::npos;
}

// An operator in namespace ops with its webhook Service and pods, plus one CRD it owns.
inline constexpr const char* kWebhookOperator = R"(
apiVersion: v1
kind: Service
metadata: {name: hooks, namespace: ops}
spec:
  selector: {app: operator}
  ports: [{port: 443, targetPort: 9443}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: operator, namespace: ops}
spec:
  selector: {matchLabels: {app: operator}}
  template:
    metadata: {labels: {app: operator}}
    spec: {containers: [{name: m, image: x}]}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions: [{name: v1, served: true, storage: true}]
)";

inline std::string with_webhook_operator(const std::string& webhooks) {
  return std::string(kWebhookOperator) + "---\n" + webhooks;
}

}  // namespace footprint::testing
