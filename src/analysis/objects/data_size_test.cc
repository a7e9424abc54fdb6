// config-data-too-large against Kubernetes' MaxSecretSize = 1 * 1024 * 1024
// (pkg/apis/core/types.go), which ValidateSecret and ValidateConfigMap
// (pkg/apis/core/validation/validation.go) compare with the sum of len(value): over data and
// binaryData for a ConfigMap, over data after stringData is merged into it for a Secret; []byte
// values count decoded.
#include <string>

#include "analysis/check_testing.h"
#include "analysis/models/crd_models.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

constexpr size_t kMiB = 1'048'576;

std::string config_map(size_t value_bytes) {
  return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big, namespace: app}\ndata:\n  a: " +
         std::string(value_bytes, 'x') + "\n  b: xy\n";
}

TEST(ConfigDataTooLarge, ConfigMapOverMaxSecretSizeCannotBeStored) {
  // a (kMiB - 1 bytes) + b (2 bytes) = kMiB + 1: one byte over.
  auto findings = run_check(bundle_from(config_map(kMiB - 1)), "config-data-too-large");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("1,048,577 bytes"), std::string::npos);
  EXPECT_NE(findings[0].message.find("cannot be stored at all"), std::string::npos);
  EXPECT_NE(findings[0].message.find("neither server-side apply"), std::string::npos);
  EXPECT_EQ(findings[0].position.line, 5u);  // the data mapping
  // Exactly MaxSecretSize is allowed (the API server rejects totalSize > MaxSecretSize).
  EXPECT_TRUE(run_check(bundle_from(config_map(kMiB - 2)), "config-data-too-large").empty());
}

TEST(ConfigDataTooLarge, SecretCountsDecodedDataAndStringDataReplacingData) {
  // 4 base64 characters decode to 3 bytes: 4 * (kMiB / 3 + 1) characters are 3 * (kMiB / 3 + 1)
  // = kMiB + 2 bytes, over; stringData's `a` replaces data's `a` when both are given.
  std::string b64(4 * (kMiB / 3 + 1), 'Q');
  std::string secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: app}\n" +
                       std::string("data:\n  a: ") + b64 + "\n";
  auto over = run_check(bundle_from(secret), "config-data-too-large");
  ASSERT_EQ(over.size(), 1u);
  EXPECT_NE(over[0].message.find("1,048,578 bytes"), std::string::npos);
  EXPECT_NE(over[0].message.find("data: Too long"), std::string::npos);
  // Its base64 text alone is 1,398,104 bytes: the check counts what is stored, not the text.
  EXPECT_TRUE(
      run_check(bundle_from(secret + "stringData: {a: short}\n"), "config-data-too-large").empty());
  // Over the limit, the size checks that suggest server-side apply or etcd settings stay quiet:
  // neither would help.
  std::string big = config_map(kMiB * 3 / 2);
  EXPECT_EQ(run_check(bundle_from(big), "config-data-too-large").size(), 1u);
  EXPECT_TRUE(run_check(bundle_from(big), "crd-too-large-for-client-side-apply").empty());
  EXPECT_TRUE(run_check(bundle_from(big), "crd-etcd-size-limit").empty());
}

TEST(ConfigDataTooLarge, OtherKindsHaveNoDataSize) {
  Bundle b = bundle_from(
      "apiVersion: example.com/v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}\n");
  EXPECT_FALSE(object_sizes(b)[0].data_bytes);
}

}  // namespace
}  // namespace footprint
