// The Hugging Face hub cache, as huggingface_hub lays it out and reads it offline:
//
//   <root>/models--<org>--<name>/refs/<ref>            a 40-hex commit, no newline
//   <root>/models--<org>--<name>/snapshots/<commit>/   symlinks into ../../blobs/
//   <root>/models--<org>--<name>/blobs/<hash>
//
// check() says whether a model resolves offline and why not; fix() writes the missing or
// malformed ref atomically. Blobs are never touched.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <tl/expected.hpp>
#include <vector>

namespace footprint {

// The environment the cache root and offline mode are read from; tests pass their own.
struct HfEnvironment {
  std::map<std::string, std::string> vars;
  std::string home;  // for ~
  static HfEnvironment current();
  const std::string* get(const std::string& name) const;
};

struct HfCacheRoot {
  std::string path;
  std::string source;  // the variable that decided it, or "default"
};
// HF_HUB_CACHE, then HUGGINGFACE_HUB_CACHE, then $HF_HOME/hub, then
// $XDG_CACHE_HOME/huggingface/hub, then ~/.cache/huggingface/hub; with ~ and $VAR expanded.
HfCacheRoot hf_cache_root(const HfEnvironment& env);

// HF_HUB_OFFLINE, else TRANSFORMERS_OFFLINE, is one of 1, ON, YES, TRUE (any case).
struct HfOffline {
  bool on = false;
  std::string variable;  // which one was read; empty when neither is set
  std::string value;
};
HfOffline hf_offline(const HfEnvironment& env);

// "org/name" or "org/name@revision".
struct HfModelSpec {
  std::string id;
  std::string revision;  // a ref name ("main") or a 40-hex commit; empty means main
};
tl::expected<HfModelSpec, std::string> parse_hf_model_spec(std::string_view text);
bool is_commit_hash(std::string_view text);

struct HfRepair {
  std::string ref;     // "main"
  std::string commit;  // what to write
  std::string path;    // refs/<ref>
  std::string reason;
};

struct HfModelReport {
  std::string id;
  // The ref that must resolve ("main" unless a ref name was given); for a model asked for by
  // commit, which reads no ref, the ref that names that commit, or "" when none does.
  std::string ref;
  std::string folder;  // <root>/models--org--name
  std::string commit;  // what the ref or revision resolves to; empty when it does not
  std::vector<std::string> snapshots;  // commits present, sorted
  std::vector<std::string> problems;   // each stops offline loading by name
  std::vector<std::string> warnings;   // worth knowing, loading still works
  std::optional<HfRepair> repair;      // what fix would write
  std::string alternative;             // how to load without changing the cache
  bool read_only = false;
  bool fixed = false;
  bool resolves() const { return problems.empty(); }
};

struct HfCheckOptions {
  std::string root;
  std::string revision;  // --revision: the commit to use when several snapshots exist
};

// Models named, or every models--* folder in the root when `models` is empty.
std::vector<HfModelReport> check_hf_cache(const std::vector<HfModelSpec>& models,
                                          const HfCheckOptions& options);

// Applies each report's repair, writing refs/<ref> (or the file it links to) through a
// temporary file and a rename, and checks again. A read-only folder leaves the report unfixed
// with a warning.
void fix_hf_cache(std::vector<HfModelReport>& reports, const HfCheckOptions& options);

}  // namespace footprint
