// A check: a stable ID, the worst severity it reports, a one-line description, and a function
// over the whole bundle (checks may relate objects to each other).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "analysis/crds.h"
#include "analysis/finding.h"
#include "analysis/images.h"
#include "analysis/rbac.h"
#include "model/admission.h"
#include "model/namespaces.h"
#include "model/object.h"
#include "model/rbac.h"

namespace footprint {

struct ImageSizes;

// What every check reads: the bundle and the models derived from it, built once.
struct Context {
  // `namespaces` is the set blast radius is measured against; empty means
  // default_namespaces(bundle). `expectations` come from --expect.
  explicit Context(const Bundle& bundle, std::vector<ClusterNamespace> namespaces = {},
                   std::vector<Expectation> expectations = {});
  // Only the bundle and its images: all that the checks of the airgap area read, for the images
  // and airgap commands.
  struct ImagesOnly {};
  Context(const Bundle& bundle, ImagesOnly);
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const Bundle& bundle;
  RbacPolicy rbac;
  Admission admission;
  std::vector<ClusterNamespace> namespaces;
  std::vector<Expectation> expectations;
  std::vector<ObjectSize> sizes;  // object_sizes(bundle), for the size checks and the report
  ImageInventory images;          // discover_images(bundle)
  // Registry sizes of the bundle's images, when a command has them; image-very-large needs them.
  const ImageSizes* image_sizes = nullptr;
};

struct Check {
  std::string_view id;  // kebab-case, stable: users suppress and filter by it
  Severity severity;    // the most severe level it reports
  std::string_view area;
  std::string_view description;
  void (*run)(const Context& context, Findings& out);
};

// Every check, in the order of check_list.inc.
std::span<const Check* const> all_checks();
const Check* find_check(std::string_view id);

}  // namespace footprint
