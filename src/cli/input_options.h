// The options that name inputs footprint renders with real tools beyond local charts:
// kustomizations (-k), charts by reference (--version, --plain-http, --chart-ca-file).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "load/loader.h"

namespace footprint {

struct BundleArgs;

void add_input_options(CLI::App& app, BundleArgs& args);

// Before parsing: `-k DIR` is an input, so INPUT... may be left out when it is given.
void allow_kustomization_only(CLI::App& app, int argc, char** argv);

// Builds the kustomization `input` names (given to `option`, or as an INPUT) and adds its output
// to `rendered`. On failure prints the error (or stores it in `errors`) and returns false.
bool add_kustomization(const std::string& input, std::vector<NamedText>& rendered,
                       std::string* errors, std::string_view option = "");

}  // namespace footprint
