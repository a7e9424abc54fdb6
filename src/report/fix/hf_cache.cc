#include "report/fix/hf_cache.h"

#include <fmt/format.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/units.h"
#include "util/files.h"
#include "util/strings.h"

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX, not in a header

namespace footprint {

namespace fs = std::filesystem;

namespace {

// os.path.expanduser: a leading ~ or ~user.
std::string expand_user(const std::string& path, const HfEnvironment& env) {
  if (!path.starts_with('~')) return path;
  size_t slash = path.find('/');
  std::string user = path.substr(1, slash == std::string::npos ? std::string::npos : slash - 1);
  std::string home = env.home;
  if (!user.empty()) {
    struct passwd* pw = getpwnam(user.c_str());
    if (pw == nullptr) return path;
    home = pw->pw_dir;
  }
  if (home.empty()) return path;
  return slash == std::string::npos ? home : home + path.substr(slash);
}

// os.path.expandvars: $NAME and ${NAME} that are set are replaced; others stay as written.
std::string expand_vars(const std::string& path, const HfEnvironment& env) {
  std::string out;
  size_t i = 0;
  while (i < path.size()) {
    if (path[i] != '$') {
      out += path[i++];
      continue;
    }
    size_t start = i + 1;
    size_t end = start;
    bool braced = start < path.size() && path[start] == '{';
    if (braced) {
      end = path.find('}', start);
      if (end == std::string::npos) {
        out += path.substr(i);
        break;
      }
    } else {
      while (end < path.size() &&
             (std::isalnum(static_cast<unsigned char>(path[end])) || path[end] == '_'))
        ++end;
    }
    std::string name =
        braced ? path.substr(start + 1, end - start - 1) : path.substr(start, end - start);
    size_t next = braced ? end + 1 : end;
    const std::string* value = name.empty() ? nullptr : env.get(name);
    out += value ? *value : path.substr(i, next - i);
    i = next;
  }
  return out;
}

std::string expand(const std::string& path, const HfEnvironment& env) {
  return expand_vars(expand_user(path, env), env);
}

std::string join(const std::string& a, const std::string& b) {
  return (fs::path(a) / b).string();
}

std::string folder_name(const std::string& id) {
  std::string out = "models--" + id;
  for (size_t pos = out.find('/'); pos != std::string::npos; pos = out.find('/', pos))
    out.replace(pos, 1, "--");
  return out;
}

std::string id_of_folder(const std::string& folder) {
  std::string id = folder.substr(std::string("models--").size());
  size_t sep = id.find("--");
  if (sep != std::string::npos) id.replace(sep, 2, "/");
  return id;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string visible(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += c;
    }
  }
  return out;
}

// A folder without write bits counts as read-only even for root, who could write it anyway:
// someone made it read-only on purpose, as for a cache mounted into workers.
bool writable(const fs::path& dir) {
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0 || (st.st_mode & 0222) == 0) return false;
  return access(dir.c_str(), W_OK) == 0;
}

// Every file of a snapshot must be a symlink that resolves to a blob of the same repository.
void check_snapshot(const fs::path& folder, const std::string& commit, HfModelReport& r) {
  fs::path snapshot = folder / "snapshots" / commit;
  std::error_code ec;
  fs::path blobs = fs::weakly_canonical(folder / "blobs", ec);
  size_t files = 0;
  size_t copies = 0;
  for (auto it = fs::recursive_directory_iterator(snapshot, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path& p = it->path();
    // The link's own path (lexically: relative() would resolve the link), and errors of one file
    // kept apart from the iteration's.
    std::string rel = p.lexically_relative(folder).generic_string();
    std::error_code file_ec;
    if (it->is_symlink(file_ec)) {
      ++files;
      fs::path target = fs::read_symlink(p, file_ec);
      bool exists = fs::exists(p, file_ec);
      if (file_ec.value() == ELOOP) {
        r.problems.push_back(fmt::format(
            "{} is a symlink loop (through {}), so loading this file fails. Download the model "
            "again; footprint never touches blobs.",
            rel, target.generic_string()));
        continue;
      }
      fs::path resolved = fs::weakly_canonical(p.parent_path() / target, file_ec);
      if (!exists) {
        r.problems.push_back(fmt::format(
            "{} is a dangling symlink to {}: the blob is missing, so loading this file fails. "
            "Download the model again; footprint never touches blobs.",
            rel, target.generic_string()));
      } else if (!resolved.string().starts_with(blobs.string() + "/")) {
        r.warnings.push_back(
            fmt::format("{} points outside blobs/ (to {}); it loads, but the "
                        "cache no longer holds the file itself.",
                        rel, resolved.string()));
      }
    } else if (it->is_regular_file(file_ec)) {
      ++files;
      ++copies;
    }
  }
  if (copies) {
    r.warnings.push_back(fmt::format(
        "{} of {} in snapshots/{} are copies, not symlinks into blobs/ (the degraded "
        "layout without symlink support); they load, but take their full size per snapshot.",
        copies, count_of(files, "file"), commit));
  }
  if (files == 0) {
    r.problems.push_back(fmt::format("snapshots/{} holds no files.", commit));
  }
}

// The ref that names `commit`, main first, then the others in name order; "" when none does.
// Loading by commit reads no ref, so this is what the report can truly say about refs.
std::string ref_naming(const fs::path& folder, const std::string& commit) {
  std::vector<std::string> names;
  std::error_code ec;
  for (auto it = fs::directory_iterator(folder / "refs", ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    std::error_code file_ec;
    if (it->is_regular_file(file_ec) && trim(read_file(it->path())) == commit) {
      names.push_back(it->path().filename().string());
    }
  }
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    return std::pair(a != "main", a) < std::pair(b != "main", b);
  });
  return names.empty() ? "" : names.front();
}

HfModelReport check_model(const HfModelSpec& spec, const HfCheckOptions& options) {
  HfModelReport r;
  r.id = spec.id;
  bool by_hash = is_commit_hash(spec.revision);
  r.ref = spec.revision.empty() || by_hash ? "main" : spec.revision;
  fs::path folder = fs::path(options.root) / folder_name(spec.id);
  r.folder = folder.string();
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    r.problems.push_back(
        fmt::format("{} is not in the cache ({} does not exist).", spec.id, r.folder));
    return r;
  }
  for (auto it = fs::directory_iterator(folder / "snapshots", ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (is_commit_hash(name) && it->is_directory()) r.snapshots.push_back(name);
  }
  std::sort(r.snapshots.begin(), r.snapshots.end());
  r.read_only =
      !writable(folder) || (fs::is_directory(folder / "refs", ec) && !writable(folder / "refs"));
  if (r.read_only) {
    r.warnings.emplace_back(
        "The cache folder is read-only. Loading still works (a worker may log a Permission "
        "denied warning while it tries to write a cache index file), but fix cannot write refs "
        "here.");
  }
  auto has_snapshot = [&](const std::string& commit) {
    return std::find(r.snapshots.begin(), r.snapshots.end(), commit) != r.snapshots.end();
  };
  // The commit the user named, by --revision or MODEL@<hash>.
  std::string chosen = by_hash ? spec.revision : options.revision;
  if (!chosen.empty() && !has_snapshot(chosen)) {
    r.problems.push_back(fmt::format("snapshots/{} is not in the cache.", chosen));
    chosen.clear();
  }
  // A commit hash needs no refs: huggingface_hub reads snapshots/<commit> directly
  // (try_to_load_from_cache resolves refs only for a revision that is not a commit hash).
  if (by_hash && !chosen.empty()) {
    r.commit = chosen;
    r.ref = ref_naming(folder, chosen);
    std::string main_commit(trim(read_file(folder / "refs" / "main")));
    if (r.ref != "main" && is_commit_hash(main_commit)) {
      r.warnings.push_back(
          fmt::format("refs/main names {}, not the requested {}: `--model {}` without "
                      "--revision loads a different snapshot.",
                      main_commit, chosen, spec.id));
    }
    check_snapshot(folder, chosen, r);
    return r;
  }
  std::string single = r.snapshots.size() == 1 ? r.snapshots.front() : "";
  auto offer = [&](const std::string& reason) {
    std::string commit = chosen.empty() ? single : chosen;
    if (commit.empty()) return;
    r.repair = HfRepair{r.ref, commit, (fs::path("refs") / r.ref).generic_string(), reason};
  };
  auto alternative = [&](const std::string& commit) {
    // A snapshot with a missing blob or a loop fails however it is named: loading it without
    // refs is no way out, so it is not offered.
    HfModelReport scratch;
    check_snapshot(folder, commit, scratch);
    if (!scratch.problems.empty()) return;
    r.alternative = fmt::format(
        "Or load it without refs: pass --revision {} (and --tokenizer-revision {}) with "
        "--model {}, or pass the snapshot directory itself: --model {}",
        commit, commit, spec.id, (folder / "snapshots" / commit).string());
  };

  // How a worker loads the model by this ref: with --revision when the ref is not main.
  std::string load = r.ref == "main" ? spec.id : fmt::format("{} --revision {}", spec.id, r.ref);
  fs::path ref_path = folder / "refs" / r.ref;
  if (!fs::is_regular_file(ref_path, ec)) {
    std::string why =
        r.snapshots.size() == 1
            ? fmt::format(
                  "downloaded with revision={}, so refs/{} was never written; "
                  "`--model {}` cannot resolve offline",
                  r.snapshots.front(), r.ref, load)
            : fmt::format("refs/{} does not exist, so `--model {}` cannot resolve offline", r.ref,
                          load);
    r.problems.push_back(why + ".");
    if (r.snapshots.size() > 1 && chosen.empty()) {
      r.problems.push_back(fmt::format(
          "{} snapshots are cached ({}); fix will not guess which one refs/{} should name. "
          "Give --revision <commit>.",
          r.snapshots.size(), fmt::join(r.snapshots, ", "), r.ref));
    }
    if (r.snapshots.empty()) r.problems.emplace_back("No snapshot is cached: download the model.");
    offer(fmt::format("write refs/{} with the pinned snapshot's commit", r.ref));
    std::string target = chosen.empty() ? single : chosen;
    if (!target.empty()) alternative(target);
    if (by_hash && has_snapshot(spec.revision)) {
      // Loading by hash works; only the name needs the ref.
      r.commit = spec.revision;
      check_snapshot(folder, spec.revision, r);
    }
    return r;
  }

  std::string content = read_file(ref_path);
  std::string commit(trim(content));
  if (commit != content) {
    r.problems.push_back(fmt::format(
        "refs/{} holds \"{}\": the whitespace after the commit makes versions of huggingface_hub "
        "that read the file without stripping it look for snapshots/{}, which does not exist.",
        r.ref, visible(content), visible(content)));
    if (is_commit_hash(commit) && chosen.empty()) chosen = commit;
    offer(fmt::format("rewrite refs/{} without the whitespace", r.ref));
  }
  if (!is_commit_hash(commit)) {
    r.problems.push_back(
        fmt::format("refs/{} holds \"{}\", not a 40-hex commit.", r.ref, visible(commit)));
    if (r.snapshots.size() > 1 && chosen.empty()) {
      r.problems.push_back(fmt::format(
          "{} snapshots are cached; give --revision <commit> to choose one.", r.snapshots.size()));
    }
    offer(fmt::format("replace refs/{} with the snapshot's commit", r.ref));
    return r;
  }
  r.commit = commit;
  if (!has_snapshot(commit)) {
    r.problems.push_back(fmt::format(
        "refs/{} names commit {}, but snapshots/{} is not in the cache.", r.ref, commit, commit));
    if (!options.revision.empty()) offer(fmt::format("point refs/{} at the given revision", r.ref));
    if (!r.snapshots.empty()) alternative(r.snapshots.back());
    return r;
  }
  // --revision says which commit the workers must load: a ref that names another one loads
  // the wrong snapshot by name, however sound that snapshot is.
  if (!by_hash && !chosen.empty() && chosen != commit) {
    r.problems.push_back(
        fmt::format("refs/{} names {}, not the --revision {}: `--model {}` loads a different "
                    "snapshot.",
                    r.ref, commit, chosen, spec.id));
    offer(fmt::format("point refs/{} at the given revision", r.ref));
    alternative(chosen);
  }
  if (by_hash && spec.revision != commit) {
    r.warnings.push_back(
        fmt::format("refs/{} names {}, not the requested {}: `--model {}` "
                    "without --revision loads a different snapshot.",
                    r.ref, commit, spec.revision, spec.id));
  }
  check_snapshot(folder, by_hash ? spec.revision : commit, r);
  if (!r.problems.empty() && r.repair) alternative(r.repair->commit);
  return r;
}

}  // namespace

HfEnvironment HfEnvironment::current() {
  HfEnvironment env;
  for (char** e = environ; e && *e; ++e) {
    std::string_view entry = *e;
    size_t eq = entry.find('=');
    if (eq != std::string_view::npos) {
      env.vars.emplace(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
    }
  }
  if (const std::string* home = env.get("HOME")) {
    env.home = *home;
  } else if (struct passwd* pw = getpwuid(getuid())) {
    env.home = pw->pw_dir;
  }
  return env;
}

const std::string* HfEnvironment::get(const std::string& name) const {
  auto it = vars.find(name);
  return it == vars.end() ? nullptr : &it->second;
}

HfCacheRoot hf_cache_root(const HfEnvironment& env) {
  // Each step as huggingface_hub's constants.py computes it: a variable that is set wins, even
  // when empty, and the result is expanded with expanduser then expandvars.
  if (const std::string* v = env.get("HF_HUB_CACHE")) return {expand(*v, env), "HF_HUB_CACHE"};
  if (const std::string* v = env.get("HUGGINGFACE_HUB_CACHE")) {
    return {expand(*v, env), "HUGGINGFACE_HUB_CACHE"};
  }
  if (const std::string* v = env.get("HF_HOME")) return {join(expand(*v, env), "hub"), "HF_HOME"};
  if (const std::string* v = env.get("XDG_CACHE_HOME")) {
    return {join(expand(join(*v, "huggingface"), env), "hub"), "XDG_CACHE_HOME"};
  }
  return {join(join(join(env.home, ".cache"), "huggingface"), "hub"), "default"};
}

HfOffline hf_offline(const HfEnvironment& env) {
  HfOffline out;
  // `HF_HUB_OFFLINE or TRANSFORMERS_OFFLINE`: an empty HF_HUB_OFFLINE falls through.
  for (const char* name : {"HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"}) {
    const std::string* v = env.get(name);
    if (v == nullptr || v->empty()) continue;
    std::string upper = *v;
    for (char& c : upper)
      c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    out.variable = name;
    out.value = *v;
    out.on = upper == "1" || upper == "ON" || upper == "YES" || upper == "TRUE";
    break;
  }
  return out;
}

bool is_commit_hash(std::string_view text) {
  return text.size() == 40 && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

namespace {

// huggingface_hub's validate_repo_id: an optional "org/" and a name, each of word characters,
// '-' and '.', starting and ending with a word character; no "--" or "..", and at most 96
// characters. Models from before organisations (gpt2, bert-base-uncased) have no org.
bool is_hub_repo_id(std::string_view id) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  auto part_ok = [&](std::string_view part) {
    return !part.empty() && word(part.front()) && word(part.back()) &&
           std::all_of(part.begin(), part.end(),
                       [&](char c) { return word(c) || c == '-' || c == '.'; });
  };
  if (id.size() > 96 || id.find("--") != std::string_view::npos ||
      id.find("..") != std::string_view::npos) {
    return false;
  }
  size_t slash = id.find('/');
  if (slash == std::string_view::npos) return part_ok(id);
  return part_ok(id.substr(0, slash)) && part_ok(id.substr(slash + 1));
}

}  // namespace

tl::expected<HfModelSpec, std::string> parse_hf_model_spec(std::string_view text) {
  HfModelSpec spec;
  size_t at = text.find('@');
  spec.id = text.substr(0, at);
  if (at != std::string_view::npos) spec.revision = text.substr(at + 1);
  if (!is_hub_repo_id(spec.id)) {
    return tl::unexpected(
        fmt::format("\"{}\" is not a model id such as Qwen/Qwen3-0.6B or gpt2", text));
  }
  if (at != std::string_view::npos &&
      (spec.revision.empty() || spec.revision.find("..") != std::string::npos ||
       spec.revision.starts_with('/'))) {
    return tl::unexpected(fmt::format("\"{}\" does not name a revision after @", text));
  }
  return spec;
}

std::vector<HfModelReport> check_hf_cache(const std::vector<HfModelSpec>& models,
                                          const HfCheckOptions& options) {
  std::vector<HfModelSpec> specs = models;
  if (specs.empty()) {
    std::error_code ec;
    std::vector<std::string> folders;
    for (auto it = fs::directory_iterator(options.root, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
      std::string name = it->path().filename().string();
      if (name.starts_with("models--") && it->is_directory()) folders.push_back(name);
    }
    std::sort(folders.begin(), folders.end());
    for (const std::string& f : folders)
      specs.push_back({id_of_folder(f), ""});
  }
  std::vector<HfModelReport> out;
  out.reserve(specs.size());
  for (const HfModelSpec& spec : specs)
    out.push_back(check_model(spec, options));
  return out;
}

void fix_hf_cache(std::vector<HfModelReport>& reports, const HfCheckOptions& options) {
  for (HfModelReport& r : reports) {
    if (!r.repair) continue;
    if (r.read_only) {
      r.warnings.push_back(
          fmt::format("fix did not write {}: the folder is read-only.", r.repair->path));
      continue;
    }
    // The ref may be a symlink to the file to update: the rename replaces that file, not the link.
    WriteTarget destination = write_target((fs::path(r.folder) / r.repair->path).string());
    if (destination.kind != WriteTarget::Kind::kRegular &&
        destination.kind != WriteTarget::Kind::kMissing) {
      r.warnings.push_back(
          fmt::format("fix did not write {}: it is not a regular file.", r.repair->path));
      continue;
    }
    fs::path target = destination.path;
    std::error_code ec;
    // refs/, the ref or the model's folder may be symlinks: fix writes only inside the cache.
    fs::path root = fs::weakly_canonical(options.root, ec);
    fs::path parent = fs::weakly_canonical(target.parent_path(), ec);
    std::string inside = parent.lexically_relative(root).generic_string();
    if (ec || inside.empty() || inside.starts_with("..")) {
      r.warnings.push_back(fmt::format("fix did not write {}: it leads out of the cache (to {}).",
                                       r.repair->path, parent.string()));
      continue;
    }
    fs::create_directories(target.parent_path(), ec);
    fs::path temp = target.parent_path() /
                    fmt::format(".{}.footprint-{}", target.filename().string(), getpid());
    bool written = false;
    if (!ec) {
      std::ofstream out(temp, std::ios::binary | std::ios::trunc);
      out << r.repair->commit;  // exactly 40 hex digits: no newline
      out.close();
      written = static_cast<bool>(out) && std::rename(temp.c_str(), target.c_str()) == 0;
      if (!written) fs::remove(temp, ec);
    }
    if (!written) {
      r.warnings.push_back(fmt::format("Could not write {} ({}); the cache is unchanged.",
                                       target.string(), std::strerror(errno)));
      continue;
    }
    HfModelSpec spec{r.id, r.ref};
    HfModelReport again = check_model(spec, options);
    again.fixed = true;
    again.repair = r.repair;
    r = std::move(again);
  }
}

}  // namespace footprint
