// A check: a stable ID, the worst severity it reports, a one-line description, and a function
// over the whole bundle (checks may relate objects to each other).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "analysis/crds.h"
#include "analysis/finding.h"
#include "analysis/rbac.h"
#include "model/object.h"
#include "model/rbac.h"

namespace footprint {

// What every check can read. Derived models are built once, before any check runs.
struct Context {
  const Bundle& bundle;
  const RbacPolicy& rbac;
  const std::vector<Expectation>& expectations;  // from --expect; usually empty
  // object_sizes(bundle), which several checks and the report need; computed on demand when null.
  const std::vector<ObjectSize>* sizes = nullptr;
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
