// libFuzzer harness: the YAML parser and the loader on one input, whole and in small chunks.
// Everything the loader returns must point inside the input and carry a position.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "load/loader.h"

using namespace footprint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  LoadOptions options;
  options.jobs = 1;
  options.limits.max_alias_expansion = 100'000;  // keeps each run fast; the limit itself is tested
  auto loaded = load_texts({NamedText{"fuzz.yaml", text}}, options);
  if (!loaded) {
    for (const LoadError& e : loaded.error()) {
      if (e.file != "fuzz.yaml" || e.message.empty()) std::abort();
    }
    return 0;
  }
  for (const RawObject& o : loaded->objects) {
    if (o.begin_offset > o.end_offset || o.end_offset > size || o.position.line == 0) std::abort();
    if (!o.node.is_mapping()) std::abort();
  }
  return 0;
}
