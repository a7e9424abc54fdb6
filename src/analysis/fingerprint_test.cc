// Fingerprints name what a finding is about: they survive reordering, reformatting and moved
// lines, and change with the subject.
#include "analysis/fingerprint.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "analysis/analyze.h"
#include "analysis/context.h"
#include "load/loader.h"
#include "model/testing.h"
#include "util/test_skip.h"

namespace footprint {
namespace {

using testing::bundle_from;

// A Role whose list rule is restricted by resourceNames (two resources from one rule), a
// ClusterRole with a wildcard, and a Deployment with two unpinned images.
constexpr const char* kVersion1 = R"(apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader, namespace: ops}
rules:
- {apiGroups: [""], resources: [secrets, configmaps], resourceNames: [one], verbs: [get, list, watch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: everything}
rules:
- {apiGroups: ["*"], resources: ["*"], verbs: ["*"]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: op, namespace: ops}
spec:
  selector: {matchLabels: {app: op}}
  template:
    metadata: {labels: {app: op}}
    spec:
      containers:
      - {name: a, image: "quay.io/acme/op:1.0"}
      - {name: b, image: "quay.io/acme/helper:1.0"}
)";

// The same objects in another order, block style, other quoting, comments and blank lines that
// move every line, and the images' tags bumped (a chart upgrade).
constexpr const char* kVersion2 = R"(# a new chart version
apiVersion: apps/v1
kind: Deployment
metadata:
  namespace: ops
  name: op
spec:
  selector:
    matchLabels:
      app: op
  template:
    metadata:
      labels:
        app: op
    spec:
      containers:
      - name: b
        image: quay.io/acme/helper:1.1
      - name: a
        image: 'quay.io/acme/op:1.1'
---


apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: everything
rules:
- verbs: ['*']
  apiGroups: ['*']
  resources: ['*']
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: reader
  namespace: ops
rules:
- apiGroups:
  - ""
  resources:
  - secrets
  - configmaps
  verbs:
  - get
  - list
  - watch
  resourceNames:
  - one
)";

// check -> its findings' fingerprints
std::map<std::string, std::multiset<std::string>> fingerprints(const Bundle& bundle) {
  std::map<std::string, std::multiset<std::string>> out;
  for (const Finding& f : analyze(bundle, Config{}).findings)
    out[f.check].insert(fingerprint(f));
  return out;
}

TEST(Fingerprint, SurvivesReorderedReformattedAndLineShiftedBundle) {
  Bundle v1 = bundle_from(kVersion1);
  Bundle v2 = bundle_from(kVersion2);
  auto before = fingerprints(v1);
  // The claims the test is about are there: two unpinned images (one finding for the bundle), a
  // wildcard, resourceNames on two resources of one rule.
  EXPECT_EQ(before["image-not-pinned"].size(), 1u);
  EXPECT_EQ(before["rbac-wildcard"].size(), 1u);
  EXPECT_EQ(before["rbac-resourcenames-list-watch"].size(), 2u);
  EXPECT_EQ(before, fingerprints(v2));
  for (const Finding& f : analyze(v2, Config{}).findings)
    EXPECT_EQ(fingerprint(f).size(), 32u) << f.check;
}

TEST(Fingerprint, ChangesWithTheSubject) {
  std::string renamed = kVersion1;
  renamed.replace(renamed.find("name: everything"), 16, "name: everything-else");
  auto before = fingerprints(bundle_from(kVersion1));
  auto after = fingerprints(bundle_from(renamed));
  ASSERT_EQ(after["rbac-wildcard"].size(), 1u);
  EXPECT_NE(before["rbac-wildcard"], after["rbac-wildcard"]);
  // What is about other objects keeps its fingerprint.
  EXPECT_EQ(before["image-not-pinned"], after["image-not-pinned"]);
}

TEST(Fingerprint, ChangesWithTheImageRepositoryNotItsTag) {
  std::string moved = kVersion1;
  moved.replace(moved.find("quay.io/acme/op:1.0"), 19, "quay.io/acme/op:2.0");
  std::string other = kVersion1;
  other.replace(other.find("quay.io/acme/op:1.0"), 19, "quay.io/acme/xy:1.0");
  auto before = fingerprints(bundle_from(kVersion1));
  EXPECT_EQ(before["image-not-pinned"], fingerprints(bundle_from(moved))["image-not-pinned"]);
  EXPECT_NE(before["image-not-pinned"], fingerprints(bundle_from(other))["image-not-pinned"]);
}

// Reversing the order of a real bundle's objects is the harshest reorder a chart upgrade can
// make: a finding about something several objects share (an image used by many workloads, an
// API group many CRDs need, a built-in role many ClusterRoles extend) must not take its identity
// from whichever object comes first.
TEST(Fingerprint, SurvivesReversedCorpusBundles) {
  std::filesystem::path corpus = std::filesystem::path(FOOTPRINT_SHARED_DIR) / "corpus";
  if (!std::filesystem::exists(corpus)) FOOTPRINT_SKIP(corpus.string() + " not found");
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().filename().string());
    auto forward = load_inputs({entry.path().string()}, LoadOptions{});
    auto backward = load_inputs({entry.path().string()}, LoadOptions{});
    ASSERT_TRUE(forward.has_value() && backward.has_value());
    std::reverse(backward->objects.begin(), backward->objects.end());
    auto before = fingerprints(build_bundle(std::move(*forward), BundleOptions{"operators"}));
    auto after = fingerprints(build_bundle(std::move(*backward), BundleOptions{"operators"}));
    for (const auto& [check, prints] : before)
      EXPECT_EQ(prints, after[check]) << check;
    EXPECT_EQ(before.size(), after.size());
  }
}

// Within one report no two findings share a fingerprint, or a baseline could not tell them
// apart.
TEST(Fingerprint, UniqueWithinEachCorpusReport) {
  std::filesystem::path corpus = std::filesystem::path(FOOTPRINT_SHARED_DIR) / "corpus";
  if (!std::filesystem::exists(corpus)) FOOTPRINT_SKIP(corpus.string() + " not found");
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().filename().string());
    auto loaded = load_inputs({entry.path().string()}, LoadOptions{});
    ASSERT_TRUE(loaded.has_value());
    Bundle bundle = build_bundle(std::move(*loaded), BundleOptions{"operators"});
    std::map<std::string, const Finding*> seen;
    for (const Finding& f : analyze(bundle, Config{}).findings) {
      auto [it, inserted] = seen.emplace(fingerprint(f), &f);
      EXPECT_TRUE(inserted) << f.check << " on " << f.object.name << ": " << f.message
                            << "\nshares its fingerprint with: " << it->second->message;
    }
  }
}

}  // namespace
}  // namespace footprint
