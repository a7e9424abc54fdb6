// Restart counts sampled twice, on tests/data/cluster/pods-{before,after}.yaml. Counted by hand:
// the operator's manager went 150 -> 161 (+11, CrashLoopBackOff, last exit 1), web-1's app
// 2 -> 3 (+1, last OOMKilled 137), api-0 unchanged; job-x only before, job-y only after, and
// db-0 was recreated (new metadata.uid: restartCount belongs to the pod object, so a new pod
// starts again from 0 and is not compared).
#include "analysis/commands/restarts.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace footprint {
namespace {

std::vector<ContainerSample> samples(const std::string& name) {
  std::string path = FOOTPRINT_SOURCE_DIR;
  path += "/tests/data/cluster/";
  path += name;
  auto loaded = load_inputs({path}, LoadOptions{});
  EXPECT_TRUE(loaded.has_value());
  auto read = read_pod_samples(*loaded);
  EXPECT_TRUE(read.has_value());
  return read ? *read : std::vector<ContainerSample>{};
}

TEST(Restarts, GrowthWorstFirstAndPodsApart) {
  RestartComparison c = compare_restarts(samples("pods-before.yaml"), samples("pods-after.yaml"));
  ASSERT_EQ(c.grew.size(), 2u);
  EXPECT_EQ(c.grew[0].after.pod, "operator-7d9f");
  EXPECT_EQ(c.grew[0].increase(), 11);
  EXPECT_EQ(c.grew[0].after.state, "CrashLoopBackOff");
  EXPECT_EQ(c.grew[0].after.last_reason, "Error");
  EXPECT_EQ(c.grew[0].after.last_exit_code, "1");
  EXPECT_EQ(c.grew[1].after.pod, "web-1");
  EXPECT_EQ(c.grew[1].increase(), 1);
  EXPECT_EQ(c.grew[1].after.last_reason, "OOMKilled");
  // web-1, operator, api-0's init container and app.
  EXPECT_EQ(c.compared, 4u);
  ASSERT_EQ(c.only_before.size(), 2u);
  EXPECT_EQ(c.only_before[0].pod, "job-x");
  EXPECT_EQ(c.only_before[1].pod, "db-0");
  ASSERT_EQ(c.only_after.size(), 2u);
  EXPECT_EQ(c.only_after[0].pod, "job-y");
  EXPECT_EQ(c.only_after[1].pod, "db-0");
  EXPECT_TRUE(c.shrank.empty());
  // Swapped, the two counts that grew go down: the samples are in the wrong order.
  RestartComparison swapped =
      compare_restarts(samples("pods-after.yaml"), samples("pods-before.yaml"));
  EXPECT_TRUE(swapped.grew.empty());
  EXPECT_EQ(swapped.shrank.size(), 2u);
}

TEST(Restarts, OtherKindsAreErrors) {
  auto loaded = load_texts({{"x.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n"}},
                           LoadOptions{});
  ASSERT_TRUE(loaded.has_value());
  auto read = read_pod_samples(*loaded);
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().front().to_string(),
            "x.yaml:1:1: expected Pod objects (kubectl get pods -A -o yaml), found Service");
}

std::string pod_with_count(std::string_view count, std::string_view uid = "u1") {
  return fmt::format(R"(apiVersion: v1
kind: Pod
metadata: {{name: p, namespace: ns{}}}
status:
  containerStatuses:
  - name: app
    restartCount: {}
)",
                     uid.empty() ? "" : fmt::format(", uid: {}", uid), count);
}

tl::expected<std::vector<ContainerSample>, std::vector<LoadError>> read(std::string_view text) {
  auto loaded = load_texts({{"p.yaml", std::string(text)}}, LoadOptions{});
  EXPECT_TRUE(loaded.has_value());
  return read_pod_samples(*loaded);
}

// ContainerStatus.restartCount is an int32 (k8s.io/api/core/v1 types.go) the kubelet counts up
// from 0; kubectl reads YAML 1.1 (go-yaml v2), where 0x10 is the integer 16 and "3" a string.
// Anything else is no count, and reading it as 0 would hide a crash loop.
TEST(Restarts, ARestartCountThatIsNoInt32CountIsAnErrorAtItsLine) {
  for (std::string_view bad :
       {"\"3\"", "1.5", "99999999999999999999", "2147483648", "[1]", "-5", "{n: 1}"}) {
    auto samples = read(pod_with_count(bad));
    ASSERT_FALSE(samples.has_value()) << bad;
    EXPECT_EQ(samples.error().front().position.line, 7u) << bad;
    EXPECT_NE(samples.error().front().message.find("restartCount"), std::string::npos);
  }
  for (auto [good, value] : {std::pair<std::string_view, int64_t>{"3", 3},
                             {"0x10", 16},
                             {"2147483647", 2147483647},
                             {"0", 0}}) {
    auto samples = read(pod_with_count(good));
    ASSERT_TRUE(samples.has_value()) << good;
    EXPECT_EQ(samples->front().restarts, value) << good;
  }
}

// Without metadata.uid a pod recreated under the same name (a StatefulSet's web-0) looks like the
// same pod whose count went down: no proof of swapped samples, so it is listed apart. With uids,
// the same pod's count going down still means the samples are swapped.
TEST(Restarts, ACountThatWentDownWithoutUidIsARecreatedPodNotSwappedSamples) {
  RestartComparison c =
      compare_restarts(*read(pod_with_count("7", "")), *read(pod_with_count("0", "")));
  EXPECT_TRUE(c.shrank.empty());
  ASSERT_EQ(c.lowered_without_uid.size(), 1u);
  EXPECT_EQ(c.lowered_without_uid[0].before.restarts, 7);
  EXPECT_EQ(c.lowered_without_uid[0].after.restarts, 0);
  RestartComparison same = compare_restarts(*read(pod_with_count("7")), *read(pod_with_count("0")));
  EXPECT_EQ(same.shrank.size(), 1u);
  EXPECT_TRUE(same.lowered_without_uid.empty());
}

}  // namespace
}  // namespace footprint
