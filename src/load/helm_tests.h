// Helm test hooks: objects annotated `helm.sh/hook: test` are created by `helm test`, never by
// installing the chart, yet `helm template` renders them with the rest.
#pragma once

#include "load/loader.h"

namespace footprint {

// Whether Helm runs `object` only as a test: every event of its helm.sh/hook annotation is test
// (or Helm 2's test-success).
bool helm_test_hook(const RawObject& object);

// Removes the test hooks from `input.objects`, each named in one note of `input.notes`.
void set_aside_helm_tests(LoadedInput& input);

}  // namespace footprint
