#include "load/olm_image_layers.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

namespace footprint {
namespace {

// A layer entry: a file (`data`), or a symlink or hard link (`link`), as tar writes it.
// The braces keep GCC's -Wmissing-field-initializers quiet for {path, data}.
struct TarEntry {
  std::string path;
  std::string data;
  std::string link = {};  // NOLINT(readability-redundant-member-init): for {path, data}
  bool hardlink = false;
};

// A ustar archive written by libarchive, as a layer of an image would be.
std::string make_tar(const std::vector<TarEntry>& entries) {
  std::string out;
  archive* a = archive_write_new();
  archive_write_set_format_pax_restricted(a);
  archive_write_set_bytes_in_last_block(a, 1);
  archive_write_open(
      a, &out, nullptr,
      [](archive*, void* sink, const void* buffer, size_t length) -> la_ssize_t {
        static_cast<std::string*>(sink)->append(static_cast<const char*>(buffer), length);
        return static_cast<la_ssize_t>(length);
      },
      nullptr);
  for (const TarEntry& e : entries) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, e.path.c_str());
    archive_entry_set_perm(entry, 0644);
    if (e.hardlink) {
      archive_entry_set_filetype(entry, AE_IFREG);
      archive_entry_set_hardlink(entry, e.link.c_str());
    } else if (!e.link.empty()) {
      archive_entry_set_filetype(entry, AE_IFLNK);
      archive_entry_set_symlink(entry, e.link.c_str());
    } else {
      archive_entry_set_filetype(entry, AE_IFREG);
      archive_entry_set_size(entry, static_cast<la_int64_t>(e.data.size()));
    }
    archive_write_header(a, entry);
    if (!e.data.empty()) archive_write_data(a, e.data.data(), e.data.size());
    archive_entry_free(entry);
  }
  archive_write_close(a);
  archive_write_free(a);
  return out;
}

using Files = std::vector<std::pair<std::string, std::string>>;

Files files_of(const std::vector<std::vector<TarEntry>>& layers) {
  BundleLayers applied;
  for (const auto& layer : layers) {
    auto r = applied.apply(make_tar(layer));
    EXPECT_TRUE(r.has_value()) << r.error();
  }
  auto files = applied.files();
  EXPECT_TRUE(files.has_value()) << files.error();
  return files ? *files : Files{};
}

std::string files_error(const std::vector<TarEntry>& layer) {
  BundleLayers applied;
  if (auto r = applied.apply(make_tar(layer)); !r) return r.error();
  auto files = applied.files();
  return files ? "" : files.error();
}

// The OCI image spec, layer.md: "Whiteouts": `.wh.NAME` removes NAME of the layers below;
// `.wh..wh..opq` removes every sibling of the layers below; the layer's own entries stay.
TEST(BundleLayers, WhiteoutsHideOnlyTheLayersBelow) {
  Files files = files_of({
      {{"manifests/a.yaml", "a1"}, {"manifests/b.yaml", "b"}, {"metadata/x.yaml", "x"}},
      {{"manifests/.wh.b.yaml", ""},
       {"metadata/.wh..wh..opq", ""},
       {"metadata/annotations.yaml", "new"},
       {"manifests/a.yaml", "a2"}},
  });
  EXPECT_EQ(files, (Files{{"manifests/a.yaml", "a2"}, {"metadata/annotations.yaml", "new"}}));
}

TEST(BundleLayers, AWhiteoutOfAFolderRemovesItsTree) {
  Files files =
      files_of({{{"manifests/a.yaml", "a"}, {"metadata/y.yaml", "y"}}, {{".wh.manifests", ""}}});
  EXPECT_EQ(files, (Files{{"metadata/y.yaml", "y"}}));
}

// Only manifests/ and metadata/ are kept; "./" and "/" prefixes mean the root, as in docker's
// tars.
TEST(BundleLayers, KeepsOnlyWhatOlmReads) {
  Files files =
      files_of({{{"./manifests/a.yaml", "a"}, {"/metadata/m.yaml", "m"}, {"etc/x", "x"}}});
  EXPECT_EQ(files, (Files{{"manifests/a.yaml", "a"}, {"metadata/m.yaml", "m"}}));
}

TEST(BundleLayers, LinksResolveInsideTheBundle) {
  Files files = files_of({{{"manifests/a.yaml", "a"},
                           {"manifests/b.yaml", "", "a.yaml"},
                           {"metadata/c.yaml", "", "../manifests/a.yaml"},
                           {"metadata/d.yaml", "", "manifests/a.yaml", true}}});
  EXPECT_EQ(files, (Files{{"manifests/a.yaml", "a"},
                          {"manifests/b.yaml", "a"},
                          {"metadata/c.yaml", "a"},
                          {"metadata/d.yaml", "a"}}));
}

TEST(BundleLayers, LinksOutOfTheBundleAreErrors) {
  EXPECT_EQ(files_error({{"manifests/a.yaml", "", "/etc/passwd"}}),
            "manifests/a.yaml is a link to /etc/passwd, which is not a file under manifests/ or "
            "metadata/ of the image");
  EXPECT_EQ(files_error({{"manifests/a.yaml", "", "../../../etc/passwd"}}),
            "manifests/a.yaml is a symlink to ../../../etc/passwd, which leads out of the image");
  EXPECT_EQ(files_error({{"manifests", "", "/elsewhere"}}),
            "manifests is a link to /elsewhere, which is not a file under manifests/ or metadata/ "
            "of the image");
  EXPECT_EQ(files_error({{"manifests/a.yaml", "", "b.yaml"}, {"manifests/b.yaml", "", "a.yaml"}}),
            "manifests/a.yaml: more than 8 links in a row");
}

TEST(BundleLayers, EntriesClimbingOutAreErrors) {
  EXPECT_EQ(files_error({{"etc/../../x", "x"}}),
            "entry etc/../../x climbs out of the image's root");
  EXPECT_EQ(files_error({{"manifests/a.yaml", "", "../../x", true}}),
            "hard link manifests/a.yaml climbs out of the image's root");
}

TEST(BundleLayers, DecompressionStopsAtTheLimit) {
  std::string tar = make_tar({{"manifests/a.yaml", std::string(100000, 'a')}});
  auto whole = decompress_layer(tar, LayerCompression::kNone, 1000);
  ASSERT_FALSE(whole.has_value());
  EXPECT_EQ(whole.error(),
            "unpacks to more than 1000 bytes (the limit for a bundle image's layers together)");
  EXPECT_EQ(decompress_layer(tar, LayerCompression::kGzip, 1 << 20).error(),
            "its media type says compressed, but it is not");
}

// The OCI image spec's media-types.md names the layer types.
TEST(BundleLayers, CompressionFromTheMediaType) {
  EXPECT_EQ(layer_compression("application/vnd.oci.image.layer.v1.tar"), LayerCompression::kNone);
  EXPECT_EQ(layer_compression("application/vnd.oci.image.layer.v1.tar+gzip"),
            LayerCompression::kGzip);
  EXPECT_EQ(layer_compression("application/vnd.oci.image.layer.v1.tar+zstd"),
            LayerCompression::kZstd);
  EXPECT_EQ(layer_compression("application/vnd.docker.image.rootfs.diff.tar.gzip"),
            LayerCompression::kGzip);
  EXPECT_EQ(layer_compression("application/vnd.oci.image.config.v1+json").error(),
            "media type application/vnd.oci.image.config.v1+json is not a tar layer");
}

}  // namespace
}  // namespace footprint
