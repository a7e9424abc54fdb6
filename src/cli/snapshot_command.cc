// footprint snapshot-command: the kubectl command whose output --cluster reads.
#include "cli/commands.h"
#include "cli/common.h"
#include "model/cluster.h"

namespace footprint {

int run_snapshot_command(int argc, char** argv) {
  CLI::App app{"Print the kubectl command that collects the cluster snapshot --cluster reads.",
               "footprint snapshot-command"};
  if (auto code = parse_args(app, argc, argv)) return *code;
  return write_output(snapshot_command() + "\n", "", Content::kText) ? kExitOk : kExitUsage;
}

}  // namespace footprint
