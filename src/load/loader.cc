#include "load/loader.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <optional>
#include <tuple>

#include "load/assemble.h"
#include "load/helm_gzip.h"
#include "load/json_stream.h"
#include "load/kustomize.h"
#include "load/parallel.h"
#include "util/memory.h"

namespace footprint {

std::string LoadError::to_string() const {
  if (position.line == 0) return fmt::format("{}: {}", file, message);
  return fmt::format("{}:{}:{}: {}", file, position.line, position.column, message);
}

size_t count_documents(const std::vector<LoadError>& errors) {
  std::vector<std::tuple<std::string_view, uint32_t, uint32_t>> seen;
  size_t unplaced = 0;
  for (const LoadError& e : errors) {
    if (e.document.line == 0) {
      ++unplaced;
    } else {
      seen.emplace_back(e.file, e.document.line, e.document.column);
    }
  }
  std::sort(seen.begin(), seen.end());
  return unplaced + static_cast<size_t>(std::unique(seen.begin(), seen.end()) - seen.begin());
}

std::string_view LoadedInput::renderer_of(std::string_view file) const {
  for (size_t i = 0; i < files.size() && i < renderers.size(); ++i) {
    if (files[i] == file) return renderers[i];
  }
  return {};
}

namespace {

namespace fs = std::filesystem;

// Big files are parsed in pieces of about this size, split at `---` lines, on all cores.
constexpr size_t kChunkBytes = 1 << 20;
constexpr size_t kMaxListedSkips = 5;
constexpr const char* kNestedKustomization =
    "kustomizations inside a folder given: give each as an input, or with -k, to build it";

struct Chunk {
  uint32_t file;
  uint32_t begin;
  uint32_t end;
  uint32_t line;
  uint32_t column = 1;  // a JSON value may start inside a line
};

// A document marker is `---` at the start of a line followed by a space, tab or line end. The
// YAML spec forbids that sequence inside any scalar, so splitting there never cuts a node.
bool is_document_marker(std::string_view text, size_t at) {
  if (text.compare(at, 3, "---") != 0) return false;
  if (at + 3 == text.size()) return true;
  char next = text[at + 3];
  return next == ' ' || next == '\t' || next == '\n' || next == '\r';
}

// True when only comments and blank lines separate the marker at `at` from the marker before it:
// a `# Source:` comment alone in its document names the next one, so no chunk ends there.
bool after_comment_only_document(std::string_view text, size_t at) {
  while (at > 0) {  // `at` starts a line: look at the one before it
    size_t end = at - 1;
    size_t newline = end == 0 ? std::string_view::npos : text.rfind('\n', end - 1);
    size_t start = newline == std::string_view::npos ? 0 : newline + 1;
    if (is_document_marker(text, start)) return true;
    std::string_view line = text.substr(start, end - start);
    size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && line[first] != '#') return false;
    at = start;
  }
  return false;
}

uint32_t count_newlines(std::string_view text) {
  uint32_t n = 0;
  const char* p = text.data();
  const char* end = p + text.size();
  while ((p = static_cast<const char*>(std::memchr(p, '\n', end - p))) != nullptr) {
    ++n;
    ++p;
  }
  return n;
}

// Splits `text` at document markers into chunks of at least `min_bytes` (except the last);
// with 0, into single documents. Positions are the file's: `text` starts at `offset`, on `line`.
void split_into_chunks(uint32_t file, std::string_view text, std::vector<Chunk>& out,
                       size_t min_bytes = kChunkBytes, uint32_t offset = 0,
                       uint32_t first_line = 1) {
  size_t begin = 0;
  uint32_t line = first_line;
  while (begin < text.size()) {
    size_t end = text.size();
    for (size_t probe = begin + std::max<size_t>(min_bytes, 1); probe < text.size();) {
      size_t newline = text.find('\n', probe);
      if (newline == std::string_view::npos) break;
      if (is_document_marker(text, newline + 1) &&
          !after_comment_only_document(text, newline + 1)) {
        end = newline + 1;
        break;
      }
      probe = newline + 1;
    }
    out.push_back(Chunk{file, static_cast<uint32_t>(offset + begin),
                        static_cast<uint32_t>(offset + end), line});
    line += count_newlines(text.substr(begin, end - begin));
    begin = end;
  }
}

// A JSON stream (json_stream.h): one chunk per value, and the decoder's error, which loses the
// rest of the file as kubectl does.
void json_values(uint32_t file, const std::string& name, std::string_view text,
                 std::vector<Chunk>& out, std::optional<LoadError>& error) {
  JsonStream stream = split_json_stream(text);
  for (const JsonValue& v : stream.values)
    out.push_back(Chunk{file, v.begin, v.end, v.position.line, v.position.column});
  if (!stream.error_position) return;
  // Go names the character after a trailing comma; JSON, unlike YAML, allows none.
  std::string_view before = text.substr(0, stream.error_offset);
  size_t last = before.find_last_not_of(" \t\r\n");
  bool trailing_comma = last != std::string_view::npos && before[last] == ',' &&
                        stream.error.find("looking for beginning of") != std::string::npos;
  error = LoadError{
      name, *stream.error_position,
      fmt::format("{}: kubectl reads an input that starts with '{{' as JSON and refuses it (Go's "
                  "JSON decoder: \"{}\")",
                  trailing_comma ? "a comma before the closing bracket, which JSON does not allow"
                                 : "not valid JSON",
                  stream.error),
      *stream.error_position};
}

tl::expected<std::string, std::string> read_stream(std::FILE* f, uint64_t max_bytes,
                                                   uint64_t expected_bytes = 0) {
  std::string text;
  // Growing the string by doubling would copy a large file several times over.
  text.reserve(std::min(expected_bytes, max_bytes) + 1);
  char buffer[1 << 16];
  for (;;) {
    size_t n = std::fread(buffer, 1, sizeof buffer, f);
    text.append(buffer, n);
    if (text.size() > max_bytes) {
      return tl::unexpected(fmt::format("larger than the {}-byte input limit", max_bytes));
    }
    if (n < sizeof buffer) break;
  }
  if (std::ferror(f)) return tl::unexpected(std::string(std::strerror(errno)));
  return text;
}

tl::expected<std::string, std::string> read_file(const std::string& path, uint64_t max_bytes) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return tl::unexpected(std::string(std::strerror(errno)));
  struct stat st {};
  uint64_t size = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) ? st.st_size : 0;
  auto text = read_stream(f, max_bytes, size);
  std::fclose(f);
  return text;
}

// `helm template` and `helm get manifest` put `# Source: chart/templates/x.yaml` before each
// document. Searched from the `#`, which is rare in manifests, rather than from the newline
// before it, which starts every line.
bool rendered_by_helm(std::string_view text) {
  for (size_t at = text.find("# Source: "); at != std::string_view::npos;
       at = text.find("# Source: ", at + 1)) {
    if (at == 0 || text[at - 1] == '\n') return true;
  }
  return false;
}

bool is_manifest_name(const fs::path& path) {
  std::string ext = path.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < kMaxListedSkips; ++i) {
    out += (i ? ", " : "") + names[i];
  }
  if (names.size() > kMaxListedSkips)
    out += fmt::format(" and {} more", names.size() - kMaxListedSkips);
  return out;
}

// Why a symlink cannot be read, from the error of following it.
std::string broken_link(const std::string& target, std::error_code followed) {
  if (followed == std::errc::too_many_symbolic_link_levels) {
    return fmt::format(
        "a symlink to {}, which leads back to itself (a loop of symlinks): its "
        "manifests cannot be read",
        target);
  }
  return fmt::format("a symlink to {}, which does not exist: its manifests cannot be read", target);
}

// Lists manifest files under `dir`, sorted, so output does not depend on directory order. A
// folder that cannot be read is an error, as an unreadable file is: nothing is skipped silently.
tl::expected<std::vector<std::string>, LoadError> walk_directory(const std::string& dir,
                                                                 size_t max_entries,
                                                                 std::vector<std::string>& notes,
                                                                 std::vector<Skipped>& records) {
  std::vector<std::string> files;
  std::vector<std::string> skipped;
  std::vector<std::string> hidden;
  auto first_record = static_cast<std::ptrdiff_t>(records.size());
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, ec), end;
  if (ec) return tl::unexpected(LoadError{dir, {}, "cannot read directory: " + ec.message()});
  std::string entered;  // the folder the next step descends into, named if it cannot be read
  size_t entries = 0;
  for (;; it.increment(ec)) {
    if (ec) {
      return tl::unexpected(
          LoadError{entered.empty() ? dir : entered, {}, "cannot read directory: " + ec.message()});
    }
    if (it == end) break;
    if (++entries > max_entries) {
      return tl::unexpected(LoadError{
          dir,
          {},
          fmt::format("more than {} files and folders under it, the limit for one directory: "
                      "give the folder of the manifests themselves",
                      max_entries)});
    }
    const fs::path& path = it->path();
    std::string shown = path.generic_string();
    entered.clear();
    if (path.filename().string().starts_with(".")) {
      hidden.push_back(shown);
      bool folder = it->is_directory(ec);
      if (folder) it.disable_recursion_pending();
      records.push_back(Skipped{folder ? Skipped::Unit::kFolder : Skipped::Unit::kFile, shown, 0,
                                "", "hidden, named with a leading dot"});
      continue;
    }
    if (it->is_symlink(ec) && it->is_directory(ec)) {
      skipped.push_back(shown + " (symlinked directory)");
      records.push_back(
          Skipped{Skipped::Unit::kFolder, shown, 0, "", "symlinks to folders, not followed"});
      continue;
    }
    if (it->is_directory(ec) && is_kustomization(shown)) {
      // Its files are not what it deploys: kustomize builds that, from the folder as a whole.
      it.disable_recursion_pending();
      records.push_back(Skipped{Skipped::Unit::kFolder, shown, 0, "", kNestedKustomization});
      continue;
    }
    if (it->is_directory(ec)) {
      entered = shown;
      continue;
    }
    // A manifest's link whose target is gone: its objects would be missing from the review
    // without a word, as an unreadable file's would.
    std::error_code link_ec;
    if (it->is_symlink(link_ec) && is_manifest_name(path) && !fs::exists(path, link_ec)) {
      std::error_code ignored;
      return tl::unexpected(LoadError{
          shown, {}, broken_link(fs::read_symlink(path, ignored).generic_string(), link_ec)});
    }
    if (it->is_regular_file(ec) && is_manifest_name(path)) {
      files.push_back(shown);
    } else {
      skipped.push_back(shown);
      records.push_back(
          Skipped{Skipped::Unit::kFile, shown, 0, "",
                  is_manifest_name(path) ? "not a regular file" : "not .yaml, .yml or .json"});
    }
  }
  std::sort(files.begin(), files.end());
  std::sort(skipped.begin(), skipped.end());
  std::sort(hidden.begin(), hidden.end());
  std::sort(records.begin() + first_record, records.end(),
            [](const Skipped& a, const Skipped& b) { return a.path < b.path; });
  if (!skipped.empty()) {
    notes.push_back(fmt::format("skipped {} file{} under {} that {} not .yaml, .yml or .json: {}",
                                skipped.size(), skipped.size() == 1 ? "" : "s", dir,
                                skipped.size() == 1 ? "is" : "are", join_names(skipped)));
  }
  if (!hidden.empty()) {
    notes.push_back(fmt::format("skipped {} hidden {} under {}: {}", hidden.size(),
                                hidden.size() == 1 ? "entry" : "entries", dir, join_names(hidden)));
  }
  return files;
}

// An alias whose anchor is in an earlier document: YAML (and kubectl, which reads each document
// on its own) resolves aliases only within their document, which the plain "unknown anchor" does
// not say.
std::string anchor_message(std::string_view text, const yaml::ParseError& e) {
  std::string_view prefix = "unknown anchor '";
  if (!e.message.starts_with(prefix)) return e.message;
  size_t name_end = e.message.find('\'', prefix.size());
  if (name_end == std::string::npos) return e.message;
  std::string name = e.message.substr(prefix.size(), name_end - prefix.size());
  size_t at = 0;  // the start of the error's line
  for (uint32_t line = 1; line < e.position.line && at != std::string_view::npos; ++line) {
    at = text.find('\n', at);
    if (at != std::string_view::npos) ++at;
  }
  if (at == std::string_view::npos) return e.message;
  // The start of the error's document: the last document marker before it.
  size_t document = 0;
  for (size_t marker = text.find("---"); marker != std::string_view::npos && marker < at;
       marker = text.find("---", marker + 1)) {
    if ((marker == 0 || text[marker - 1] == '\n') && is_document_marker(text, marker))
      document = marker;
  }
  std::string anchor = "&" + name;
  for (size_t found = text.find(anchor); found != std::string_view::npos && found < document;
       found = text.find(anchor, found + 1)) {
    size_t after = found + anchor.size();
    if (after < text.size() && text[after] != ' ' && text[after] != '\n' && text[after] != '\r' &&
        text[after] != '\t') {
      continue;  // a longer anchor name
    }
    return fmt::format(
        "unknown anchor '{}': its anchor &{} is in an earlier document, and an alias can refer "
        "only to an anchor in its own document (kubectl reads each document on its own): repeat "
        "the content, or define the anchor again in this document",
        name, name);
  }
  return e.message;
}

// Parses one chunk and assembles its objects. A chunk that fails is parsed again one document at
// a time when LoadOptions::keep_valid_documents asks, so that only the documents in error are
// lost.
ChunkObjects load_chunk(const Chunk& c, const NamedText& file, const LoadOptions& options) {
  ChunkObjects out;
  // A YAML error loses the whole chunk it is in, which is one document when keep_valid_documents
  // parses them one by one.
  auto parse_error = [&](const yaml::ParseError& e, uint32_t line) {
    out.errors.push_back(
        LoadError{file.name, e.position, anchor_message(file.text, e), yaml::Position{line, 1}});
  };
  std::string_view text(file.text);
  auto parsed = yaml::parse_chunk(text.substr(c.begin, c.end - c.begin),
                                  yaml::ChunkStart{c.begin, c.line, c.column}, options.limits);
  std::vector<yaml::Document> documents;
  if (parsed) {
    documents = std::move(*parsed);
  } else if (!options.keep_valid_documents) {
    parse_error(parsed.error(), c.line);
  } else {
    std::vector<Chunk> singles;
    split_into_chunks(c.file, text.substr(c.begin, c.end - c.begin), singles, 0, c.begin, c.line);
    for (const Chunk& single : singles) {
      auto one = yaml::parse_chunk(text.substr(single.begin, single.end - single.begin),
                                   yaml::ChunkStart{single.begin, single.line}, options.limits);
      if (!one) {
        parse_error(one.error(), single.line);
        continue;
      }
      for (yaml::Document& doc : *one)
        documents.push_back(std::move(doc));
    }
  }
  // Most documents hold one object: reserving for them avoids the growth slack.
  out.objects.reserve(documents.size());
  assemble_documents(std::move(documents), c.file, file.name, text, options.max_document_bytes,
                     out);
  return out;
}

uint64_t total_bytes(const std::vector<NamedText>& texts) {
  uint64_t total = 0;
  for (const NamedText& t : texts)
    total += t.text.size();
  return total;
}

LoadError too_large_together(size_t inputs, uint64_t total, uint64_t limit) {
  return LoadError{
      inputs == 1 ? std::string("the input") : fmt::format("{} inputs", inputs),
      {},
      fmt::format("{} bytes together; the limit on all inputs is {} bytes", total, limit)};
}

tl::expected<LoadedInput, std::vector<LoadError>> parse_all(std::vector<NamedText> texts,
                                                            std::vector<std::string> notes,
                                                            std::vector<Skipped> skipped,
                                                            const LoadOptions& options) {
  if (uint64_t total = total_bytes(texts); total > options.max_total_bytes) {
    return tl::unexpected(
        std::vector<LoadError>{too_large_together(texts.size(), total, options.max_total_bytes)});
  }
  LoadedInput out;
  out.jobs = options.jobs;
  out.notes = std::move(notes);
  out.skipped = std::move(skipped);
  std::vector<LoadError> errors;
  for (const NamedText& t : texts) {
    out.files.push_back(t.name);
    out.chart_roots.push_back(t.chart_root);
    out.renderers.push_back(t.renderer);
    out.namespaces.push_back(t.namespace_);
    out.file_bytes.push_back(t.text.size());
  }
  out.helm_gzip.resize(texts.size());

  // Per file, in parallel: reject binary data and oversized files, and split into chunks.
  std::vector<std::vector<Chunk>> file_chunks(texts.size());
  std::vector<std::optional<LoadError>> file_errors(texts.size());
  std::vector<char> helm(texts.size(), 0);
  std::vector<std::optional<LoadError>> json_errors(texts.size());
  parallel_for(texts.size(), options.jobs, [&](size_t f) {
    std::string_view text = texts[f].text;
    if (text.size() >= options.limits.max_stream_bytes) {
      file_errors[f] = LoadError{texts[f].name,
                                 {},
                                 fmt::format("file is {} bytes; the limit is {} bytes", text.size(),
                                             options.limits.max_stream_bytes)};
      return;
    }
    bool utf16 = text.starts_with("\xff\xfe") || text.starts_with("\xfe\xff");
    size_t nul = text.substr(0, 1 << 16).find('\0');
    if (!utf16 && nul != std::string_view::npos) {
      file_errors[f] = LoadError{
          texts[f].name,
          {},
          fmt::format("binary data (a NUL byte at offset {}); expected YAML or JSON", nul)};
      return;
    }
    if (is_json_stream(text)) {
      json_values(static_cast<uint32_t>(f), texts[f].name, text, file_chunks[f], json_errors[f]);
    } else {
      split_into_chunks(static_cast<uint32_t>(f), text, file_chunks[f]);
    }
    helm[f] = rendered_by_helm(text);
  });
  std::vector<Chunk> chunks;
  std::vector<uint32_t> helm_files;
  for (uint32_t f = 0; f < texts.size(); ++f) {
    if (std::optional<LoadError>& error = file_errors[f]) {
      errors.push_back(std::move(*error));
    } else if (helm[f]) {
      helm_files.push_back(f);
    }
    chunks.insert(chunks.end(), file_chunks[f].begin(), file_chunks[f].end());
  }

  // One pool of work: compressing each Helm file (the longest single tasks, so first), then the
  // chunks, largest first, so that no core is left with a big one at the end.
  std::vector<size_t> order(chunks.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return chunks[a].end - chunks[a].begin > chunks[b].end - chunks[b].begin;
  });
  std::vector<ChunkObjects> assembled(chunks.size());
  parallel_for(helm_files.size() + chunks.size(), options.jobs, [&](size_t task) {
    if (task < helm_files.size()) {
      uint32_t f = helm_files[task];
      out.helm_gzip[f] = helm_gzip_size(texts[f].text, options.max_gzip_bytes);
      return;
    }
    size_t i = order[task - helm_files.size()];
    assembled[i] = load_chunk(chunks[i], texts[chunks[i].file], options);
  });

  // Joined in input order. Errors of single documents are kept apart from errors of whole files.
  std::vector<LoadError> document_errors;
  for (std::optional<LoadError>& e : json_errors) {
    if (e) document_errors.push_back(std::move(*e));
  }
  std::vector<bool> has_documents(texts.size(), false);
  std::vector<Skipped> document_skips;  // of the files that hold objects: kept below
  size_t object_count = 0;
  for (const ChunkObjects& chunk : assembled)
    object_count += chunk.objects.size();
  reserve_huge(out.objects, object_count);
  for (size_t i = 0; i < chunks.size(); ++i) {
    ChunkObjects& chunk = assembled[i];
    if (!chunk.objects.empty() || !chunk.notes.empty()) has_documents[chunks[i].file] = true;
    std::move(chunk.objects.begin(), chunk.objects.end(), std::back_inserter(out.objects));
    std::move(chunk.errors.begin(), chunk.errors.end(), std::back_inserter(document_errors));
    std::move(chunk.trees.begin(), chunk.trees.end(), std::back_inserter(out.trees));
    std::move(chunk.notes.begin(), chunk.notes.end(), std::back_inserter(out.notes));
    std::move(chunk.skipped.begin(), chunk.skipped.end(), std::back_inserter(document_skips));
    chunk = ChunkObjects{};  // frees the chunk's copy before the next is moved
  }
  // Invalid documents are kept apart even when no valid object is left, so that a report (JSON,
  // SARIF) can still list them; the caller fails anyway.
  if (options.keep_valid_documents && errors.empty()) {
    out.invalid_documents = std::move(document_errors);
  } else {
    errors.insert(errors.end(), document_errors.begin(), document_errors.end());
  }
  // An empty file beside others decodes to no objects, as `kubectl apply -f DIR` reads it: a note.
  // Only when no input holds anything is that an error.
  bool anything = std::any_of(has_documents.begin(), has_documents.end(), [](bool b) { return b; });
  for (uint32_t f = 0; f < texts.size(); ++f) {
    auto in_file = [&](const LoadError& e) { return e.file == texts[f].name; };
    bool failed = std::any_of(errors.begin(), errors.end(), in_file) ||
                  std::any_of(out.invalid_documents.begin(), out.invalid_documents.end(), in_file);
    if (has_documents[f] || failed) continue;
    if (anything || !out.invalid_documents.empty()) {
      out.notes.push_back(
          fmt::format("{}: no Kubernetes objects: the file is empty or only comments, so it adds "
                      "nothing",
                      texts[f].name));
      out.skipped.push_back(
          Skipped{Skipped::Unit::kFile, texts[f].name, 0, "", "empty or only comments"});
    } else {
      errors.push_back(LoadError{
          texts[f].name, {}, "no Kubernetes objects: the input is empty or only comments"});
    }
  }
  // A file of comments only is counted once, as a file, not per document.
  for (Skipped& s : document_skips) {
    auto whole_file = [&](const Skipped& o) {
      return o.unit == Skipped::Unit::kFile && o.path == s.path;
    };
    if (std::none_of(out.skipped.begin(), out.skipped.end(), whole_file))
      out.skipped.push_back(std::move(s));
  }
  auto in_input_order = [&](const LoadError& a, const LoadError& b) {
    auto file_index = [&](const std::string& name) {
      return std::find(out.files.begin(), out.files.end(), name) - out.files.begin();
    };
    if (a.file != b.file) return file_index(a.file) < file_index(b.file);
    if (a.position.line != b.position.line) return a.position.line < b.position.line;
    return a.position.column < b.position.column;
  };
  if (!errors.empty()) {
    std::stable_sort(errors.begin(), errors.end(), in_input_order);
    return tl::unexpected(std::move(errors));
  }
  std::stable_sort(out.invalid_documents.begin(), out.invalid_documents.end(), in_input_order);
  if (options.keep_texts) {
    for (NamedText& t : texts)
      out.texts.push_back(std::move(t.text));
  }
  return out;
}

}  // namespace

tl::expected<std::string, std::string> read_standard_input(uint64_t max_bytes) {
  // Two inputs named "-" in one run (compare's modes, diff's sides, --baseline beside a manifest)
  // would otherwise see the second read come back empty.
  static std::atomic<bool> taken{false};
  if (taken.exchange(true)) {
    return tl::unexpected(std::string(
        "standard input can be read only once, and another input of this command already read "
        "it: save it to a file and name the file"));
  }
  return read_stream(stdin, max_bytes);
}

tl::expected<std::string, std::string> read_text_file(const std::string& path, uint64_t max_bytes) {
  if (path == "-") return read_standard_input(max_bytes);
  return read_file(path, max_bytes);
}

tl::expected<LoadedInput, std::vector<LoadError>> load_texts(std::vector<NamedText> texts,
                                                             const LoadOptions& options) {
  return parse_all(std::move(texts), {}, {}, options);
}

tl::expected<LoadedInput, std::vector<LoadError>> load_inputs(
    const std::vector<std::string>& inputs, const LoadOptions& options,
    std::vector<NamedText> rendered) {
  std::vector<std::string> notes;
  std::vector<Skipped> skipped;
  std::vector<LoadError> errors;
  std::vector<std::string> paths;
  bool stdin_used = false;
  for (const std::string& input : inputs) {
    if (input == "-") {
      if (stdin_used) {
        errors.push_back(LoadError{"-", {}, "standard input can be read only once"});
        continue;
      }
      stdin_used = true;
      paths.push_back(input);
      continue;
    }
    std::error_code ec;
    fs::file_status status = fs::status(input, ec);
    std::error_code link_ec;
    if (ec && fs::is_symlink(fs::symlink_status(input, link_ec))) {
      errors.push_back(
          LoadError{input, {}, broken_link(fs::read_symlink(input, link_ec).generic_string(), ec)});
    } else if (ec || !fs::exists(status)) {
      errors.push_back(LoadError{input, {}, "no such file or directory"});
    } else if (fs::is_directory(status)) {
      size_t first_skip = skipped.size();
      auto found = walk_directory(input, options.max_directory_entries, notes, skipped);
      if (!found) {
        errors.push_back(found.error());
      } else if (found->empty()) {
        bool kustomizations =
            std::any_of(skipped.begin() + static_cast<std::ptrdiff_t>(first_skip), skipped.end(),
                        [](const Skipped& s) { return s.reason == kNestedKustomization; });
        errors.push_back(LoadError{input,
                                   {},
                                   kustomizations
                                       ? "directory holds no manifests outside its kustomizations: "
                                         "give each kustomization as an input, or with -k"
                                       : "directory holds no .yaml, .yml or .json files"});
      } else {
        paths.insert(paths.end(), found->begin(), found->end());
      }
    } else {
      paths.push_back(input);
    }
  }
  // Inputs too large together are refused before any is read; parse_all checks again with stdin.
  uint64_t on_disk = total_bytes(rendered);
  for (const std::string& path : paths) {
    std::error_code ec;
    uintmax_t size = path == "-" ? 0 : fs::file_size(path, ec);
    if (!ec) on_disk += size;
  }
  if (on_disk > options.max_total_bytes) {
    return tl::unexpected(std::vector<LoadError>{
        too_large_together(paths.size() + rendered.size(), on_disk, options.max_total_bytes)});
  }
  std::vector<NamedText> texts(paths.size());
  std::vector<std::optional<LoadError>> read_errors(paths.size());
  parallel_for(paths.size(), options.jobs, [&](size_t i) {
    const std::string& path = paths[i];
    texts[i].name = path == "-" ? "<stdin>" : path;
    auto text = path == "-" ? read_standard_input(options.max_file_bytes)
                            : read_file(path, options.max_file_bytes);
    if (text) {
      texts[i].text = std::move(*text);
    } else if (path == "-") {
      read_errors[i] = LoadError{"-", {}, text.error()};
    } else {
      read_errors[i] = LoadError{texts[i].name, {}, fmt::format("cannot read: {}", text.error())};
    }
  });
  for (auto& e : read_errors) {
    if (e) errors.push_back(std::move(*e));
  }
  if (!errors.empty()) return tl::unexpected(std::move(errors));
  texts.insert(texts.begin(), std::make_move_iterator(rendered.begin()),
               std::make_move_iterator(rendered.end()));
  return parse_all(std::move(texts), std::move(notes), std::move(skipped), options);
}

}  // namespace footprint
