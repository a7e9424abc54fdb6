// --cluster SNAPSHOT, for the commands that judge a bundle against an existing cluster.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "model/cluster.h"

namespace footprint {

CLI::Option* add_cluster_option(CLI::App& app, std::string& path);

// Loads the snapshot named by --cluster; prints the errors and returns false when it cannot be
// read. Leaves `cluster` empty when `path` is.
bool load_cluster_option(const std::string& path, unsigned jobs, std::optional<Cluster>& cluster);

}  // namespace footprint
