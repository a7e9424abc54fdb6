// footprint: what installing a Kubernetes operator or chart does to a shared cluster.
#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "cli/commands.h"
#include "cli/common.h"

namespace footprint {
namespace {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(int argc, char** argv);
};

constexpr Command kCommands[] = {
    {"audit", "report the install footprint and findings of manifests", run_audit},
    {"checks", "list every check with its ID and severity", run_checks},
    {"images", "list every image and model the manifests need; relocate them", run_images},
    {"airgap", "the import list for a closed network: images, chart, models, sizes", run_airgap},
    {"hf-cache", "check or fix a Hugging Face cache for offline loading", run_hf_cache},
};

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

void print_usage(std::FILE* out) {
  std::fprintf(out,
               "usage: footprint COMMAND [options] [INPUT...]\n\n"
               "What installing a Kubernetes operator or Helm chart does to a shared cluster,\n"
               "found offline before anything is installed.\n\ncommands:\n");
  for (const Command& c : kCommands)
    std::fprintf(out, "  %-10s %s\n", c.name, c.summary);
  std::fprintf(out,
               "\nRun `footprint COMMAND --help` for a command's options.\n"
               "Exit codes: 0 success, 1 a finding reached --fail-on, 2 usage or input error.\n");
}

int run_main(int argc, char** argv) {
  if (argc < 2) {
    print_usage(stderr);
    return kExitUsage;
  }
  std::string_view name = argv[1];
  if (name == "-h" || name == "--help" || name == "help") {
    print_usage(stdout);
    return kExitOk;
  }
  if (name == "--version" || name == "version") {
    std::printf("footprint %s\n", FOOTPRINT_VERSION);
    return kExitOk;
  }
  for (const Command& c : kCommands) {
    if (name == c.name) return c.run(argc - 1, argv + 1);
  }
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
  std::fprintf(stderr, "Run `footprint --help` for the list of commands.\n");
  return kExitUsage;
}

}  // namespace
}  // namespace footprint

int main(int argc, char** argv) {
  return footprint::run_main(argc, argv);
}
