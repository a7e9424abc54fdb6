#include "load/registry.h"

#include <gtest/gtest.h>

#include "load/base64.h"
#include "load/docker_config.h"

namespace footprint {
namespace {

TEST(Registry, DigestOfBytes) {
  // sha256("") and sha256("abc") from FIPS 180-2's test vectors.
  EXPECT_EQ(digest_of(""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(digest_of("abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(digest_of("abc", "sha512").substr(0, 23), "sha512:ddaf35a193617aba");
  EXPECT_EQ(digest_of("abc", "md5"), "");
}

TEST(Registry, AcceptsAllFourManifestTypes) {
  std::string accept = manifest_accept_header();
  for (std::string_view type :
       {kOciIndexType, kOciManifestType, kDockerListType, kDockerManifestType}) {
    EXPECT_NE(accept.find(type), std::string::npos) << type;
  }
}

TEST(Registry, ParsesBearerChallenge) {
  // The form of the Docker token authentication spec, with a comma inside a quoted value.
  auto c =
      parse_challenge(R"(Bearer realm="https://auth.example/token",service="registry.example",)"
                      R"(scope="repository:team/app:pull,push")");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->scheme, "bearer");
  EXPECT_EQ(c->params["realm"], "https://auth.example/token");
  EXPECT_EQ(c->params["service"], "registry.example");
  EXPECT_EQ(c->params["scope"], "repository:team/app:pull,push");
  auto basic = parse_challenge(R"(Basic realm="Registry Realm")");
  ASSERT_TRUE(basic);
  EXPECT_EQ(basic->scheme, "basic");
  EXPECT_EQ(basic->params["realm"], "Registry Realm");
  EXPECT_FALSE(parse_challenge(""));
}

TEST(Registry, IndexSkipsAttestations) {
  auto m = parse_manifest(
      R"({"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[
      {"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:aa","size":10,
       "platform":{"os":"linux","architecture":"amd64"}},
      {"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:bb","size":11,
       "platform":{"os":"linux","architecture":"arm","variant":"v7"}},
      {"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:cc","size":12,
       "platform":{"os":"unknown","architecture":"unknown"},
       "annotations":{"vnd.docker.reference.type":"attestation-manifest"}}]})",
      "");
  ASSERT_TRUE(m) << m.error();
  EXPECT_TRUE(m->is_index);
  ASSERT_EQ(m->entries.size(), 3u);
  EXPECT_EQ(m->entries[0].platform, "linux/amd64");
  EXPECT_EQ(m->entries[1].platform, "linux/arm/v7");
  EXPECT_FALSE(m->entries[0].attestation);
  EXPECT_TRUE(m->entries[2].attestation);
}

TEST(Registry, ManifestBlobs) {
  auto m = parse_manifest(
      R"({"schemaVersion":2,"config":{"digest":"sha256:c","size":100},
      "layers":[{"digest":"sha256:l1","size":1000},{"digest":"sha256:l2","size":20}]})",
      "application/vnd.docker.distribution.manifest.v2+json");
  ASSERT_TRUE(m) << m.error();
  EXPECT_FALSE(m->is_index);
  EXPECT_EQ(m->media_type, "application/vnd.docker.distribution.manifest.v2+json");
  ASSERT_EQ(m->blobs.size(), 3u);
  EXPECT_EQ(m->blobs[0].bytes, 100u);
  EXPECT_EQ(m->blobs[1].digest, "sha256:l1");
  EXPECT_EQ(m->blobs[2].bytes, 20u);
}

TEST(Registry, SchemaOneIsAnError) {
  auto m = parse_manifest(R"({"schemaVersion":1,"name":"x","tag":"1","fsLayers":[]})",
                          "application/vnd.docker.distribution.manifest.v1+prettyjws");
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().find("schema 1"), std::string::npos);
  EXPECT_FALSE(parse_manifest("[]", ""));
  EXPECT_FALSE(parse_manifest(R"({"schemaVersion":2})", ""));
}

// Found by fuzz_registry_manifest (fuzz/regressions/registry_manifest/): a member of the wrong
// type made json::value() throw, which ended the process. The OCI image spec types mediaType,
// platform.os and platform.architecture as strings, so another type is read as absent.
TEST(Registry, MembersOfTheWrongTypeAreReadAsAbsent) {
  const std::string digest = "sha256:" + std::string(64, 'a');
  auto m =
      parse_manifest(R"({"mediaType":4,"schemaVersion":"2","manifests":[{"digest":")" + digest +
                         R"(","mediaType":[],"platform":{"os":1,"architecture":"arm64"},)"
                         R"("annotations":{"vnd.docker.reference.type":{}}}]})",
                     "application/vnd.oci.image.index.v1+json");
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->media_type, "application/vnd.oci.image.index.v1+json");
  ASSERT_EQ(m->entries.size(), 1u);
  EXPECT_EQ(m->entries[0].platform, "/arm64");
  EXPECT_EQ(m->entries[0].media_type, "");
}

TEST(Registry, PlatformMatching) {
  EXPECT_TRUE(platform_matches("linux/amd64", "linux/amd64"));
  EXPECT_FALSE(platform_matches("linux/amd64", "linux/arm64"));
  EXPECT_TRUE(platform_matches("linux/arm", "linux/arm/v7"));
  EXPECT_FALSE(platform_matches("linux/arm/v6", "linux/arm/v7"));
  EXPECT_TRUE(platform_matches("linux/arm64/v8", "linux/arm64"));
  EXPECT_FALSE(platform_matches("linux/amd", "linux/amd64"));
}

TEST(Registry, PinnedReference) {
  RegistryImage image;
  image.target = {"127.0.0.1:5000", "team/app", "1.0", "", "127.0.0.1:5000/team/app:1.0"};
  image.digest = "sha256:abc";
  EXPECT_EQ(image.pinned(), "127.0.0.1:5000/team/app:1.0@sha256:abc");
  image.target.tag.clear();
  EXPECT_EQ(image.pinned(), "127.0.0.1:5000/team/app@sha256:abc");
}

TEST(DockerConfig, HostOfAuthKey) {
  EXPECT_EQ(auth_key_host("https://index.docker.io/v1/"), "docker.io");
  EXPECT_EQ(auth_key_host("registry-1.docker.io"), "docker.io");
  EXPECT_EQ(auth_key_host("https://reg.example:5000/v2/"), "reg.example:5000");
  EXPECT_EQ(auth_key_host("127.0.0.1:5000"), "127.0.0.1:5000");
}

TEST(DockerConfig, ReadsAuthsEntries) {
  CredentialStore store;
  std::string text = R"({"auths":{
    "127.0.0.1:5000":{"auth":")" +
                     base64_encode("alice:s3cret:with:colons") + R"("},
    "https://index.docker.io/v1/":{"username":"bob","password":"hunter22"},
    "only-token.example":{"identitytoken":"xyz"}},
    "credsStore":"desktop"})";
  ASSERT_TRUE(add_auth_file(store, text, "config.json"));
  const RegistryCredential* alice = store.find("127.0.0.1:5000");
  ASSERT_NE(alice, nullptr);
  EXPECT_EQ(alice->username, "alice");
  EXPECT_EQ(alice->password, "s3cret:with:colons");
  EXPECT_EQ(alice->source, "config.json");
  ASSERT_NE(store.find("docker.io"), nullptr);
  EXPECT_EQ(store.find("docker.io")->password, "hunter22");
  EXPECT_EQ(store.find("only-token.example"), nullptr);
  // The first file read wins: REGISTRY_AUTH_FILE is read before ~/.docker/config.json.
  ASSERT_TRUE(add_auth_file(
      store, R"({"auths":{"127.0.0.1:5000":{"auth":")" + base64_encode("eve:other") + R"("}}})",
      "later.json"));
  EXPECT_EQ(store.find("127.0.0.1:5000")->username, "alice");
}

TEST(DockerConfig, ErrorsNeverQuoteSecrets) {
  CredentialStore store;
  // Broken JSON right after a password: nlohmann's own message would quote it.
  auto broken = add_auth_file(store, R"({"auths":{"h":{"password":"TopSecret1" x}}})", "c.json");
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().find("TopSecret1"), std::string::npos) << broken.error();
  auto not_base64 = add_auth_file(store, R"({"auths":{"h":{"auth":"TopSecret2!!"}}})", "c.json");
  ASSERT_FALSE(not_base64);
  EXPECT_EQ(not_base64.error().find("TopSecret2"), std::string::npos) << not_base64.error();
  auto no_colon = add_auth_file(
      store, R"({"auths":{"h":{"auth":")" + base64_encode("TopSecret3") + R"("}}})", "c.json");
  ASSERT_FALSE(no_colon);
  EXPECT_EQ(no_colon.error().find("TopSecret3"), std::string::npos);
  EXPECT_EQ(no_colon.error().find(base64_encode("TopSecret3")), std::string::npos);
}

TEST(Registry, UnreachableRegistryIsAPerImageError) {
  RegistryOptions options;
  options.insecure = {"127.0.0.1:1"};
  options.timeout_ms = 5000;
  options.retries = 0;
  std::vector<RegistryTarget> targets = {
      {"127.0.0.1:1", "a", "1", "", "127.0.0.1:1/a:1"},
      {"127.0.0.1:1", "b", "2", "", "127.0.0.1:1/b:2"},
  };
  std::vector<RegistryImage> images = inspect_images(targets, options);
  ASSERT_EQ(images.size(), 2u);
  for (const RegistryImage& image : images) {
    EXPECT_FALSE(image.ok());
    EXPECT_NE(image.error.find("cannot reach 127.0.0.1:1"), std::string::npos) << image.error;
  }
  EXPECT_EQ(distinct_bytes(images), 0u);
}

}  // namespace
}  // namespace footprint
