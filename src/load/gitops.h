// GitOps objects as input: an Argo CD Application, a Flux HelmRelease or a Flux Kustomization is
// resolved to what it deploys (a chart rendered by helm, a kustomization built by kustomize, or a
// folder of manifests) in the namespace it deploys to. Git repositories map to local checkouts
// (`--source URL=DIR`); nothing is fetched from Git. Charts in Helm or OCI repositories are pulled
// by helm, as chart references are.
#pragma once

#include <string>
#include <tl/expected.hpp>
#include <utility>
#include <vector>

#include "load/chart_ref.h"
#include "load/loader.h"

namespace footprint {

struct GitopsOptions {
  std::vector<std::pair<std::string, std::string>> sources;  // Git URL -> local checkout
  ChartPullOptions pull;  // --plain-http and --chart-ca-file for charts pulled from repositories
};

// Whether the object is a GitOps object footprint resolves or lists (Application, ApplicationSet,
// AppProject, HelmRelease, Flux Kustomization and the Flux sources they name).
bool is_gitops_object(const RawObject& object);

struct GitopsResult {
  std::vector<NamedText> rendered;  // what the objects deploy, each with its namespace
  std::vector<std::string> notes;   // each GitOps object: what was audited for it, or why not
  std::vector<Skipped> skipped;     // objects not resolved, files left out of folders
  // The delivery paths the objects imply, as --deploy-with names them ("argocd", "flux").
  std::vector<std::string> delivery_paths;
};

// Resolves every GitOps object of `input`. An object that names what cannot be resolved (a Git
// URL without --source, a source object not in the input, a render that fails) is an error
// naming the object.
tl::expected<GitopsResult, std::string> resolve_gitops(const LoadedInput& input,
                                                       const GitopsOptions& options);

// "URL=DIR" of --source, checked: the URL is not empty and DIR is a folder.
tl::expected<std::pair<std::string, std::string>, std::string> parse_source_mapping(
    const std::string& text);

}  // namespace footprint
