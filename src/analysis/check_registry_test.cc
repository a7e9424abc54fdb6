// The check registry as a contract: well-formed metadata, and on the corpus, findings whose
// severities stay in their check's declared range and whose claims the engines confirm.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>

#include "analysis/analyze.h"
#include "analysis/check_testing.h"
#include "analysis/context.h"
#include "analysis/models/webhook_reach.h"
#include "load/loader.h"
#include "util/test_skip.h"

namespace footprint {
namespace {

using testing::affects;

TEST(CheckRegistry, MetadataIsWellFormed) {
  std::set<std::string_view> ids;
  for (const Check* check : all_checks()) {
    SCOPED_TRACE(check->id);
    EXPECT_TRUE(std::regex_match(std::string(check->id), std::regex("[a-z0-9]+(-[a-z0-9]+)*")));
    EXPECT_TRUE(ids.insert(check->id).second) << "duplicate ID";
    EXPECT_EQ(find_check(check->id), check);
    EXPECT_LE(check->min_severity, check->max_severity);
    for (std::string_view text : {check->description, check->rationale, check->fix}) {
      ASSERT_FALSE(text.empty());
      EXPECT_EQ(text.back(), '.') << text;
    }
  }
}

// Each `extern const Check` under src/analysis/, by ID: the file that defines it, relative to
// src/analysis/ ("rbac/rbac_paths.cc"). Read from the sources, since a Check does not know where
// it is defined.
std::map<std::string, std::string> check_definitions() {
  namespace fs = std::filesystem;
  static const std::regex kDefinition(R"re(extern const Check k\w+\{\s*\.id = "([^"]+)")re");
  const fs::path root = FOOTPRINT_SOURCE_DIR "/src/analysis";
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const std::string name = entry.path().filename().string();
    if (!name.ends_with(".cc") || name.ends_with("_test.cc")) continue;
    std::ifstream in(entry.path());
    std::string text(std::istreambuf_iterator<char>(in), {});
    for (std::sregex_iterator it(text.begin(), text.end(), kDefinition), end; it != end; ++it) {
      EXPECT_TRUE(files.emplace((*it)[1], fs::relative(entry.path(), root).string()).second)
          << (*it)[1] << " is defined twice";
    }
  }
  return files;
}

// A check lives in the folder of its area, named as the area with '_' for '-'.
TEST(CheckRegistry, EachCheckIsDefinedInItsAreasFolder) {
  std::map<std::string, std::string> files = check_definitions();
  EXPECT_EQ(files.size(), all_checks().size()) << "a check is defined but not registered";
  for (const Check* check : all_checks()) {
    SCOPED_TRACE(check->id);
    auto it = files.find(std::string(check->id));
    ASSERT_NE(it, files.end()) << "no `extern const Check` under src/analysis/ defines it";
    std::string folder(area_name(check->area));
    std::replace(folder.begin(), folder.end(), '-', '_');
    EXPECT_EQ(std::filesystem::path(it->second).parent_path().string(), folder) << it->second;
  }
}

// Each file that defines a check has its test beside it: rbac/rbac_paths.cc,
// rbac/rbac_paths_test.cc.
TEST(CheckRegistry, EachCheckFileHasItsTestBesideIt) {
  std::set<std::string> files;
  for (const auto& [id, file] : check_definitions())
    files.insert(file);
  ASSERT_GT(files.size(), 20u) << "the check files were not found";
  for (const std::string& file : files) {
    std::string test = file.substr(0, file.size() - 3) + "_test.cc";
    EXPECT_TRUE(std::filesystem::exists(FOOTPRINT_SOURCE_DIR "/src/analysis/" + test))
        << file << " defines a check but has no " << test << " beside it";
  }
}

// A new check comes with its test: every registered ID is named, quoted, by a unit test of
// src/analysis/ (run_check(bundle, "id") or an expectation on Finding::check).
TEST(CheckRegistry, EveryCheckIsExercisedByATest) {
  namespace fs = std::filesystem;
  std::string tests;
  for (const auto& entry : fs::recursive_directory_iterator(FOOTPRINT_SOURCE_DIR "/src/analysis")) {
    if (!entry.path().string().ends_with("_test.cc")) continue;
    std::ifstream in(entry.path());
    tests.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  ASSERT_GT(tests.size(), 10000u) << "the analysis tests were not found";
  for (const Check* check : all_checks()) {
    EXPECT_NE(tests.find(fmt::format("\"{}\"", check->id)), std::string::npos)
        << check->id << " is named by no test under src/analysis/";
  }
}

// "ServiceAccount ns/name", "User u", "Group g" as Subject::display writes them.
Identity identity_from(std::string_view who) {
  if (who.starts_with("ServiceAccount ")) {
    std::string_view rest = who.substr(15);
    size_t slash = rest.find('/');
    return Identity::service_account(rest.substr(0, slash), rest.substr(slash + 1));
  }
  if (who.starts_with("User ")) return Identity::named_user(who.substr(5));
  return Identity{"", {std::string(who.substr(6))}};
}

// "verb resource[.group][/sub][ named N] (cluster-wide|in NS)" as Request::describe writes it.
Request request_from(const std::string& text) {
  static const std::regex kForm(
      R"(^(\S+) ([^ ./]+)(?:\.([^ /]+))?(?:/(\S+))?(?: named (\S+))? (?:cluster-wide|in (\S+))$)");
  std::smatch m;
  EXPECT_TRUE(std::regex_match(text, m, kForm)) << text;
  return Request{m[1], m[3], m[2], m[4], m[5], m[6], ""};
}

const AdmissionWebhook* webhook_named(const Context& ctx, const std::string& name) {
  for (const AdmissionWebhook& w : ctx.admission.webhooks) {
    if (w.name == name) return &w;
  }
  return nullptr;
}

bool traced(const Context& ctx, const AdmissionRequest& request, const AdmissionWebhook* w) {
  AdmissionTrace t = trace_admission(ctx.admission, request);
  return std::find(t.mutating_webhooks.begin(), t.mutating_webhooks.end(), w) !=
             t.mutating_webhooks.end() ||
         std::find(t.validating_webhooks.begin(), t.validating_webhooks.end(), w) !=
             t.validating_webhooks.end();
}

// What `footprint admission -n NS` would list for pod creation in a namespace of other teams.
bool creates_pods_through(const Context& ctx, const AdmissionWebhook* w, bool need_fail) {
  if (need_fail && w->failure_policy != FailurePolicy::kFail) return false;
  for (const ClusterNamespace& ns : ctx.namespaces) {
    if (ns.operator_owned || ns.name == "kube-system") continue;
    AdmissionRequest pod = pod_create_request(ctx.namespaces, ns.name);
    if (traced(ctx, pod, w)) return true;
    for (const auto& [group, resource] : {std::pair{"apps", "deployments"},
                                          {"batch", "jobs"},
                                          {"apps", "statefulsets"},
                                          {"apps", "daemonsets"}}) {
      AdmissionRequest workload = pod;
      workload.api_group = group;
      workload.resource = resource;
      if (traced(ctx, workload, w)) return true;
    }
  }
  return false;
}

// Every critical and high finding on the corpus makes claims the admission matcher and the RBAC
// authorizer must confirm: grants that `can-i` allows, denials it denies, and webhooks that
// `admission` lists for the requests the finding names.
TEST(CorpusClaims, EnginesConfirmEveryFindingAboutOthersAndGrants) {
  std::filesystem::path corpus = std::filesystem::path(FOOTPRINT_SHARED_DIR) / "corpus";
  if (!std::filesystem::exists(corpus)) FOOTPRINT_SKIP(corpus.string() + " not found");
  size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    if (entry.path().extension() != ".yaml") continue;
    SCOPED_TRACE(entry.path().filename().string());
    auto loaded = load_inputs({entry.path().string()}, LoadOptions{});
    ASSERT_TRUE(loaded.has_value());
    Bundle bundle = build_bundle(std::move(*loaded), BundleOptions{"operators"});
    Context ctx(bundle);
    AnalysisResult result = analyze(ctx, Config{});
    for (const Finding& f : result.findings) {
      SCOPED_TRACE(f.check + " " + f.object.name + ": " + f.message);
      const Check* check = find_check(f.check);
      ASSERT_NE(check, nullptr);
      EXPECT_GE(f.severity, check->min_severity);
      EXPECT_LE(f.severity, check->max_severity);
      for (const std::string& claim : affects(f, "forbidden")) {
        size_t colon = claim.find(": ");
        EXPECT_FALSE(ctx.rbac
                         .authorize(identity_from(claim.substr(0, colon)),
                                    request_from(claim.substr(colon + 2)))
                         .allowed)
            << claim;
        ++checked;
      }
      if (f.severity < Severity::kHigh) continue;
      if (const auto& granted = affects(f, "grants");
          !granted.empty() && f.check.starts_with("rbac-")) {
        const auto& subjects = affects(f, "subjects");
        ASSERT_FALSE(subjects.empty());
        for (const std::string& claim : granted) {
          Request r = request_from(claim);
          bool someone = std::any_of(subjects.begin(), subjects.end(), [&](const std::string& s) {
            return ctx.rbac.authorize(identity_from(s), r).allowed;
          });
          EXPECT_TRUE(someone) << claim;
          ++checked;
        }
      }
      const auto& webhooks = affects(f, "webhooks");
      if (webhooks.empty()) continue;
      std::vector<const AdmissionWebhook*> listed;
      for (const std::string& name : webhooks)
        listed.push_back(webhook_named(ctx, name));
      auto any = [&](auto pred) { return std::any_of(listed.begin(), listed.end(), pred); };
      if (f.check == "webhook-kube-system") {
        AdmissionRequest pod = pod_create_request(ctx.namespaces, "kube-system");
        AdmissionRequest lease = pod;
        lease.operation = "UPDATE";
        lease.api_group = "coordination.k8s.io";
        lease.resource = "leases";
        EXPECT_TRUE(any([&](const AdmissionWebhook* w) {
          return traced(ctx, pod, w) || traced(ctx, lease, w);
        }));
        ++checked;
      } else if (f.check == "webhook-fail-closed" && f.severity == Severity::kCritical) {
        EXPECT_TRUE(
            any([&](const AdmissionWebhook* w) { return creates_pods_through(ctx, w, true); }));
        ++checked;
      } else if (f.check == "webhook-intercepts-shared-resources" &&
                 f.severity == Severity::kHigh) {
        EXPECT_TRUE(any([&](const AdmissionWebhook* w) {
          return w->mutating && creates_pods_through(ctx, w, false);
        }));
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 20u);  // the corpus has claims of every kind above
}

}  // namespace
}  // namespace footprint
