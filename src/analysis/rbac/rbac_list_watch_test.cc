// rbac-resourcenames-list-watch on the hand-written bundles of tests/data/rbac-traps/: each
// verdict argued from the Kubernetes source named beside it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>

#include "analysis/check_testing.h"
#include "load/loader.h"

namespace footprint {
namespace {

using testing::run_check;

Bundle fixture(const char* name) {
  std::string path = FOOTPRINT_SOURCE_DIR;
  path += "/tests/data/rbac-traps/";
  path += name;
  auto loaded = load_inputs({path}, LoadOptions{});
  EXPECT_TRUE(loaded.has_value()) << path;
  if (!loaded) return Bundle{};
  return build_bundle(std::move(*loaded), BundleOptions{"op-system"});
}

// Leader election never lists: client-go's LeaseLock
// (staging/src/k8s.io/client-go/tools/leaderelection/resourcelock/leaselock.go) calls only Get,
// Create and Update on Leases(namespace) with its one name, so list and watch on a named lease
// are unused verbs and nothing crash-loops. The Secret rule beside it, same shape, is still
// reported (the rule's line counted by hand), medium: nothing else in the bundle shows that op
// lists Secrets (see NoInformerEvidenceIsMedium).
TEST(ResourceNamesListWatch, LeaderElectionLeaseIsNoTrap) {
  auto findings = run_check(fixture("leader-election.yaml"), "rbac-resourcenames-list-watch");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kMedium);
  EXPECT_EQ(findings[0].position.line, 16u);
  EXPECT_NE(findings[0].message.find("secrets"), std::string::npos);
  EXPECT_EQ(findings[0].message.find("leases"), std::string::npos);
}

const Finding* about_subject(const std::vector<Finding>& findings, std::string_view subject) {
  for (const Finding& f : findings) {
    for (const auto& [kind, items] : f.affects) {
      if (kind == "subjects" && std::find(items.begin(), items.end(), subject) != items.end())
        return &f;
    }
  }
  return nullptr;
}

// RequestInfo (staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go) gives a list
// or watch whose field selector requires metadata.name=NAME the name NAME, so a resourceNames rule
// allows a watch of its named objects; only an unnamed list, an informer over the kind, is
// forbidden. An informer lists, then watches (client-go tools/cache/reflector.go, ListAndWatch).
// op may list and watch every Secret in team-a (Role team-a/manager), the rights of an informer
// over Secrets, whose cache across op's namespaces lists op-system's too: high, naming team-a.
// lister may list Secrets in team-a but not watch them, and reader holds nothing on ConfigMaps
// beyond its named one: nothing shows an informer, medium, saying what does work.
TEST(ResourceNamesListWatch, InformerEvidenceDecidesTheSeverity) {
  auto findings = run_check(fixture("informer-evidence.yaml"), "rbac-resourcenames-list-watch");
  ASSERT_EQ(findings.size(), 3u);
  const Finding* op = about_subject(findings, "ServiceAccount op-system/op");
  const Finding* lister = about_subject(findings, "ServiceAccount op-system/lister");
  const Finding* reader = about_subject(findings, "ServiceAccount op-system/reader");
  ASSERT_TRUE(op && lister && reader);
  EXPECT_EQ(op->severity, Severity::kHigh);
  EXPECT_NE(op->message.find("lets it list and watch all secrets in namespace team-a"),
            std::string::npos);
  EXPECT_NE(op->message.find("Role team-a/manager"), std::string::npos);
  for (const Finding* f : {lister, reader}) {
    EXPECT_EQ(f->severity, Severity::kMedium);
    EXPECT_NE(f->message.find("only a watch of the named objects through that field selector "
                              "works; an informer over the kind is forbidden"),
              std::string::npos);
  }
  EXPECT_NE(reader->message.find("configmaps"), std::string::npos);
}

}  // namespace
}  // namespace footprint
