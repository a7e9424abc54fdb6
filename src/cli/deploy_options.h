// How the install reaches the cluster: --deploy-with, which `audit` and `diff` share (the delivery
// paths, analysis/models/delivery_paths.h), and audit's --provider (the control plane,
// analysis/models/control_plane.h).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "analysis/models/control_plane.h"
#include "analysis/models/delivery_paths.h"

namespace footprint {

struct DeployArgs {
  std::vector<std::string> names;
  // The paths, each once, in the order given; left out, those `implied` names (the input's
  // GitOps objects: an Argo CD Application, a Flux HelmRelease).
  std::vector<DeliveryPath> paths(const std::vector<std::string>& implied = {}) const;
};

void add_deploy_options(CLI::App& app, DeployArgs& args);

// --provider, one of kAllProviders' names; `provider` keeps its value when the option is left out.
void add_provider_option(CLI::App& app, Provider& provider);

}  // namespace footprint
