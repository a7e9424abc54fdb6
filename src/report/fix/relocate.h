// Relocation: rewrites every discovered image reference to a private registry, in the original
// text, so formatting and comments survive; and the skopeo plan that fills that registry.
#pragma once

#include <string>
#include <tl/expected.hpp>
#include <vector>

#include "analysis/models/images.h"
#include "model/image_ref.h"
#include "model/object.h"

namespace footprint {

struct RelocateOptions {
  RegistryPrefix registry;
  // Also rewrite what only reads as an image (see moves_by_default).
  bool include_possible = false;
};

struct ImageCopy {
  std::string source;       // what `skopeo copy` reads, e.g. "nvcr.io/nvidia/x:1.6.2"
  std::string destination;  // e.g. "mirror.internal:5000/nvidia/x:1.6.2"
};

struct Relocation {
  std::vector<std::string> texts;            // per input file, rewritten, with Secrets left out
  std::vector<std::string> omitted_secrets;  // "Secret ns/name (file:line)", and look-alikes
  std::vector<ImageCopy> copies;             // unique, in order of first use
  size_t rewritten = 0;                      // references rewritten
  // References left as they were, "file:line path: reference": strings that only read as images,
  std::vector<std::string> left_unchanged;
  // and references already under the mirror's host and prefix (RegistryPrefix::holds).
  std::vector<std::string> already_on_mirror;
};

// Whether relocation rewrites a use without --include-possible: the same decision as the image
// list, the air-gap list and the image checks (Confidence), so the mirror and the manifests agree.
bool moves_by_default(const ImageUse& use);

// The reference a relocated use points at: the mirror's host and prefix, then the original path,
// tag and digest as written.
std::string relocated_reference(const ImageRef& ref, const RegistryPrefix& registry);

// `bundle.input.texts` must hold the files' texts. Fails when a reference to move still holds a
// Helm template or is not valid, when two images would land on the same mirror repository, or
// when a reference cannot be found verbatim in its scalar.
tl::expected<Relocation, std::string> relocate(const Bundle& bundle, const ImageInventory& images,
                                               const RelocateOptions& options);

// The copy plan as a POSIX shell script: one `skopeo copy --all` line per image.
std::string copy_plan_script(const std::vector<ImageCopy>& copies);

}  // namespace footprint
