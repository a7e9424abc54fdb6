#include "report/fix/crds_fix.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "analysis/check_testing.h"
#include "load/base64.h"
#include "model/names.h"
#include "report/section.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

struct TestCa {
  std::string certificate;
  std::string key;
};

// A self-signed CA made for the test, so that no key material is committed.
TestCa make_ca() {
  TestCa out;
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* cert = X509_new();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), 0);
  X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("footprint test CA"), -1, -1,
                             0);
  X509_set_issuer_name(cert, name);
  X509_set_pubkey(cert, key);
  X509_sign(cert, key, EVP_sha256());
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(bio, cert);
  char* data = nullptr;
  long n = BIO_get_mem_data(bio, &data);
  out.certificate.assign(data, static_cast<size_t>(n));
  BIO_free(bio);
  bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
  n = BIO_get_mem_data(bio, &data);
  out.key.assign(data, static_cast<size_t>(n));
  BIO_free(bio);
  X509_free(cert);
  EVP_PKEY_free(key);
  return out;
}

TEST(ReadCaPem, AcceptsCertificatesOnly) {
  TestCa ca = make_ca();
  auto one = read_ca_pem("# the webhook CA\n" + ca.certificate);
  ASSERT_TRUE(one) << one.error();
  EXPECT_EQ(*one, ca.certificate);  // re-encoded, the comment dropped
  TestCa other = make_ca();
  auto two = read_ca_pem(ca.certificate + other.certificate);
  ASSERT_TRUE(two);
  EXPECT_EQ(*two, ca.certificate + other.certificate);

  EXPECT_EQ(read_ca_pem("").error(), "no PEM certificate (-----BEGIN CERTIFICATE-----) in it");
  EXPECT_EQ(read_ca_pem(ca.certificate + ca.key).error(),
            "it holds a private key; give only the CA certificate (caBundle is public)");
  std::string broken = ca.certificate;
  broken[broken.size() / 2] = '*';
  EXPECT_EQ(read_ca_pem(broken).error(), "certificate 1 is not a valid PEM X.509 certificate");
  EXPECT_EQ(read_ca_pem(ca.certificate + broken).error(),
            "certificate 2 is not a valid PEM X.509 certificate");
}

// Secret.data and stringData are map[string][]byte and map[string]string (k8s.io/api/core/v1):
// a list or a mapping under ca.crt is a wrong type, named as one (trial item Cosmetic 6).
TEST(CaFromSecret, AListOrMappingIsNamedAsTheWrongType) {
  auto list =
      ca_from_secret("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {ca.crt: [x]}\n");
  ASSERT_FALSE(list.has_value());
  EXPECT_EQ(list.error(), "data.ca.crt is a list, not a string: a Secret's values are strings");
  auto map = ca_from_secret(
      "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {ca.crt: {a: b}}\n");
  ASSERT_FALSE(map.has_value());
  EXPECT_EQ(map.error(),
            "stringData.ca.crt is a mapping, not a string: a Secret's values are strings");
}

TEST(CaFromSecret, ReadsOnlyCaCrt) {
  TestCa ca = make_ca();
  std::string key = base64_encode(ca.key);
  std::string secret = fmt::format(
      "apiVersion: v1\nkind: Secret\nmetadata: {{name: webhook-server-cert}}\ntype: "
      "kubernetes.io/tls\ndata:\n  ca.crt: {}\n  tls.crt: {}\n  tls.key: {}\n",
      base64_encode(ca.certificate), base64_encode(ca.certificate), key);
  auto pem = ca_from_secret(secret);
  ASSERT_TRUE(pem) << pem.error();
  EXPECT_EQ(*pem, ca.certificate);

  std::string string_data = fmt::format(
      "apiVersion: v1\nkind: Secret\nmetadata: {{name: s}}\nstringData:\n  ca.crt: |\n{}", [&] {
        std::string indented;
        size_t start = 0;
        while (start < ca.certificate.size()) {
          size_t end = ca.certificate.find('\n', start);
          indented += "    " + ca.certificate.substr(start, end - start + 1);
          start = end + 1;
        }
        return indented;
      }());
  ASSERT_TRUE(ca_from_secret(string_data));

  // Errors name ca.crt and never show another key or any value.
  std::string no_ca = fmt::format(
      "apiVersion: v1\nkind: Secret\nmetadata: {{name: s}}\ndata: {{tls.key: {}}}\n", key);
  auto missing = ca_from_secret(no_ca);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error(), "the Secret has no ca.crt key");
  std::string wrong = fmt::format(
      "apiVersion: v1\nkind: Secret\nmetadata: {{name: s}}\ndata: {{ca.crt: {}, tls.key: {}}}\n",
      key, key);
  auto refused = ca_from_secret(wrong);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error(),
            "ca.crt: it holds a private key; give only the CA certificate (caBundle is public)");
  EXPECT_EQ(ca_from_secret("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n").error(),
            "no Secret in it");
}

TEST(ParseServiceRef, NamespaceSlashName) {
  auto ref = parse_service_ref("dynamo-cloud/webhook");
  ASSERT_TRUE(ref);
  EXPECT_EQ(ref->namespace_, "dynamo-cloud");
  EXPECT_EQ(ref->name, "webhook");
  for (const char* bad : {"webhook", "/webhook", "ns/", "a/b/c"})
    EXPECT_FALSE(parse_service_ref(bad)) << bad;
}

// The seed's case: the CRD names dynamo-system/dynamo-operator-webhook-service and has no CA;
// the chart creates <release>-dynamo-operator-webhook-service in the release namespace.
constexpr const char* kSeed = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: graphs.dynamo.example.com}
spec:
  group: dynamo.example.com
  names: {kind: Graph, plural: graphs}
  scope: Namespaced
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig:
        service: {namespace: dynamo-system, name: dynamo-operator-webhook-service, path: /convert}
  versions:
  - {name: v1alpha1, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
  - {name: v1beta1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
---
apiVersion: v1
kind: Service
metadata: {name: dynamo-platform-dynamo-operator-webhook-service}
spec:
  ports: [{port: 443, targetPort: 9443}]
)";

TEST(PlanCrdFixes, ServiceAndCaPatches) {
  Bundle b = bundle_from(kSeed, "dynamo-cloud");
  TestCa ca = make_ca();
  CrdFixOptions options;
  options.ca_pem = *read_ca_pem(ca.certificate);
  CrdFixPlan plan = plan_crd_fixes(Context(b), options);
  ASSERT_EQ(plan.fixes.size(), 1u);
  EXPECT_TRUE(plan.unresolved.empty());
  const CrdFix& fix = plan.fixes[0];
  std::vector<std::string> changes = {
      "conversion webhook Service dynamo-system/dynamo-operator-webhook-service:443 -> "
      "dynamo-cloud/dynamo-platform-dynamo-operator-webhook-service:443",
      fmt::format("caBundle set from the CA ({} bytes of PEM)", ca.certificate.size())};
  EXPECT_EQ(fix.changes, changes);
  std::string base = "/spec/conversion/webhook/clientConfig";
  Json expected = Json::array(
      {{{"op", "replace"}, {"path", base + "/service/namespace"}, {"value", "dynamo-cloud"}},
       {{"op", "replace"},
        {"path", base + "/service/name"},
        {"value", "dynamo-platform-dynamo-operator-webhook-service"}},
       {{"op", "add"}, {"path", base + "/caBundle"}, {"value", base64_encode(ca.certificate)}}});
  EXPECT_EQ(Json::parse(fix.patch), expected);

  // Bundle + fixed CRD: the later definition replaces the first, and nothing is left to fix.
  Bundle fixed = bundle_from(std::string(kSeed) + "---\n" + fix.fixed, "dynamo-cloud");
  for (const char* check : {"crd-conversion-service-missing", "crd-conversion-port-mismatch",
                            "crd-conversion-ca-not-injected"}) {
    EXPECT_TRUE(run_check(fixed, check).empty()) << check;
  }
  EXPECT_TRUE(plan_crd_fixes(Context(fixed), options).fixes.empty());
}

TEST(PlanCrdFixes, ExplicitServiceAndMissingCa) {
  Bundle b = bundle_from(std::string(kSeed) +
                             "---\napiVersion: v1\nkind: Service\nmetadata: {name: hooks, "
                             "namespace: ops}\nspec: {ports: [{port: 9443}]}\n",
                         "dynamo-cloud");
  CrdFixOptions options;
  options.service = ServiceRef{"ops", "hooks"};
  CrdFixPlan plan = plan_crd_fixes(Context(b), options);
  ASSERT_EQ(plan.fixes.size(), 1u);
  EXPECT_EQ(plan.fixes[0].changes.front(),
            "conversion webhook Service dynamo-system/dynamo-operator-webhook-service:443 -> "
            "ops/hooks:9443");
  EXPECT_NE(
      plan.fixes[0].patch.find(
          R"({"op":"add","path":"/spec/conversion/webhook/clientConfig/service/port","value":9443})"),
      std::string::npos);
  ASSERT_EQ(plan.unresolved.size(), 1u);
  EXPECT_EQ(plan.unresolved[0],
            "graphs.dynamo.example.com: its conversion webhook has no CA and nothing injects "
            "one; give --ca-file or --ca-from-secret");
}

// The CRD's name becomes a file name under -o DIR and a kubectl argument, so only a name the API
// server accepts (a DNS-1123 subdomain, apimachinery's IsDNS1123Subdomain) is fixed: a bundle
// naming its CRD "../../x" cannot write outside DIR. A Webhook strategy without clientConfig
// has nothing to patch (the API server requires it), and is refused rather than half-patched.
TEST(PlanCrdFixes, RefusesNamesAndShapesItCannotFixSafely) {
  CrdFixOptions options;
  options.ca_pem = make_ca().certificate;
  std::string traversal = kSeed;
  traversal.replace(traversal.find("graphs.dynamo.example.com"), 25, "../../tmp/pwned");
  // The loader already refuses such a CRD as an invalid document (the API server would), so no
  // fix is planned for it and nothing is written under its name.
  Bundle bad_name = bundle_from(traversal, "dynamo-cloud");
  ASSERT_EQ(bad_name.input.invalid_documents.size(), 1u);
  CrdFixPlan plan = plan_crd_fixes(Context(bad_name), options);
  EXPECT_TRUE(plan.fixes.empty());
  std::string no_client = kSeed;
  size_t at = no_client.find("      clientConfig:");
  no_client.erase(at, no_client.find("  versions:") - at);
  Bundle shapeless = bundle_from(no_client, "dynamo-cloud");
  plan = plan_crd_fixes(Context(shapeless), options);
  EXPECT_TRUE(plan.fixes.empty());
  ASSERT_EQ(plan.unresolved.size(), 1u) << no_client;
  EXPECT_NE(plan.unresolved[0].find("no webhook.clientConfig"), std::string::npos);
  EXPECT_TRUE(is_dns1123_subdomain("graphs.dynamo.example.com"));
  EXPECT_FALSE(is_dns1123_subdomain("../../tmp/pwned"));
  EXPECT_FALSE(is_dns1123_subdomain("w$(touch x).example.com"));
  EXPECT_FALSE(is_dns1123_subdomain("a..b"));
}

}  // namespace
}  // namespace footprint
