#include "report/fix/hf_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace footprint {
namespace {

namespace fs = std::filesystem;

const std::string kCommitA = "c1899de289a04d12100db370d81485cdf75e47ca";
const std::string kCommitB = "0123456789abcdef0123456789abcdef01234567";

bool contains(const std::vector<std::string>& lines, std::string_view text) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Real cache layouts in a temporary directory, with relative symlinks as huggingface_hub makes
// them: snapshots/<commit>/<file> -> ../../blobs/<hash>.
class HfCache : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            fmt_name(::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override {
    for (auto& p : fs::recursive_directory_iterator(root_)) {
      if (!p.is_symlink()) fs::permissions(p.path(), fs::perms::owner_all, fs::perm_options::add);
    }
    fs::permissions(root_, fs::perms::owner_all, fs::perm_options::add);
    fs::remove_all(root_);
  }
  static std::string fmt_name(const char* test) {
    return std::string("footprint-hf-") + test + "-" + std::to_string(getpid());
  }
  fs::path repo(const std::string& folder = "models--Qwen--Qwen3-0.6B") { return root_ / folder; }
  void blob(const std::string& hash, const std::string& content) {
    fs::create_directories(repo() / "blobs");
    std::ofstream(repo() / "blobs" / hash) << content;
  }
  void snapshot(const std::string& commit, const std::vector<std::string>& files) {
    fs::create_directories(repo() / "snapshots" / commit);
    for (const std::string& f : files) {
      fs::create_symlink(fs::path("../../blobs") / ("blob-" + f),
                         repo() / "snapshots" / commit / f);
    }
  }
  void ref(const std::string& name, const std::string& content) {
    fs::create_directories(repo() / "refs");
    std::ofstream(repo() / "refs" / name, std::ios::binary) << content;
  }
  HfModelReport check(const std::string& spec, const std::string& revision = "") {
    auto reports = check_hf_cache({*parse_hf_model_spec(spec)}, {root_.string(), revision});
    return reports.front();
  }
  HfModelReport fix(const std::string& spec, const std::string& revision = "") {
    HfCheckOptions options{root_.string(), revision};
    auto reports = check_hf_cache({*parse_hf_model_spec(spec)}, options);
    fix_hf_cache(reports, options);
    return reports.front();
  }
  fs::path root_;
};

// The seed's trap: snapshot_download(revision=<hash>) writes no refs/main, because
// huggingface_hub's file_download.py, _cache_commit_hash_for_specific_revision, writes a ref
// only `if revision != commit_hash`; and it writes the commit with write_text, no newline.
TEST_F(HfCache, PinnedByHashWithoutRefsMainIsExplainedAndFixed) {
  blob("blob-config.json", "{}");
  blob("blob-model.safetensors", "weights");
  snapshot(kCommitA, {"config.json", "model.safetensors"});
  HfModelReport r = check("Qwen/Qwen3-0.6B");
  EXPECT_FALSE(r.resolves());
  EXPECT_TRUE(contains(r.problems, "downloaded with revision=" + kCommitA +
                                       ", so refs/main was never written; `--model "
                                       "Qwen/Qwen3-0.6B` cannot resolve offline"));
  ASSERT_TRUE(r.repair.has_value());
  EXPECT_EQ(r.repair->commit, kCommitA);
  EXPECT_NE(r.alternative.find("--revision " + kCommitA), std::string::npos);
  EXPECT_NE(r.alternative.find((repo() / "snapshots" / kCommitA).string()), std::string::npos);
  // Asking by hash resolves, with no problem: huggingface_hub reads snapshots/<hash> without
  // refs (try_to_load_from_cache resolves refs only for a revision that is not a commit hash).
  // The name alone does not.
  HfModelReport by_hash = check("Qwen/Qwen3-0.6B@" + kCommitA);
  EXPECT_EQ(by_hash.commit, kCommitA);
  EXPECT_TRUE(by_hash.resolves()) << by_hash.problems.front();

  auto blob_time = fs::last_write_time(repo() / "blobs" / "blob-model.safetensors");
  HfModelReport fixed = fix("Qwen/Qwen3-0.6B");
  EXPECT_TRUE(fixed.resolves()) << fixed.problems.front();
  EXPECT_TRUE(fixed.fixed);
  EXPECT_EQ(slurp(repo() / "refs" / "main"), kCommitA);  // 40 bytes, no newline
  EXPECT_EQ(fs::last_write_time(repo() / "blobs" / "blob-model.safetensors"), blob_time);
  EXPECT_EQ(slurp(repo() / "blobs" / "blob-model.safetensors"), "weights");
  size_t entries = 0;
  for ([[maybe_unused]] auto& e : fs::directory_iterator(repo() / "refs"))
    ++entries;
  EXPECT_EQ(entries, 1u);  // the temporary file was renamed, not left behind
  EXPECT_TRUE(check("Qwen/Qwen3-0.6B").resolves());
}

// Problems name the link's own path in the snapshot; a symlink loop is called one, and does not
// end the walk over the other files.
TEST_F(HfCache, LoopsAndOutsideLinksNameTheLink) {
  blob("blob-config.json", "{}");
  snapshot(kCommitA, {"config.json"});
  fs::path snap = repo() / "snapshots" / kCommitA;
  fs::create_symlink("loop-b", snap / "loop-a");
  fs::create_symlink("loop-a", snap / "loop-b");
  fs::path elsewhere = root_ / "elsewhere.txt";
  std::ofstream(elsewhere) << "x";
  fs::create_symlink(elsewhere, snap / "outside.txt");
  ref("main", kCommitA);
  HfModelReport r = check("Qwen/Qwen3-0.6B");
  EXPECT_TRUE(contains(r.problems, "snapshots/" + kCommitA + "/loop-a is a symlink loop"));
  EXPECT_TRUE(contains(r.problems, "snapshots/" + kCommitA + "/loop-b is a symlink loop"));
  EXPECT_TRUE(contains(r.warnings, "snapshots/" + kCommitA + "/outside.txt points outside blobs/"))
      << (r.warnings.empty() ? "" : r.warnings.front());
}

// fix writes refs/<ref> only inside the cache: a refs/ symlinked out of it is left alone.
TEST_F(HfCache, FixNeverWritesOutsideTheCache) {
  blob("blob-config.json", "{}");
  snapshot(kCommitA, {"config.json"});
  fs::path outside = root_.string() + "-outside";
  fs::create_directories(outside);
  fs::create_directory_symlink(outside, repo() / "refs");
  HfModelReport r = fix("Qwen/Qwen3-0.6B");
  EXPECT_FALSE(fs::exists(outside / "main"));
  EXPECT_TRUE(contains(r.warnings, "leads out of the cache"));
  fs::remove_all(outside);
}

// try_to_load_from_cache in huggingface_hub's file_download.py (commit 003956d3) reads refs with
// `revision = f.read()` and no strip, then looks for snapshots/<revision>: "<hash>\n" misses.
TEST_F(HfCache, TrailingNewlineInRefIsAProblemAndIsNormalised) {
  blob("blob-config.json", "{}");
  snapshot(kCommitA, {"config.json"});
  ref("main", kCommitA + "\n");
  HfModelReport r = check("Qwen/Qwen3-0.6B");
  EXPECT_FALSE(r.resolves());
  EXPECT_TRUE(contains(r.problems, "refs/main holds \"" + kCommitA + "\\n\""));
  HfModelReport fixed = fix("Qwen/Qwen3-0.6B");
  EXPECT_TRUE(fixed.resolves());
  EXPECT_EQ(slurp(repo() / "refs" / "main"), kCommitA);
}

TEST_F(HfCache, DanglingSymlinkIsAProblemFixLeavesAlone) {
  blob("blob-config.json", "{}");
  snapshot(kCommitA, {"config.json", "model.safetensors"});  // no blob for the weights
  ref("main", kCommitA);
  HfModelReport r = check("Qwen/Qwen3-0.6B");
  EXPECT_FALSE(r.resolves());
  EXPECT_TRUE(contains(r.problems, "snapshots/" + kCommitA +
                                       "/model.safetensors is a dangling symlink to "
                                       "../../blobs/blob-model.safetensors"));
  EXPECT_FALSE(r.repair.has_value());
  HfModelReport after = fix("Qwen/Qwen3-0.6B");
  EXPECT_FALSE(after.resolves());
  EXPECT_FALSE(fs::exists(repo() / "blobs" / "blob-model.safetensors"));
}

TEST_F(HfCache, TwoSnapshotsAreAmbiguousWithoutRevision) {
  blob("blob-config.json", "{}");
  snapshot(kCommitA, {"config.json"});
  snapshot(kCommitB, {"config.json"});
  HfModelReport r = check("Qwen/Qwen3-0.6B");
  EXPECT_FALSE(r.resolves());
  EXPECT_TRUE(contains(r.problems, "2 snapshots are cached"));
  EXPECT_FALSE(r.repair.has_value());
  EXPECT_FALSE(fix("Qwen/Qwen3-0.6B").resolves());
  EXPECT_FALSE(fs::exists(repo() / "refs" / "main"));

  HfModelReport chosen = fix("Qwen/Qwen3-0.6B", kCommitB);
  EXPECT_TRUE(chosen.resolves());
  EXPECT_EQ(chosen.commit, kCommitB);
  EXPECT_EQ(slurp(repo() / "refs" / "main"), kCommitB);
}

// MODEL@COMMIT reads snapshots/<commit> and no ref (try_to_load_from_cache resolves refs only for
// a revision that is not a commit hash), so the report names the ref that truly points at that
// commit, or none; it never claims refs/main when refs/main names another snapshot.
TEST_F(HfCache, ByCommitReportsTheRefThatNamesIt) {
  blob("blob-config.json", "{}");
  snapshot(kCommitA, {"config.json"});
  snapshot(kCommitB, {"config.json"});
  HfModelReport no_ref = check("Qwen/Qwen3-0.6B@" + kCommitA);
  EXPECT_TRUE(no_ref.resolves());
  EXPECT_EQ(no_ref.ref, "");
  EXPECT_EQ(no_ref.commit, kCommitA);

  ref("main", kCommitB);
  ref("v1", kCommitA);
  HfModelReport by_tag = check("Qwen/Qwen3-0.6B@" + kCommitA);
  EXPECT_TRUE(by_tag.resolves());
  EXPECT_EQ(by_tag.ref, "v1");
  // The name alone loads B: worth knowing, not a failure of loading by commit.
  EXPECT_TRUE(contains(by_tag.warnings, "refs/main names " + kCommitB));
  EXPECT_EQ(check("Qwen/Qwen3-0.6B@" + kCommitB).ref, "main");
}

// --revision names the commit the workers must load. refs/main naming another, complete
// snapshot still loads by name, but loads the wrong one: a problem, and fix points refs/main at
// the revision.
TEST_F(HfCache, RevisionIsHonouredWhenTheRefNamesAnotherSnapshot) {
  blob("blob-config.json", "{}");
  snapshot(kCommitA, {"config.json"});
  snapshot(kCommitB, {"config.json"});
  ref("main", kCommitA);
  EXPECT_TRUE(check("Qwen/Qwen3-0.6B").resolves());
  HfModelReport r = check("Qwen/Qwen3-0.6B", kCommitB);
  EXPECT_FALSE(r.resolves());
  EXPECT_TRUE(
      contains(r.problems, "refs/main names " + kCommitA + ", not the --revision " + kCommitB));
  ASSERT_TRUE(r.repair.has_value());
  EXPECT_EQ(r.repair->commit, kCommitB);
  HfModelReport fixed = fix("Qwen/Qwen3-0.6B", kCommitB);
  EXPECT_TRUE(fixed.resolves());
  EXPECT_EQ(slurp(repo() / "refs" / "main"), kCommitB);
}

// The seed mounted the model directory read-only: loading works, with a warning.
TEST_F(HfCache, ReadOnlyFolderIsAWarningNotAFailure) {
  blob("blob-config.json", "{}");
  snapshot(kCommitA, {"config.json"});
  ref("main", kCommitA);
  fs::permissions(repo() / "refs", fs::perms::all, fs::perm_options::remove);
  fs::permissions(repo() / "refs", fs::perms::owner_read | fs::perms::owner_exec,
                  fs::perm_options::add);
  fs::permissions(repo(), fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                  fs::perm_options::remove);
  HfModelReport r = check("Qwen/Qwen3-0.6B");
  EXPECT_TRUE(r.resolves());
  EXPECT_TRUE(r.read_only);
  EXPECT_TRUE(contains(r.warnings, "read-only"));

  // With a ref to write, fix leaves the read-only folder as it is and says so.
  fs::permissions(repo(), fs::perms::owner_write, fs::perm_options::add);
  fs::remove(repo() / "refs" / "main");
  fs::permissions(repo(), fs::perms::owner_write, fs::perm_options::remove);
  HfModelReport unfixed = fix("Qwen/Qwen3-0.6B");
  EXPECT_FALSE(unfixed.resolves());
  EXPECT_TRUE(contains(unfixed.warnings, "fix did not write refs/main"));
  EXPECT_FALSE(fs::exists(repo() / "refs" / "main"));
}

TEST_F(HfCache, EveryModelFolderIsCheckedWhenNoneIsNamed) {
  blob("blob-config.json", "{}");
  snapshot(kCommitA, {"config.json"});
  ref("main", kCommitA);
  fs::create_directories(root_ / "models--org--other" / "snapshots");
  fs::create_directories(root_ / "datasets--org--data");
  auto reports = check_hf_cache({}, {root_.string(), ""});
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(reports[0].id, "Qwen/Qwen3-0.6B");
  EXPECT_TRUE(reports[0].resolves());
  EXPECT_EQ(reports[1].id, "org/other");
  EXPECT_TRUE(contains(reports[1].problems, "No snapshot is cached"));
}

// huggingface_hub constants.py (commit 03333b68): HF_HOME = expandvars(expanduser(getenv(
// "HF_HOME", join(getenv("XDG_CACHE_HOME", "~/.cache"), "huggingface")))); HUGGINGFACE_HUB_CACHE
// defaults to join(HF_HOME, "hub"); HF_HUB_CACHE = expandvars(expanduser(getenv("HF_HUB_CACHE",
// HUGGINGFACE_HUB_CACHE))); HF_HUB_OFFLINE = _is_true(HF_HUB_OFFLINE or TRANSFORMERS_OFFLINE)
// with true values {"1", "ON", "YES", "TRUE"} compared upper-cased.
TEST(HfEnvironment, CacheRootFollowsHuggingfaceHub) {
  HfEnvironment env;
  env.home = "/home/ml";
  EXPECT_EQ(hf_cache_root(env).path, "/home/ml/.cache/huggingface/hub");
  EXPECT_EQ(hf_cache_root(env).source, "default");
  env.vars["XDG_CACHE_HOME"] = "/xdg";
  EXPECT_EQ(hf_cache_root(env).path, "/xdg/huggingface/hub");
  env.vars["HF_HOME"] = "~/hf";
  EXPECT_EQ(hf_cache_root(env).path, "/home/ml/hf/hub");
  EXPECT_EQ(hf_cache_root(env).source, "HF_HOME");
  env.vars["HUGGINGFACE_HUB_CACHE"] = "/legacy";
  EXPECT_EQ(hf_cache_root(env).path, "/legacy");
  env.vars["DATA"] = "/data";
  env.vars["HF_HUB_CACHE"] = "$DATA/models/${DATA}/$UNSET";
  EXPECT_EQ(hf_cache_root(env).path, "/data/models//data/$UNSET");
  EXPECT_EQ(hf_cache_root(env).source, "HF_HUB_CACHE");
}

TEST(HfEnvironment, OfflineModeValues) {
  HfEnvironment env;
  EXPECT_FALSE(hf_offline(env).on);
  env.vars["TRANSFORMERS_OFFLINE"] = "yes";
  EXPECT_TRUE(hf_offline(env).on);
  EXPECT_EQ(hf_offline(env).variable, "TRANSFORMERS_OFFLINE");
  env.vars["HF_HUB_OFFLINE"] = "0";  // set, so it decides: `"0" or ...` is "0"
  EXPECT_FALSE(hf_offline(env).on);
  for (const char* v : {"1", "ON", "True", "yes"}) {
    env.vars["HF_HUB_OFFLINE"] = v;
    EXPECT_TRUE(hf_offline(env).on) << v;
  }
  env.vars["HF_HUB_OFFLINE"] = "";  // empty is false in `or`: TRANSFORMERS_OFFLINE decides
  EXPECT_TRUE(hf_offline(env).on);
}

TEST(HfEnvironment, ModelSpecs) {
  EXPECT_EQ(parse_hf_model_spec("Qwen/Qwen3-0.6B")->revision, "");
  EXPECT_EQ(parse_hf_model_spec("Qwen/Qwen3-0.6B@" + kCommitA)->revision, kCommitA);
  // huggingface_hub's validate_repo_id: the org is optional (gpt2), "--" and ".." are not.
  EXPECT_EQ(parse_hf_model_spec("gpt2")->id, "gpt2");
  EXPECT_FALSE(parse_hf_model_spec("a--b").has_value());
  EXPECT_FALSE(parse_hf_model_spec("-a").has_value());
  EXPECT_FALSE(parse_hf_model_spec("a/b/c").has_value());
  EXPECT_FALSE(parse_hf_model_spec("a/b@../../etc").has_value());
}

}  // namespace
}  // namespace footprint
