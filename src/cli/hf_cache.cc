#include "report/fix/hf_cache.h"

#include <fmt/format.h>

#include <filesystem>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/section.h"
#include "util/strings.h"

namespace footprint {

namespace {

Json report_json(const HfModelReport& r) {
  Json j = {{"id", r.id},
            {"ref", r.ref},
            {"folder", r.folder},
            {"commit", r.commit},
            {"resolves", r.resolves()},
            {"snapshots", r.snapshots},
            {"problems", r.problems},
            {"warnings", r.warnings},
            {"readOnly", r.read_only},
            {"fixed", r.fixed}};
  if (r.repair) {
    j["repair"] = {
        {"path", r.repair->path}, {"commit", r.repair->commit}, {"reason", r.repair->reason}};
  }
  if (!r.alternative.empty()) j["alternative"] = r.alternative;
  return j;
}

// A cache without models may be one level off: HF_HOME (whose hub/ is the cache) or one model's
// folder. huggingface_hub would find nothing there either, so say where the models are.
void hint_cache_one_level_off(const std::string& root) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path path(root);
  std::string name = path.filename().string();
  if (name.empty()) name = path.parent_path().filename().string();
  if (fs::is_directory(path / "hub", ec)) {
    print_hint(fmt::format("{} has a hub/ folder, the hub cache under HF_HOME: pass --cache {}",
                           root, (path / "hub").string()));
  } else if (name.starts_with("models--")) {
    print_hint(fmt::format("{} is one model's folder: pass the folder that holds it, --cache {}",
                           root, fs::weakly_canonical(path, ec).parent_path().string()));
  }
}

// `cache` is the --cache option as given ("" when none), for the commands printed.
std::string report_text(const HfModelReport& r, bool fixing, const std::string& cache,
                        const ReportOptions& options) {
  std::string out;
  size_t width = options.width;
  if (r.resolves()) {
    std::string how = r.ref.empty()
                          ? fmt::format("snapshots/{} (by commit; no ref names it)", r.commit)
                          : fmt::format("refs/{} -> {}", r.ref, r.commit);
    out +=
        fmt::format("{}: {}: {}{}\n", r.id, paint(options.color, kGood, "resolves offline"), how,
                    r.fixed && r.repair ? fmt::format(" (fixed: wrote {})", r.repair->path) : "");
  } else {
    out += fmt::format("{}: {}\n", r.id, paint(options.color, kBad, "does not resolve offline"));
  }
  if (!r.resolves() && r.fixed && r.repair) {
    // The repair was made; what follows is what it could not repair.
    out +=
        wrap_text(fmt::format("fixed: wrote {} ({})", r.repair->path, r.repair->commit), 2, width);
  }
  for (const std::string& p : r.problems)
    out += wrap_text("problem: " + p, 2, width);
  for (const std::string& w : r.warnings)
    out += wrap_text("warning: " + w, 2, width);
  if (!r.resolves()) {
    if (r.repair && !fixing) {
      // With the commit named, the command writes this repair even when several snapshots or a
      // --revision other than refs/main's are in play.
      out += wrap_text(
          fmt::format("fix: {}: {} (`footprint hf-cache fix{} --revision {} {}` writes it)",
                      r.repair->reason, r.repair->commit,
                      cache.empty() ? "" : " --cache " + shell_word(cache), r.repair->commit,
                      r.repair->ref == "main" ? r.id : r.id + "@" + r.repair->ref),
          2, width);
    }
    if (!r.alternative.empty()) out += wrap_text(r.alternative, 2, width);
  }
  return out;
}

}  // namespace

int run_hf_cache(int argc, char** argv) {
  std::string action = argc >= 2 ? argv[1] : "";
  if (action == "--version") {
    return write_output(version_line() + "\n", "", Content::kText) ? kExitOk : kExitUsage;
  }
  bool help = action == "-h" || action == "--help";
  if (action != "check" && action != "fix") {
    std::string usage =
        "usage: footprint hf-cache check|fix [--cache DIR] [--revision COMMIT] "
        "[--format text|json] [--color WHEN] [MODEL[@REVISION]]...\n\n"
        "check: does each model resolve offline from the Hugging Face cache?\n"
        "fix:   write the missing or malformed refs/<ref> atomically; blobs are never touched.\n";
    if (!help) {
      if (!action.empty()) {
        print_error(fmt::format("\"{}\" is not an hf-cache command: check or fix", action));
      }
      print_stderr(usage);
      return kExitUsage;
    }
    return write_output(usage, "", Content::kText) ? kExitOk : kExitUsage;
  }
  bool fixing = action == "fix";
  CLI::App app{fixing ? "Write missing or malformed refs so each model resolves offline. Blobs "
                        "are never touched; several snapshots need --revision."
                      : "Say whether each model resolves offline from the Hugging Face cache, "
                        "and why not.",
               fmt::format("footprint hf-cache {}", action)};
  std::vector<std::string> model_args;
  app.add_option("models", model_args,
                 "Models as org/name or org/name@revision (default: every model in the cache)");
  std::string cache;
  app.add_option("--cache", cache,
                 "The hub cache directory (default: resolved from HF_HUB_CACHE, "
                 "HUGGINGFACE_HUB_CACHE, HF_HOME, XDG_CACHE_HOME as huggingface_hub does)");
  std::string revision;
  app.add_option("--revision", revision,
                 "The commit refs should name, when several snapshots are cached");
  Format format = Format::kText;
  add_format_option(app, format, kTextOrJson);
  ColorOption color;
  add_color_option(app, color);
  if (auto code = parse_args(app, argc - 1, argv + 1)) return *code;
  ReportOptions text = text_options(color, "");

  if (!revision.empty() && !is_commit_hash(revision)) {
    print_error(fmt::format("--revision {}: expected a 40-hex commit hash", revision));
    return kExitUsage;
  }
  std::vector<HfModelSpec> models;
  for (const std::string& m : model_args) {
    auto spec = parse_hf_model_spec(m);
    if (!spec) {
      print_error(spec.error());
      return kExitUsage;
    }
    models.push_back(std::move(*spec));
  }
  HfEnvironment env = HfEnvironment::current();
  HfCacheRoot root = cache.empty() ? hf_cache_root(env) : HfCacheRoot{cache, "--cache"};
  std::error_code ec;
  if (!std::filesystem::is_directory(root.path, ec)) {
    print_error(fmt::format("{}: no such cache directory (from {})", root.path, root.source));
    return kExitUsage;
  }
  HfOffline offline = hf_offline(env);
  HfCheckOptions options{root.path, revision};
  std::vector<HfModelReport> reports = check_hf_cache(models, options);
  if (fixing) fix_hf_cache(reports, options);

  if (reports.empty()) hint_cache_one_level_off(root.path);
  bool all = std::all_of(reports.begin(), reports.end(),
                         [](const HfModelReport& r) { return r.resolves(); });
  std::string out;
  if (format == Format::kJson) {
    Json j = {{"cache", root.path},
              {"cacheFrom", root.source},
              {"offline", offline.on},
              {"offlineFrom", offline.variable},
              {"models", Json::array()}};
    for (const HfModelReport& r : reports)
      j["models"].push_back(report_json(r));
    out = dump_json(j, 2) + "\n";
  } else {
    out += fmt::format("Hugging Face cache: {} (from {})\n", root.path, root.source);
    out += offline.on ? fmt::format("Offline mode: on ({}={})\n", offline.variable, offline.value)
                      : wrap_text(
                            "Offline mode: off. Set HF_HUB_OFFLINE=1 on the workers so loading "
                            "never waits on the network, which an air-gapped cluster does not "
                            "have.",
                            0, text.width);
    if (reports.empty()) out += "No models in the cache.\n";
    for (const HfModelReport& r : reports)
      out += "\n" + report_text(r, fixing, cache, text);
  }
  if (!write_output(out, "", content_of(format))) return kExitUsage;
  return all ? kExitOk : kExitFindings;
}

}  // namespace footprint
