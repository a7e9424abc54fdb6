// Helm test hooks: objects annotated `helm.sh/hook: test` are created by `helm test`, never by
// installing the chart, yet `helm template` renders them with the rest.
#pragma once

#include "load/loader.h"

namespace footprint {

// Whether Helm runs `object` only as a test: every event of its helm.sh/hook annotation is test
// (or Helm 2's test-success).
bool helm_test_hook(const RawObject& object);

// The note that names a test hook left out of the objects; `file` is the name of its file.
std::string helm_test_note(const RawObject& object, const std::string& file);

}  // namespace footprint
