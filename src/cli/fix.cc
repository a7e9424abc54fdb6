#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>

#include "analysis/context.h"
#include "analysis/rbac/rbac.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "report/fix/crds_fix.h"
#include "report/report.h"

namespace footprint {

namespace {

// `text` as one shell word: as it is when it holds nothing a shell interprets, else in single
// quotes. The printed commands are meant to be pasted.
std::string shell_word(const std::string& text) {
  bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("._/:=@%+,-", c);
  });
  if (plain) return text;
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Writes each file into `dir` (all of them or none), or all to stdout when no directory is given,
// refusing to write over an input, and over another existing file unless `force`.
bool write_fixes(const std::vector<OutputFile>& fixes, const std::string& dir,
                 const std::vector<std::string>& inputs, bool force) {
  if (dir.empty()) {
    std::string out;
    for (const OutputFile& f : fixes)
      out += f.text;
    return write_output(out, "");
  }
  std::vector<OutputFile> files = fixes;
  for (OutputFile& f : files) {
    f.path = (std::filesystem::path(dir) / f.path).string();
    if (!check_output(f.path, inputs)) return false;
  }
  if (!force && !check_not_replacing(files)) return false;
  if (!write_files(files)) return false;
  for (const OutputFile& f : files)
    std::fprintf(stderr, "wrote %s\n", f.path.c_str());
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
  bool force = false;
  app.add_flag("--force", force, "Replace a file of that name that exists with other content");
  if (auto code = parse_args(app, argc, argv)) return *code;
  std::optional<Bundle> bundle = load_bundle(bundle_args);
  if (!bundle) return kExitUsage;
  RbacPolicy policy = RbacPolicy::build(*bundle);
  std::string yaml = render_rbac_fix(find_list_watch_traps(*bundle, policy));
  if (yaml.empty()) {
    std::fprintf(stderr, "footprint: no rbac-resourcenames-list-watch trap to fix\n");
    return kExitOk;
  }
  return write_fixes({OutputFile{"rbac-fix.yaml", yaml}}, dir, input_paths(bundle_args, *bundle),
                     force)
             ? kExitOk
             : kExitUsage;
}

// Reads the CA for caBundle from --ca-file or --ca-from-secret; empty when neither is given.
tl::expected<std::string, std::string> read_ca(const std::string& ca_file,
                                               const std::string& secret_file) {
  if (ca_file.empty() && secret_file.empty()) return std::string();
  const std::string& path = ca_file.empty() ? secret_file : ca_file;
  const char* flag = ca_file.empty() ? "--ca-from-secret" : "--ca-file";
  auto text = read_text_file(path, uint64_t{16} << 20);
  if (!text) return tl::unexpected(fmt::format("{} {}: {}", flag, path, text.error()));
  auto pem = ca_file.empty() ? ca_from_secret(*text) : read_ca_pem(*text);
  if (!pem) return tl::unexpected(fmt::format("{} {}: {}", flag, path, pem.error()));
  return *pem;
}

int run_fix_crds(int argc, char** argv) {
  CLI::App app{
      "Rewrite CRDs whose conversion webhook names a missing Service or a wrong port, or has no "
      "CA: whole CRDs as JSON for `kubectl apply --server-side`, or JSON patches.",
      "footprint fix crds"};
  BundleArgs bundle_args;
  add_bundle_options(app, bundle_args);
  std::string service;
  app.add_option("--service", service,
                 "NAMESPACE/NAME of the Service that serves conversion (default: the Service "
                 "footprint suggests)");
  std::string ca_file;
  auto* ca_option = app.add_option("--ca-file", ca_file,
                                   "PEM file with the CA that signed the webhook's "
                                   "certificate, for caBundle");
  std::string secret_file;
  app.add_option("--ca-from-secret", secret_file,
                 "Secret manifest (kubectl get secret NAME -o yaml) whose ca.crt is that CA; no "
                 "other key is read")
      ->excludes(ca_option);
  std::string format = "crds";
  app.add_option("--format", format, "crds (whole CRDs as JSON) or patch (JSON patches)")
      ->check(CLI::IsMember({"crds", "patch"}))
      ->capture_default_str();
  std::string dir;
  app.add_option("-o,--output-dir", dir, "Write one file per CRD into this directory");
  bool force = false;
  app.add_flag("--force", force, "Replace files of those names that exist with other content");
  if (auto code = parse_args(app, argc, argv)) return *code;

  CrdFixOptions options;
  if (!service.empty()) {
    options.service = parse_service_ref(service);
    if (!options.service) {
      print_error(fmt::format("--service {}: expected NAMESPACE/NAME", service));
      return kExitUsage;
    }
  }
  auto ca = read_ca(ca_file, secret_file);
  if (!ca) {
    print_error(ca.error());
    return kExitUsage;
  }
  options.ca_pem = std::move(*ca);
  std::optional<Bundle> bundle = load_bundle(bundle_args);
  if (!bundle) return kExitUsage;
  Context context(*bundle);
  CrdFixPlan plan = plan_crd_fixes(context, options);
  for (const std::string& note : plan.unresolved)
    std::fprintf(stderr, "footprint: not fixed: %s\n", note.c_str());
  if (plan.fixes.empty()) {
    if (plan.unresolved.empty())
      std::fprintf(stderr, "footprint: no CRD conversion webhook to fix\n");
    return plan.unresolved.empty() ? kExitOk : kExitUsage;
  }
  for (const CrdFix& f : plan.fixes) {
    std::fprintf(stderr, "footprint: %s: %s\n", f.crd->name.c_str(),
                 fmt::format("{}", fmt::join(f.changes, "; ")).c_str());
  }

  bool patches = format == "patch";
  std::string commands;
  if (dir.empty()) {
    std::string out;
    for (const CrdFix& f : plan.fixes) {
      // Quoted for the shell: the patch holds values that came from the bundle.
      out += patches ? fmt::format("kubectl patch crd {} --type=json -p {}\n",
                                   shell_word(f.crd->name), shell_word(f.patch))
                     : (out.empty() ? "" : "---\n") + f.fixed;
    }
    if (!write_output(out, "")) return kExitUsage;
    if (!patches) {
      std::fprintf(stderr,
                   "footprint: apply with: kubectl apply --server-side --force-conflicts -f FILE "
                   "(this output saved to FILE, or piped to -f -)\n");
    }
  } else {
    std::vector<std::string> files;
    std::vector<OutputFile> outputs;
    for (const CrdFix& f : plan.fixes) {
      std::string name = f.crd->name + (patches ? ".patch.json" : ".json");
      outputs.push_back(OutputFile{name, patches ? f.patch + "\n" : f.fixed});
    }
    std::vector<std::string> inputs = input_paths(bundle_args, *bundle);
    inputs.insert(inputs.end(), {ca_file, secret_file});
    if (!write_fixes(outputs, dir, inputs, force)) return kExitUsage;
    for (const CrdFix& f : plan.fixes) {
      std::string name = f.crd->name + (patches ? ".patch.json" : ".json");
      std::string path = (std::filesystem::path(dir) / name).string();
      if (patches) {
        commands += fmt::format("kubectl patch crd {} --type=json --patch-file={}\n",
                                shell_word(f.crd->name), shell_word(path));
      }
      files.push_back("-f " + shell_word(path));
    }
    if (!patches) {
      commands =
          fmt::format("kubectl apply --server-side --force-conflicts {}\n", fmt::join(files, " "));
    }
    std::fputs(commands.c_str(), stdout);
  }
  if (!patches) {
    std::fprintf(stderr,
                 "footprint: --force-conflicts takes over the fields an earlier apply (client-side "
                 "or Helm) owns, which is what changing them needs\n");
  }
  return plan.unresolved.empty() ? kExitOk : kExitUsage;
}

struct FixTarget {
  const char* name;
  const char* summary;
  int (*run)(int argc, char** argv);
};

constexpr FixTarget kTargets[] = {
    {"rbac", "Roles and bindings for informers broken by resourceNames", run_fix_rbac},
    {"crds", "CRD conversion webhooks: the Service, its port and caBundle", run_fix_crds},
};

}  // namespace

int run_fix(int argc, char** argv) {
  std::string_view target = argc > 1 ? argv[1] : "";
  if (target == "--version") {
    std::printf("footprint %s\n", FOOTPRINT_VERSION);
    return kExitOk;
  }
  for (const FixTarget& t : kTargets) {
    if (target == t.name) return t.run(argc - 1, argv + 1);
  }
  if (target == "-h" || target == "--help") {
    std::printf("usage: footprint fix TARGET [options] INPUT...\n\ntargets:\n");
    for (const FixTarget& t : kTargets)
      std::printf("  %-6s %s\n", t.name, t.summary);
    return kExitOk;
  }
  print_error(target.empty()
                  ? std::string("fix needs a target: rbac or crds")
                  : fmt::format("unknown fix target '{}'; expected rbac or crds", target));
  return kExitUsage;
}

}  // namespace footprint
