#include <fmt/format.h>

#include <filesystem>

#include "analysis/rbac.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "report/report.h"

namespace footprint {

namespace {

// Writes `text` to DIR/name when a directory is given, else to stdout.
bool write_fix(const std::string& text, const std::string& dir, const std::string& name) {
  if (dir.empty()) return write_output(text, "");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    print_error(fmt::format("cannot create {}: {}", dir, ec.message()));
    return false;
  }
  std::string path = (std::filesystem::path(dir) / name).string();
  if (!write_output(text, path)) return false;
  std::fprintf(stderr, "wrote %s\n", path.c_str());
  return true;
}

int run_fix_rbac(int argc, char** argv) {
  CLI::App app{
      "Write Roles and RoleBindings that repair rbac-resourcenames-list-watch traps: "
      "an unrestricted get, list and watch where a resourceNames rule breaks an "
      "informer.",
      "footprint fix rbac"};
  BundleArgs bundle_args;
  add_bundle_options(app, bundle_args);
  std::string dir;
  app.add_option("-o,--output-dir", dir, "Write rbac-fix.yaml into this directory");
  if (auto code = parse_args(app, argc, argv)) return *code;
  std::optional<Bundle> bundle = load_bundle(bundle_args);
  if (!bundle) return kExitUsage;
  RbacPolicy policy = RbacPolicy::build(*bundle);
  std::string yaml = render_rbac_fix(find_list_watch_traps(*bundle, policy));
  if (yaml.empty()) {
    std::fprintf(stderr, "footprint: no rbac-resourcenames-list-watch trap to fix\n");
    return kExitOk;
  }
  return write_fix(yaml, dir, "rbac-fix.yaml") ? kExitOk : kExitUsage;
}

struct FixTarget {
  const char* name;
  const char* summary;
  int (*run)(int argc, char** argv);
};

constexpr FixTarget kTargets[] = {
    {"rbac", "Roles and bindings for informers broken by resourceNames", run_fix_rbac},
};

}  // namespace

int run_fix(int argc, char** argv) {
  std::string_view target = argc > 1 ? argv[1] : "";
  for (const FixTarget& t : kTargets) {
    if (target == t.name) return t.run(argc - 1, argv + 1);
  }
  if (target == "-h" || target == "--help") {
    std::printf("usage: footprint fix TARGET [options] INPUT...\n\ntargets:\n");
    for (const FixTarget& t : kTargets)
      std::printf("  %-6s %s\n", t.name, t.summary);
    return kExitOk;
  }
  print_error(target.empty() ? std::string("fix needs a target: rbac")
                             : fmt::format("unknown fix target '{}'; expected rbac", target));
  return kExitUsage;
}

}  // namespace footprint
