// Test helpers: run one check over a bundle, and fixtures more than one test file uses.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "analysis/analyze.h"
#include "analysis/context.h"
#include "model/object.h"
#include "model/testing.h"

namespace footprint::testing {

// Every finding's severity must lie in the range the check declares (docs/checks.md states it).
inline std::vector<Finding> run_check(const Bundle& bundle, std::string_view id,
                                      const std::vector<Expectation>& expectations = {}) {
  const Check* check = find_check(id);
  EXPECT_NE(check, nullptr) << id;
  Findings out(bundle);
  if (check) {
    out.set_check(check->id, check->impact);
    check->run(Context(bundle, {}, expectations), out);
    for (const Finding& f : out.list()) {
      EXPECT_GE(f.severity, check->min_severity) << id << ": " << f.message;
      EXPECT_LE(f.severity, check->max_severity) << id << ": " << f.message;
    }
  }
  return std::move(out.list());
}

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

}  // namespace footprint::testing
