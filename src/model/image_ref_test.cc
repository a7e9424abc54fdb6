#include "model/image_ref.h"

#include <gtest/gtest.h>

#include <string>

namespace footprint {
namespace {

// Expected values restate the rules of github.com/distribution/reference: the grammar in
// reference.go and regexp.go, the familiar-name expansion in normalize.go (splitDockerDomain,
// ParseNormalizedNamed, ParseDockerRef), and the cases of reference_test.go and
// normalize_test.go, read through as ParseNormalizedNamed would treat them. Digest checks follow
// opencontainers/go-digest (registered algorithms, exact lowercase-hex length).
struct ExpectedParse {
  std::string input;
  std::string domain;  // empty: a parse error is expected
  std::string path;
  std::string tag;
  std::string digest;
  // A substring of the error, when domain is empty; the braces keep GCC's
  // -Wmissing-field-initializers quiet for the cases that parse.
  std::string error = {};  // NOLINT(readability-redundant-member-init): see above
};

std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i)
    out += s;
  return out;
}

const std::string kHex64 = std::string(64, 'f');
const std::string kSha256 = "sha256:" + kHex64;
const std::string kSha512 = "sha512:" + std::string(128, 'f');

std::vector<ExpectedParse> parse_cases() {
  return {
      // Familiar names: docker.io, and library/ for single components.
      {"ubuntu", "docker.io", "library/ubuntu", "", ""},
      {"redis:latest", "docker.io", "library/redis", "latest", ""},
      {"dmcgowan/myapp", "docker.io", "dmcgowan/myapp", "", ""},
      {"docker.io/ubuntu", "docker.io", "library/ubuntu", "", ""},
      {"docker.io/library/foo/bar", "docker.io", "library/foo/bar", "", ""},
      {"index.docker.io/debian", "docker.io", "library/debian", "", ""},
      {"index.docker.io/docker/docker", "docker.io", "docker/docker", "", ""},
      {"store/foo/bar", "docker.io", "store/foo/bar", "", ""},
      // The first component is a domain only with '.', ':' , "localhost" or an uppercase letter.
      {"test_com/foo", "docker.io", "test_com/foo", "", ""},
      {"test.com/foo", "test.com", "foo", "", ""},
      {"test-com:8080/foo", "test-com:8080", "foo", "", ""},
      {"localhost/foo", "localhost", "foo", "", ""},
      {"localhost:5000/x:tag", "localhost:5000", "x", "tag", ""},
      {"Foo/bar", "Foo", "bar", "", ""},
      {"xn--n3h.com:18080/foo", "xn--n3h.com:18080", "foo", "", ""},
      {"127.0.0.1:5000/private/moonbase", "127.0.0.1:5000", "private/moonbase", "", ""},
      // A single component never holds a domain: "test.com:5000" is a Docker Hub name and a tag.
      {"test.com:5000", "docker.io", "library/test.com", "5000", ""},
      {"192.168.1.1", "docker.io", "library/192.168.1.1", "", ""},
      {"192.168.1.1:5000/repo:5050", "192.168.1.1:5000", "repo", "5050", ""},
      {"foo/foo_bar.com:8080", "docker.io", "foo/foo_bar.com", "8080", ""},
      {"b.gcr.io/test.example.com/my-app:test.example.com", "b.gcr.io", "test.example.com/my-app",
       "test.example.com", ""},
      // IPv6 in brackets, with or without a port.
      {"[2001:db8::1]/repo", "[2001:db8::1]", "repo", "", ""},
      {"[::1]:5000/repo", "[::1]:5000", "repo", "", ""},
      {"[2001:db8::1]:5000/repo:tag@" + kSha256, "[2001:db8::1]:5000", "repo", "tag", kSha256},
      // Tag and digest; the digest wins when both are written.
      {"test:5000/repo@" + kSha256, "test:5000", "repo", "", kSha256},
      {"busybox:latest@" + kSha256, "docker.io", "library/busybox", "latest", kSha256},
      {"xn--7o8h.com/myimage:xn--7o8h.com@" + kSha512, "xn--7o8h.com", "myimage", "xn--7o8h.com",
       kSha512},
      {"lowercase:Uppercase", "docker.io", "library/lowercase", "Uppercase", ""},
      {"sub-dom1.foo.com/bar/baz/quux:some-long-tag", "sub-dom1.foo.com", "bar/baz/quux",
       "some-long-tag", ""},
      {"docker---rules/docker", "docker.io", "docker---rules/docker", "", ""},
      {"dock__er/docker", "docker.io", "dock__er/docker", "", ""},
      {"a/b/c:" + std::string(128, 't'), "docker.io", "a/b/c", std::string(128, 't'), ""},
      // Errors.
      {"", "", "", "", "", "invalid reference format"},
      {":justtag", "", "", "", "", "invalid reference format"},
      {"@" + kSha256, "", "", "", "", "invalid reference format"},
      {"Uppercase:tag", "", "", "", "", "must be lowercase"},
      {"docker/Docker", "", "", "", "", "must be lowercase"},
      {"test:5000/Uppercase/lowercase:tag", "", "", "", "", "must be lowercase"},
      {"repo@sha256:" + std::string(34, 'f'), "", "", "", "", "digest length"},
      {"validname@invaliddigest:" + kHex64, "", "", "", "", "unsupported digest algorithm"},
      {"repo@sha256:" + std::string(64, 'F'), "", "", "", "", "digest format"},
      {"a/b:" + std::string(129, 't'), "", "", "", "", "invalid reference format"},
      {"repo:-tag", "", "", "", "", "invalid reference format"},
      {repeat("a/", 128) + "a:tag", "", "", "", "", "not be more than 255"},
      {kHex64, "", "", "", "", "64-byte hexadecimal"},
      {"https://github.com/docker/docker", "", "", "", "", "invalid reference format"},
      {"-docker/docker", "", "", "", "", "invalid reference format"},
      {"docker-/docker", "", "", "", "", "invalid reference format"},
      {"dock..er/docker", "", "", "", "", "invalid reference format"},
      {"____/____", "", "", "", "", "invalid reference format"},
      {"docker///docker", "", "", "", "", "invalid reference format"},
      {"docker/", "", "", "", "", "invalid reference format"},
      {"aa/asdf$$^/aa", "", "", "", "", "invalid reference format"},
      {"[fc00::1]:5000", "", "", "", "", "invalid reference format"},
      {"fc00::1:5000/debian", "", "", "", "", "invalid reference format"},
      {"[fe80::1%eth0]:5000/debian", "", "", "", "", "invalid reference format"},
      {"[2001:db8:3:4::192.0.2.33]:5000/debian", "", "", "", "", "invalid reference format"},
      {"ko://knative.dev/serving/cmd/queue", "", "", "", "", "invalid reference format"},
  };
}

TEST(ImageRef, DistributionGrammarTable) {
  auto table = parse_cases();
  ASSERT_GE(table.size(), 30u);
  for (const ExpectedParse& c : table) {
    SCOPED_TRACE(c.input);
    auto ref = parse_image_ref(c.input);
    if (c.domain.empty()) {
      ASSERT_FALSE(ref.has_value()) << ref->normalized();
      EXPECT_NE(ref.error().find(c.error), std::string::npos) << ref.error();
      continue;
    }
    ASSERT_TRUE(ref.has_value()) << ref.error();
    EXPECT_EQ(ref->domain, c.domain);
    EXPECT_EQ(ref->path, c.path);
    EXPECT_EQ(ref->tag, c.tag);
    EXPECT_EQ(ref->digest, c.digest);
    EXPECT_EQ(ref->pinned(), !c.digest.empty());
  }
}

// 127 "a/" components plus "a" is exactly 255 characters: the longest path allowed.
TEST(ImageRef, PathOf255CharactersIsTheLimit) {
  std::string path = repeat("a/", 127) + "a";
  ASSERT_EQ(path.size(), 255u);
  EXPECT_TRUE(parse_image_ref("example.com/" + path + ":tag").has_value());
  EXPECT_FALSE(parse_image_ref("example.com/a/" + path + ":tag").has_value());
}

// ParseDockerRef: a digest drops the tag; a bare name gets :latest.
TEST(ImageRef, NormalizedFormIsWhatTheRuntimePulls) {
  EXPECT_EQ(parse_image_ref("ubuntu")->normalized(), "docker.io/library/ubuntu:latest");
  EXPECT_EQ(parse_image_ref("busybox:1.36@" + kSha256)->normalized(),
            "docker.io/library/busybox@" + kSha256);
  EXPECT_EQ(parse_image_ref("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2")->normalized(),
            "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2");
  EXPECT_EQ(parse_image_ref("quay.io/a/b")->effective_tag(), "latest");
}

TEST(ImageRef, RegistryDomainIsDotColonOrLocalhost) {
  EXPECT_TRUE(has_registry_domain("quay.io/prometheus/prometheus:v2"));
  EXPECT_TRUE(has_registry_domain("mirror:5000/x"));
  EXPECT_TRUE(has_registry_domain("localhost/x"));
  EXPECT_FALSE(has_registry_domain("bitnami/redis:7"));
  EXPECT_FALSE(has_registry_domain("nginx:1.25"));
  EXPECT_FALSE(has_registry_domain("127.0.0.1:8080"));
}

TEST(ImageRef, RegistryPrefixNeedsARecognisableHost) {
  auto r = parse_registry_prefix("mirror.internal:5000/team/");
  ASSERT_TRUE(r.has_value()) << r.error();
  EXPECT_EQ(r->domain, "mirror.internal:5000");
  EXPECT_EQ(r->prefix, "team");
  EXPECT_EQ(r->join("library/nginx"), "mirror.internal:5000/team/library/nginx");
  EXPECT_EQ(parse_registry_prefix("localhost:5000")->join("a/b"), "localhost:5000/a/b");
  // "mirror/team/nginx" would be read as docker.io/mirror/team/nginx.
  EXPECT_NE(parse_registry_prefix("mirror/team").error().find("Docker Hub namespace"),
            std::string::npos);
  EXPECT_FALSE(parse_registry_prefix("mirror.internal/Team").has_value());
  EXPECT_FALSE(parse_registry_prefix("https://mirror.internal").has_value());
}

// The reference grammar's port is any digits (distribution/reference: port-number := [0-9]+),
// but a mirror to push to listens on a TCP port, 1 to 65535 (issue 40, trial item N-C16).
TEST(RegistryPrefix, PortOutsideTheTcpRangeIsRefused) {
  for (std::string_view bad : {"mirror.io:0", "mirror.io:99999", "mirror.io:65536", "[::1]:0"}) {
    auto r = parse_registry_prefix(bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_NE(r.error().find("not a TCP port"), std::string::npos) << r.error();
  }
  for (std::string_view good : {"mirror.io:1", "mirror.io:65535", "[::1]:5000", "mirror.io"})
    EXPECT_TRUE(parse_registry_prefix(good).has_value()) << good;
}

// Found by fuzz/fuzz_image_ref (fuzz/regressions/image_ref/): a mirror written as
// index.docker.io joined references that parse back as docker.io, so relocation's own check
// would have called its rewritten references "not rewritten".
TEST(RegistryPrefix, LegacyDockerHubNameIsNormalizedLikeReferences) {
  auto prefix = parse_registry_prefix("index.docker.io/ingress-nginx/controller907d659e1");
  ASSERT_TRUE(prefix.has_value());
  EXPECT_EQ(prefix->domain, "docker.io");
  auto joined = parse_image_ref(prefix->join("library/nginx:1.0"));
  ASSERT_TRUE(joined.has_value());
  EXPECT_EQ(joined->domain, prefix->domain);
  EXPECT_EQ(joined->name(), prefix->join("library/nginx"));
}

// A reference is on the mirror when its host is the mirror's (DNS names compare in any case) and
// its path starts with the whole prefix: team-b/x is not under team.
TEST(RegistryPrefix, HoldsReferencesAlreadyUnderTheHostAndPrefix) {
  auto team = parse_registry_prefix("mirror.internal:5000/team");
  auto host = parse_registry_prefix("mirror.internal:5000");
  ASSERT_TRUE(team.has_value() && host.has_value());
  auto holds = [](const RegistryPrefix& mirror, std::string_view text) {
    auto ref = parse_image_ref(text);
    EXPECT_TRUE(ref.has_value()) << text;
    return ref && mirror.holds(*ref);
  };
  EXPECT_TRUE(holds(*team, "mirror.internal:5000/team/org/tool:1.0"));
  EXPECT_TRUE(holds(*team, "Mirror.Internal:5000/team/already@sha256:" + std::string(64, 'a')));
  EXPECT_FALSE(holds(*team, "mirror.internal:5000/team-b/tool:1.0"));
  EXPECT_FALSE(holds(*team, "mirror.internal:5000/other/team/tool:1.0"));
  EXPECT_FALSE(holds(*team, "mirror.internal:5001/team/tool:1.0"));
  EXPECT_FALSE(holds(*team, "quay.io/team/tool:1.0"));
  EXPECT_TRUE(holds(*host, "mirror.internal:5000/org/tool:1.0"));
  EXPECT_FALSE(holds(*host, "mirror.internal/org/tool:1.0"));
  // Docker Hub's familiar names expand before they are compared.
  auto hub = parse_registry_prefix("docker.io/mirror");
  ASSERT_TRUE(hub.has_value());
  EXPECT_TRUE(holds(*hub, "mirror/nginx:1.25"));
  EXPECT_FALSE(holds(*hub, "nginx:1.25"));
}

}  // namespace
}  // namespace footprint
