#include "load/assemble.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "load/helm_tests.h"

namespace footprint {

namespace {

// Helm writes `# Source: <chart>/templates/<file>` after each `---`.
std::string helm_source_in(std::string_view preamble) {
  std::string_view found;
  size_t pos = 0;
  while (pos < preamble.size()) {
    size_t eol = preamble.find('\n', pos);
    std::string_view line = preamble.substr(pos, eol == std::string_view::npos ? eol : eol - pos);
    size_t start = line.find_first_not_of(" \t");
    if (start != std::string_view::npos && line.substr(start).starts_with("# Source:")) {
      found = line.substr(start + 9);
    }
    if (eol == std::string_view::npos) break;
    pos = eol + 1;
  }
  while (!found.empty() && (found.front() == ' ' || found.front() == '\t'))
    found.remove_prefix(1);
  while (!found.empty() && (found.back() == ' ' || found.back() == '\r'))
    found.remove_suffix(1);
  return std::string(found);
}

// Where an empty document's own comment starts (a manifest commented out, say): the first comment
// after its `---`, other than Helm's `# Source:`; npos when it has none. Comments before the
// `---` end the previous document.
size_t first_comment(std::string_view text) {
  size_t begin = 0;
  for (size_t at = text.find("---"); at != std::string_view::npos; at = text.find("---", at + 1)) {
    if (at == 0 || text[at - 1] == '\n') begin = at + 3;
  }
  size_t pos = std::min(begin, text.size());
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    std::string_view line = text.substr(pos, eol == std::string_view::npos ? eol : eol - pos);
    size_t start = line.find_first_not_of(" \t\r");
    if (start != std::string_view::npos && line[start] == '#' &&
        !line.substr(start).starts_with("# Source:"))
      return pos + start;
    if (eol == std::string_view::npos) break;
    pos = eol + 1;
  }
  return std::string_view::npos;
}

std::string_view node_kind_name(const yaml::Node& node) {
  if (node.is_sequence()) return "a sequence";
  if (node.is_mapping()) return "a mapping";
  return "a scalar";
}

class Assembler {
 public:
  Assembler(uint32_t file, const std::string& name, ChunkObjects& out)
      : file_(file), name_(name), out_(out) {}

  void add_document(const yaml::Document& doc, std::string_view text, uint64_t max_bytes) {
    const yaml::Node root = doc.root;
    if (!root) return;
    std::string source =
        helm_source_in(text.substr(doc.preamble_begin, doc.root_begin - doc.preamble_begin));
    // Helm writes a CRD of the chart's crds/ folder as `---`, `# Source: chart/crds/x.yaml`,
    // `---`, the CRD: the comment ends up in an empty document of its own and names the next.
    if (root.is_null()) {
      if (!source.empty()) source_of_next_ = std::move(source);
      std::string_view own = text.substr(doc.preamble_begin, doc.root_end - doc.preamble_begin);
      if (size_t comment = first_comment(own); comment != std::string_view::npos) {
        // The root's line, less the lines from the comment to the root.
        auto lines = static_cast<uint32_t>(std::count(own.begin() + comment, own.end(), '\n'));
        out_.skipped.push_back(Skipped{Skipped::Unit::kDocument, name_,
                                       root.position().line - lines, "", "only comments"});
      }
      return;
    }
    if (source.empty()) source = std::move(source_of_next_);
    source_of_next_.clear();
    object_ = root.position();
    if (uint64_t bytes = root.end_offset() - root.begin_offset(); bytes > max_bytes) {
      error(root,
            fmt::format("a document of {} bytes; the limit is {} bytes (the API server takes at "
                        "most 3 MiB in one request)",
                        bytes, max_bytes));
      return;
    }
    if (!root.is_mapping()) {
      error(root, fmt::format("expected a Kubernetes object (a mapping), found {}",
                              node_kind_name(root)));
      return;
    }
    if (!check_object(root)) return;
    std::string_view kind = root.get("kind").text();
    yaml::Node items = root.get("items");
    if (kind.ends_with("List") && (items.is_sequence() || items.is_null())) {
      for (size_t i = 0; i < items.size(); ++i) {
        yaml::Node item = items.item(i);
        object_ = item.position();
        if (!item.is_mapping()) {
          error(item, fmt::format("{} item {} is {}, not a Kubernetes object", kind, i,
                                  node_kind_name(item)));
          continue;
        }
        if (check_object(item) && check_name(item)) {
          add(item, source, static_cast<int32_t>(i));
        }
      }
      return;
    }
    if (kind == "List" && !items && root.get("apiVersion").text() == "v1") {
      // apimachinery's unstructured decoder takes a document without `items` for one object:
      // kubectl then finds no kind List to send it to.
      error(root,
            "List has no items, so kubectl reads it as one object of kind List, which no API "
            "serves (\"no matches for kind \"List\" in version \"v1\"\"); an empty list is "
            "`items: []`");
      return;
    }
    if (check_name(root)) add(root, std::move(source), -1);
  }

 private:
  bool check_name(const yaml::Node& node) {
    yaml::Node metadata = node.get("metadata");
    if (metadata.get("name").str().empty() && metadata.get("generateName").str().empty()) {
      // client-go refuses to send it (rest/request.go: "resource name may not be empty").
      error(node,
            fmt::format("{} has no metadata.name; kubectl apply fails with \"resource name may "
                        "not be empty\"",
                        node.get("kind").text()));
      return false;
    }
    return true;
  }

  bool check_object(const yaml::Node& node) {
    for (std::string_view field : {"apiVersion", "kind"}) {
      yaml::Node value = node.get(field);
      if (!value || value.is_null()) {
        error(node, fmt::format("object has no {}", field));
        return false;
      }
      if (!value.is_scalar() || value.text().empty()) {
        error(value, fmt::format("{} must be a non-empty string", field));
        return false;
      }
    }
    yaml::Node metadata = node.get("metadata");
    if (metadata && !metadata.is_null() && !metadata.is_mapping()) {
      error(metadata, "metadata must be a mapping");
      return false;
    }
    return true;
  }

  void add(const yaml::Node& node, std::string source, int32_t list_index) {
    RawObject obj;
    obj.node = node;
    obj.file = file_;
    obj.position = node.position();
    obj.helm_source = std::move(source);
    obj.begin_offset = node.begin_offset();
    obj.end_offset = node.end_offset();
    obj.list_index = list_index;
    if (helm_test_hook(obj)) {
      out_.notes.push_back(helm_test_note(obj, name_));
      out_.skipped.push_back(Skipped{
          Skipped::Unit::kObject, name_, obj.position.line,
          fmt::format("{} {}", node.get("kind").str(), node.get("metadata").get("name").str()),
          "Helm test hooks, which helm test runs and installing does not create"});
      return;
    }
    out_.objects.push_back(std::move(obj));
  }

  void error(const yaml::Node& at, std::string message) {
    out_.errors.push_back(LoadError{name_, at.position(), std::move(message), object_});
  }

  uint32_t file_;
  const std::string& name_;
  yaml::Position object_;  // where the document or List item being assembled starts
  ChunkObjects& out_;
  std::string source_of_next_;  // a `# Source:` comment alone in an empty document
};

}  // namespace

void assemble_documents(std::vector<yaml::Document> documents, uint32_t file,
                        const std::string& name, std::string_view text, uint64_t max_document_bytes,
                        ChunkObjects& out) {
  Assembler assembler(file, name, out);
  for (yaml::Document& doc : documents) {
    assembler.add_document(doc, text, max_document_bytes);
    if (out.trees.empty() || out.trees.back() != doc.tree) out.trees.push_back(std::move(doc.tree));
  }
}

}  // namespace footprint
