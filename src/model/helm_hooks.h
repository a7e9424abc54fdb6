// Helm hooks by phase: which objects installing a release creates, and which Helm creates only at
// an upgrade, a rollback or an uninstall (helm.sh/hook; Helm's "Chart Hooks" documentation and
// pkg/release/hook.go list the events).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/object.h"

namespace footprint {

// The events of the object's helm.sh/hook annotation ("pre-upgrade", "post-delete"), as written
// and trimmed; empty when it is no hook.
std::vector<std::string> helm_hook_events(const Object& obj);

// Installing the release creates the object: it is no hook, or a pre-install or post-install
// one.
bool created_at_install(const Object& obj);

// For a hook that installing does not run, its events joined ("pre-upgrade, pre-rollback"); empty
// for every other object.
std::string later_hook_phases(const Object& obj);

}  // namespace footprint
