// --cluster SNAPSHOT, for the commands that judge a bundle against an existing cluster.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/cluster.h"

namespace footprint {

CLI::Option* add_cluster_option(CLI::App& app, std::string& path);

// Loads the snapshot named by --cluster; prints the errors and returns false when it cannot be
// read. Leaves `cluster` empty when `path` is.
// With `notes`, a warning about the snapshot is also added there, for a report's notes.
bool load_cluster_option(const std::string& path, unsigned jobs, std::optional<Cluster>& cluster,
                         std::vector<std::string>* notes = nullptr);

}  // namespace footprint
