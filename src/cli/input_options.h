// The options that name inputs footprint renders with real tools beyond local charts:
// kustomizations (-k), charts by reference (--version, --plain-http, --chart-ca-file).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "load/chart_ref.h"
#include "load/loader.h"

namespace footprint {

struct BundleArgs;

void add_input_options(CLI::App& app, BundleArgs& args);

// Before parsing, for a command with chart references among its arguments: helm's `--version V`
// (and `--version=V`) names the chart's version, --chart-version; alone, --version stays
// footprint's own.
void chart_version_arguments(const CLI::App& app, std::vector<std::string>& args);

// Pulls the chart `reference` names into `path`; prints the error (or stores it in `errors`) and
// returns false when helm cannot.
bool pull_reference(const std::string& reference, const ChartPullOptions& options,
                    std::string& path, std::string* errors);

// Replaces the GitOps objects of `loaded` (Argo CD Applications, Flux HelmReleases and
// Kustomizations) by what they deploy, loading `files` and `rendered` again with it, and notes
// each GitOps object. False after printing the error (or storing it in `errors`).
bool expand_gitops(const BundleArgs& args, const std::vector<std::string>& files,
                   const LoadOptions& options, std::vector<NamedText> rendered, LoadedInput& loaded,
                   std::string* errors);

// Before parsing: `-k DIR` is an input, so INPUT... may be left out when it is given.
void allow_kustomization_only(CLI::App& app, int argc, char** argv);

// Builds the kustomization `input` names (given to `option`, or as an INPUT) and adds its output
// to `rendered`. On failure prints the error (or stores it in `errors`) and returns false.
bool add_kustomization(const std::string& input, std::vector<NamedText>& rendered,
                       std::string* errors, std::string_view option = "");

}  // namespace footprint
