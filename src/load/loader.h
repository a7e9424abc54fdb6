// Reads manifests from files, directories and stdin into positioned YAML objects.
//
// Each object is a mapping with a non-empty `apiVersion` and `kind`. `kind: List` (and any
// `*List` with `items`) is unwrapped. Empty documents are skipped; those that hold comments (a
// manifest commented out), empty files and files a folder holds beside its manifests are listed
// in LoadedInput::skipped. Anything else that is not a Kubernetes object is an error with
// file:line:col: nothing is dropped silently.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tl/expected.hpp>
#include <vector>

#include "load/helm_gzip.h"
#include "load/skipped.h"
#include "load/yaml.h"

namespace footprint {

struct RawObject {
  yaml::Node node;    // the object's mapping
  uint32_t file = 0;  // index into LoadedInput::files
  yaml::Position position;
  std::string helm_source;    // from a preceding `# Source: chart/templates/x.yaml`, if any
  uint32_t begin_offset = 0;  // byte range of the object in its file
  uint32_t end_offset = 0;
  int32_t list_index = -1;  // position in `items` when unwrapped from a List
};

struct LoadError {
  std::string file;
  yaml::Position position;
  std::string message;
  // Where the document (or List item) the problem is in starts: the problems of one document
  // share it, so that a report counts documents, not problems. Line 0 when not known.
  yaml::Position document = {};
  // "file:line:col: message"
  std::string to_string() const;
};

struct LoadedInput {
  std::vector<std::string> files;  // as given on the command line, or found under a directory
  // Per file: the chart directory a rendered stream came from, so `# Source:` paths can be
  // resolved to template files; empty for plain manifests.
  std::vector<std::string> chart_roots;
  // Per file: "helm" for a chart's rendered stream, which exists only in memory: its name is the
  // chart's path and its line numbers are those of helm's output. Empty for files read as given.
  std::vector<std::string> renderers;
  std::vector<uint64_t> file_bytes;
  // Per file: where its namespaced objects without a namespace land (a GitOps object's
  // destination); empty for the release namespace (-n).
  std::vector<std::string> namespaces;
  // Per file: the gzip size of a file that Helm rendered (it has `# Source:` comments), which
  // bounds the size of the release Helm stores; nullopt for other files.
  std::vector<std::optional<GzipSize>> helm_gzip;
  std::vector<std::string> notes;  // e.g. files skipped in a directory
  std::vector<Skipped> skipped;    // each file, document or object not analysed, in input order
  // The delivery paths the GitOps objects of the input imply ("argocd", "flux"), each once.
  std::vector<std::string> delivery_paths;
  // Owners of the trees the objects point into: one per parsed chunk, not one per document.
  std::vector<std::shared_ptr<const yaml::Tree>> trees;
  std::vector<RawObject> objects;  // in file order, then document order
  unsigned jobs = 0;               // LoadOptions::jobs, for later stages that use threads
  std::vector<std::string> texts;  // each file's text, when LoadOptions::keep_texts
  // Documents that are not valid objects (a YAML error, no name, ...), when
  // LoadOptions::keep_valid_documents let the others load: the caller must still fail.
  std::vector<LoadError> invalid_documents;

  // The renderer of the file named `file` ("helm"), or empty.
  std::string_view renderer_of(std::string_view file) const;
};

// How many documents (or List items) `errors` are in: several problems of one document count once.
size_t count_documents(const std::vector<LoadError>& errors);

// The input limits below, and yaml::Limits (nesting depth, alias expansion), are documented in
// docs/limits.md; each is an error with the file and the limit, never a silent cut.
struct LoadOptions {
  yaml::Limits limits;
  unsigned jobs = 0;  // parser threads; 0 means one per core
  uint64_t max_file_bytes = uint64_t{1} << 30;
  uint64_t max_total_bytes = uint64_t{2} << 30;      // all inputs together
  uint64_t max_document_bytes = uint64_t{64} << 20;  // one YAML document: 21x the API server's
                                                     // 3 MiB request limit
  size_t max_directory_entries = 10'000;             // files and folders under one directory
  // Compressing Helm output stops once it passes this size (at the end of a piece, see
  // helm_gzip.h): 768 KiB of gzip is 1 MiB in base64, all a Helm release may hold, so
  // compressing further would only cost time.
  uint64_t max_gzip_bytes = uint64_t{768} * 1024;
  bool keep_texts = false;  // for commands that rewrite the input
  // An invalid document fails the load unless this is set: then the valid objects load and
  // LoadedInput::invalid_documents lists the others, even when no valid object is left. Errors
  // of whole files always fail.
  bool keep_valid_documents = false;
};

// Reads standard input, once per run: a second call is an error that says so.
tl::expected<std::string, std::string> read_standard_input(uint64_t max_bytes);

// Reads a whole file (a configuration or expectations file, not a manifest); "-" is standard
// input.
tl::expected<std::string, std::string> read_text_file(const std::string& path,
                                                      uint64_t max_bytes = uint64_t{1} << 30);

// Loads named in-memory texts, as if each were a file; used by tests and by chart rendering.
struct NamedText {
  std::string name;
  std::string text;
  // The braces keep GCC's -Wmissing-field-initializers quiet for {name, text}.
  std::string chart_root = {};  // NOLINT(readability-redundant-member-init): for rendered charts
  std::string renderer = {};    // NOLINT(readability-redundant-member-init): "helm" when rendered
  // NOLINTNEXTLINE(readability-redundant-member-init): for LoadedInput::namespaces
  std::string namespace_ = {};
};

// Each input is a file, a directory (searched recursively for *.yaml, *.yml, *.json) or "-".
// `rendered` texts (such as charts rendered by helm) come first.
tl::expected<LoadedInput, std::vector<LoadError>> load_inputs(
    const std::vector<std::string>& inputs, const LoadOptions& options,
    std::vector<NamedText> rendered = {});
tl::expected<LoadedInput, std::vector<LoadError>> load_texts(std::vector<NamedText> texts,
                                                             const LoadOptions& options);

}  // namespace footprint
