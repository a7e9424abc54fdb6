#include "cli/cluster_option.h"

#include <fmt/format.h>

#include <cstdio>

#include "cli/commands.h"
#include "cli/common.h"

namespace footprint {

CLI::Option* add_cluster_option(CLI::App& app, std::string& path) {
  return app.add_option("--cluster", path,
                        "A snapshot of the cluster to install into (the output of `footprint "
                        "snapshot-command`): its namespaces, CRDs, webhooks and RBAC");
}

bool load_cluster_option(const std::string& path, unsigned jobs, std::optional<Cluster>& cluster,
                         std::vector<std::string>* notes) {
  if (path.empty()) return true;
  auto loaded = load_cluster(path, jobs);
  if (!loaded) {
    print_load_errors(loaded.error());
    print_hint("--cluster reads the output of: " + snapshot_command());
    return false;
  }
  cluster = std::move(*loaded);
  if (cluster->objects.of_kind("", "Namespace").empty()) {
    std::string warning = fmt::format(
        "--cluster {} holds no Namespace objects, so the blast radius cannot be "
        "computed from the snapshot: using the namespaces footprint assumes without "
        "--cluster (kube-system, default, the install's own and one other team's). "
        "Take the snapshot again with: {}",
        path, snapshot_command());
    print_stderr("footprint: warning: " + warning + "\n");
    if (notes) notes->push_back(std::move(warning));
  }
  return true;
}

int run_snapshot_command(int argc, char** argv) {
  CLI::App app{"Print the kubectl command that collects the cluster snapshot --cluster reads.",
               "footprint snapshot-command"};
  if (auto code = parse_args(app, argc, argv)) return *code;
  return write_output(snapshot_command() + "\n", "", Content::kText) ? kExitOk : kExitUsage;
}

}  // namespace footprint
