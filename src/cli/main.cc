// footprint: what installing a Kubernetes operator or chart does to a shared cluster.
#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"
#include "cli/common.h"
#include "model/names.h"

namespace footprint {
namespace {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(int argc, char** argv);
};

constexpr Command kCommands[] = {
    {"audit", "report the install footprint and findings of manifests", run_audit},
    {"validate", "check custom resources against their CRDs, as the API server does", run_validate},
    {"can-i", "answer whether a subject may make a request, offline", run_can_i},
    {"can-install", "answer whether a subject may install the bundle; print the least grant",
     run_can_install},
    {"who-can", "list every subject that may make a request", run_who_can},
    {"admission", "what-if: which webhooks a request passes, and what their failure costs",
     run_admission},
    {"fix", "write manifests that repair what audit found (rbac, crds, webhooks)", run_fix},
    {"compare", "compare install modes side by side (charts or rendered bundles)", run_compare},
    {"diff", "review an upgrade: what installing NEW over OLD changes in effect", run_diff},
    {"checks", "list every check with its ID and severity", run_checks},
    {"images", "list every image and model the manifests need; relocate them", run_images},
    {"airgap", "the import list for a closed network: images, chart, models, sizes", run_airgap},
    {"hf-cache", "check or fix a Hugging Face cache for offline loading", run_hf_cache},
    {"snapshot-command", "print the kubectl command that snapshots a cluster for --cluster",
     run_snapshot_command},
    {"restarts", "containers whose restart count grew between two pod samples", run_restarts},
};

std::string usage() {
  std::string out =
      "usage: footprint COMMAND [options] [INPUT...]\n\n"
      "What installing a Kubernetes operator or Helm chart does to a shared cluster,\n"
      "found offline before anything is installed.\n\ncommands:\n";
  for (const Command& c : kCommands)
    out += fmt::format("  {:<17} {}\n", c.name, c.summary);
  return out +
         "\nRun `footprint COMMAND --help` for a command's options.\n"
         "Exit codes: 0 success, 1 a finding reached --fail-on, 2 usage or input error.\n";
}

// "unknown command 'x', did you mean 'y'?" for a name that is no command.
int unknown_command(std::string_view name) {
  const Command* closest = nullptr;
  size_t best = 3;  // suggest only near misses
  for (const Command& c : kCommands) {
    size_t d = edit_distance(name, c.name);
    if (d < best) {
      best = d;
      closest = &c;
    }
  }
  std::string message = fmt::format("unknown command '{}'", name);
  if (closest) message += fmt::format(", did you mean '{}'?", closest->name);
  print_error(message);
  print_stderr("Run `footprint --help` for the list of commands.\n");
  return kExitUsage;
}

// `footprint help COMMAND [SUBCOMMAND]` is `footprint COMMAND [SUBCOMMAND] --help`, as in git and
// kubectl.
int run_help(int argc, char** argv) {
  std::string_view name = argv[2];
  for (const Command& c : kCommands) {
    if (name != c.name) continue;
    std::vector<char*> args(argv + 2, argv + argc);
    static char help_flag[] = "--help";
    args.push_back(help_flag);
    return c.run(static_cast<int>(args.size()), args.data());
  }
  return unknown_command(name);
}

int run_main(int argc, char** argv) {
  if (argc < 2) {
    print_stderr(usage());
    return kExitUsage;
  }
  std::string_view name = argv[1];
  if (name == "help" && argc >= 3) return run_help(argc, argv);
  if (name == "-h" || name == "--help" || name == "help") {
    return write_output(usage(), "", Content::kText) ? kExitOk : kExitUsage;
  }
  if (name == "--version" || name == "version") {
    return write_output(version_line() + "\n", "", Content::kText) ? kExitOk : kExitUsage;
  }
  for (const Command& c : kCommands) {
    if (name == c.name) return c.run(argc - 1, argv + 1);
  }
  return unknown_command(name);
}

}  // namespace
}  // namespace footprint

int main(int argc, char** argv) {
  return footprint::run_main(argc, argv);
}
