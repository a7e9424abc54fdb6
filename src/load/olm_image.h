// An OLM bundle image on disk: an OCI image layout directory (`oci-layout`, `index.json`,
// `blobs/sha256/...`), or a `docker save` tarball (`manifest.json` and the layer tars, or an OCI
// layout inside the tar, as docker 25 and later write). The image is picked, every blob read is
// checked against its digest, and the layers are applied in memory (olm_image_layers.h) to give
// the bundle's manifests/ and metadata/ files, which are then read as a bundle folder's are.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tl/expected.hpp>
#include <utility>
#include <vector>

namespace footprint {

// An OCI layout directory (it has `oci-layout`), or a tar file (a tar header at the start).
bool is_olm_image(const std::string& path);

struct OlmImageLimits {
  uint64_t max_read_bytes = uint64_t{256} << 20;      // the tarball, or the blobs read
  uint64_t max_unpacked_bytes = uint64_t{256} << 20;  // the layers decompressed, together
};

struct OlmImage {
  std::string input;   // as given
  std::string format;  // "OCI image layout" or "docker save tarball"
  std::string name;    // the image picked: its ref name or tag, else its digest
  std::string digest;  // of its manifest (OCI), or of its config (docker's manifest.json)
  size_t layers = 0;
  std::map<std::string, std::string> labels;  // the image config's Labels
  // The regular files under manifests/ and metadata/ ("manifests/x.yaml"), sorted.
  std::vector<std::pair<std::string, std::string>> files;
};

// Reads the image at `path`. `image` (--image) picks one of several images by its ref name, tag
// or digest; with one image it may be empty. Errors name the file and what is wrong.
tl::expected<OlmImage, std::string> read_olm_image(const std::string& path,
                                                   const std::string& image,
                                                   const OlmImageLimits& limits = {});

// Where the image config's operators.operatorframework.io.bundle.* labels and
// metadata/annotations.yaml's annotations disagree, one sentence each.
std::vector<std::string> label_disagreements(const OlmImage& image,
                                             const std::map<std::string, std::string>& annotations);

}  // namespace footprint
