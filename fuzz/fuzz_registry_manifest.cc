// libFuzzer harness: what a registry answers: manifests and indexes (OCI and Docker media
// types, with and without a Content-Type) and WWW-Authenticate challenges.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "load/registry.h"

using namespace footprint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (std::string_view content_type : {"", "application/vnd.oci.image.index.v1+json",
                                        "application/vnd.docker.distribution.manifest.v2+json"}) {
    if (auto m = parse_manifest(bytes, content_type)) {
      for (const ParsedManifest::Entry& e : m->entries)
        platform_matches("linux/arm64", e.platform);
    }
  }
  parse_challenge(bytes);
  return 0;
}
