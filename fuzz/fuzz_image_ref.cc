// libFuzzer harness: image references and registry prefixes. A reference that parses must
// parse again from its normalized form to the same image.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "model/image_ref.h"

using namespace footprint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto ref = parse_image_ref(text);
  if (ref) {
    auto again = parse_image_ref(ref->normalized());
    if (!again || again->normalized() != ref->normalized()) std::abort();
    if (ref->pinned() && !is_digest(ref->digest)) std::abort();
  }
  // Short enough that the joined name stays under the grammar's 255-character limit.
  if (auto prefix = parse_registry_prefix(text); prefix && size < 200) {
    auto joined = parse_image_ref(prefix->join("library/nginx:1.0"));
    if (!joined || joined->domain != prefix->domain) std::abort();
  }
  has_registry_domain(text);
  return 0;
}
