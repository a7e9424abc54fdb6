// A check: a stable ID, the worst severity it reports, a one-line description, and a function
// over the whole bundle (checks may relate objects to each other).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "analysis/finding.h"
#include "model/object.h"

namespace footprint {

struct ImageSizes;

// What every check can read. Derived models (RBAC, webhooks...) are built once and added here.
struct Context {
  const Bundle& bundle;
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
