// The layers of a bundle image applied in order, as a container runtime unpacks them (the OCI
// image spec's layer.md: `.wh.NAME` deletes NAME from the layers below, `.wh..wh..opq` empties its
// directory of them), keeping only what OLM reads, manifests/ and metadata/, in memory: nothing is
// written to disk, so no entry can land outside the image's root or over a user's file.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <utility>
#include <vector>

namespace footprint {

enum class LayerCompression : uint8_t { kNone, kGzip, kZstd, kDetect };

// The compression a layer media type names (OCI image-spec media-types.md, and Docker's
// rootfs.diff.tar.gzip); an error for a media type that is not a tar layer.
tl::expected<LayerCompression, std::string> layer_compression(std::string_view media_type);

// "sha256:<hex>" of `bytes`.
std::string sha256_digest(std::string_view bytes);

// Decompresses a blob. Past `max_bytes` with the `before` bytes of the layers below, it stops
// with an error: a small blob must not unpack to an unbounded size.
tl::expected<std::string, std::string> decompress_layer(std::string_view blob,
                                                        LayerCompression compression,
                                                        uint64_t max_bytes, uint64_t before = 0);

class BundleLayers {
 public:
  // Applies one uncompressed layer tar over the layers applied before it. An entry whose path
  // climbs out of the root (`..`) is an error, wherever it is in the layer.
  tl::expected<void, std::string> apply(std::string_view tar);

  // The regular files under manifests/ and metadata/ ("manifests/x.yaml"), sorted; a symlink or
  // hard link among them is read as its target when that is one of them, and is an error
  // otherwise (it would lead out of what the image holds there).
  tl::expected<std::vector<std::pair<std::string, std::string>>, std::string> files() const;

 private:
  struct Entry {
    enum class Kind : uint8_t { kFile, kDirectory, kSymlink, kHardlink };
    Kind kind = Kind::kFile;
    std::string data;  // a file's bytes, or a link's target
  };
  void remove_tree(const std::string& path);
  tl::expected<std::string, std::string> resolve(const std::string& path) const;
  std::map<std::string, Entry> entries_;
};

}  // namespace footprint
