// A compact, read-only YAML tree built from libyaml events.
//
// Every node keeps its position, its byte range in the stream and, for scalars, the exact text
// and quoting style, so callers decide deliberately what `yes`, `0777` or `=` mean. Nodes live
// in one flat array per parse; strings live in one arena per parse, each distinct text once,
// except very long scalars, which keep the buffer libyaml built them in. Aliases share the anchored
// node, so the tree is a DAG whose expanded size is bounded while parsing.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

namespace footprint::yaml {

enum class NodeType : uint8_t { kScalar, kSequence, kMapping };
enum class ScalarStyle : uint8_t { kPlain, kSingleQuoted, kDoubleQuoted, kLiteral, kFolded };

struct Position {
  uint32_t line = 0;    // 1-based
  uint32_t column = 0;  // 1-based
};

class Tree;

// A handle to one node of a Tree; cheap to copy. A default-constructed Node is "absent".
class Node {
 public:
  Node() = default;
  Node(const Tree* tree, uint32_t index) : tree_(tree), index_(index) {}

  explicit operator bool() const { return tree_ != nullptr; }
  bool operator==(const Node& other) const = default;

  NodeType type() const;
  bool is_scalar() const { return tree_ && type() == NodeType::kScalar; }
  bool is_sequence() const { return tree_ && type() == NodeType::kSequence; }
  bool is_mapping() const { return tree_ && type() == NodeType::kMapping; }
  // A plain untagged `~`, `null`, `Null`, `NULL` or empty scalar, as YAML 1.1 resolves it.
  bool is_null() const;

  // Scalars: the value after unescaping and folding, and how it was written.
  std::string_view text() const;
  ScalarStyle style() const;
  bool is_plain() const { return style() == ScalarStyle::kPlain; }
  // The explicit tag, e.g. "tag:yaml.org,2002:str"; empty when none was written.
  std::string_view tag() const;
  // The scalar's text when it is a string to Kubernetes (any non-null scalar); "" otherwise.
  std::string_view str() const;

  Position position() const;
  uint32_t begin_offset() const;  // byte range in the stream
  uint32_t end_offset() const;

  // Sequences: items. Mappings: pairs. size() counts items or pairs.
  size_t size() const;
  Node item(size_t i) const;
  Node key(size_t i) const;
  Node value(size_t i) const;
  // The value of the first scalar key equal to `name`, or an absent Node.
  Node get(std::string_view name) const;
  // get() along a path of keys; absent as soon as one step is missing or not a mapping.
  Node at(std::initializer_list<std::string_view> path) const;

  const Tree* tree() const { return tree_; }
  uint32_t index() const { return index_; }

 private:
  const Tree* tree_ = nullptr;
  uint32_t index_ = 0;
};

struct Limits {
  uint32_t max_depth = 512;                       // real manifests nest about 40 deep
  uint64_t max_alias_expansion = 1'000'000;       // nodes reachable through aliases
  uint64_t max_stream_bytes = uint64_t{1} << 31;  // offsets are 32-bit
};

struct ParseError {
  Position position;
  std::string message;
};

class Tree {
 public:
  // 24 bytes: real manifests average one node per 30 bytes, so this dominates memory.
  struct NodeData {
    NodeType type : 2;
    ScalarStyle style : 3;
    bool in_block : 1;  // a long scalar whose text is blocks_[first]
    uint16_t tag : 10;  // 0: none, else index + 1 into tags_
    uint16_t column;    // 1-based; saturates at 65535
    uint32_t line;
    uint32_t begin;
    uint32_t end;
    uint32_t first;  // scalar: offset in strings_ (or index in blocks_); collection: in children_
    uint32_t count;  // scalar: length; sequence: items; mapping: pairs
  };
  static constexpr uint16_t kMaxTags = (1 << 10) - 1;
  static constexpr uint32_t kMaxColumn = UINT16_MAX;
  static_assert(sizeof(NodeData) == 24);

  const NodeData& data(uint32_t index) const { return nodes_[index]; }
  std::string_view scalar_text(const NodeData& d) const {
    return std::string_view(d.in_block ? blocks_[d.first].get() : strings_.data() + d.first,
                            d.count);
  }
  uint32_t child(uint32_t slot) const { return children_[slot]; }
  std::string_view tag_name(uint16_t tag) const { return tags_[tag - 1]; }
  size_t node_count() const { return nodes_.size(); }

 private:
  friend class Builder;
  std::vector<NodeData> nodes_;
  std::vector<uint32_t> children_;
  std::string strings_;
  std::vector<std::string> tags_;
  struct Free {
    void operator()(char* p) const;
  };
  std::vector<std::unique_ptr<char, Free>> blocks_;  // from libyaml's malloc
};

// One document of a stream. Documents parsed together share one tree; Nodes stay valid while
// any of them lives.
struct Document {
  std::shared_ptr<const Tree> tree;
  Node root;
  // Byte range of the root node, and the text between the previous document's root and this
  // one, where `---` and comments such as Helm's `# Source:` live.
  uint32_t root_begin = 0;
  uint32_t root_end = 0;
  uint32_t preamble_begin = 0;
};

// Parses every document of a multi-document stream. Duplicate keys, unknown aliases, nesting
// deeper than limits.max_depth and alias expansion beyond limits.max_alias_expansion are errors.
// Merge keys (`<<`) are applied as YAML 1.1 and kubectl's decoder do: explicit keys win.
tl::expected<std::vector<Document>, ParseError> parse(std::string_view text,
                                                      const Limits& limits = {});

// Where a chunk of a larger stream starts, so positions and offsets refer to the whole stream.
// A YAML chunk starts at the beginning of a line; a JSON value may start inside one.
struct ChunkStart {
  uint32_t offset = 0;
  uint32_t line = 1;
  uint32_t column = 1;
};

tl::expected<std::vector<Document>, ParseError> parse_chunk(std::string_view chunk,
                                                            ChunkStart start,
                                                            const Limits& limits = {});

// Node accessors run in every analysis loop; they are defined here so they inline.

// A missing node (get() of an absent key) has empty text and no children; type() needs a node
// that exists (the is_*() tests check first).
inline NodeType Node::type() const {
  return tree_->data(index_).type;
}

inline std::string_view Node::text() const {
  if (!tree_) return {};
  const Tree::NodeData& d = tree_->data(index_);
  if (d.type != NodeType::kScalar) return {};
  return tree_->scalar_text(d);
}

inline ScalarStyle Node::style() const {
  return tree_ ? tree_->data(index_).style : ScalarStyle{};
}

inline size_t Node::size() const {
  if (!tree_) return 0;
  const Tree::NodeData& d = tree_->data(index_);
  return d.type == NodeType::kScalar ? 0 : d.count;
}

inline Node Node::item(size_t i) const {
  if (!tree_) return {};
  const Tree::NodeData& d = tree_->data(index_);
  return Node(tree_, tree_->child(d.first + static_cast<uint32_t>(i)));
}

inline Node Node::key(size_t i) const {
  if (!tree_) return {};
  const Tree::NodeData& d = tree_->data(index_);
  return Node(tree_, tree_->child(d.first + static_cast<uint32_t>(2 * i)));
}

inline Node Node::value(size_t i) const {
  if (!tree_) return {};
  const Tree::NodeData& d = tree_->data(index_);
  return Node(tree_, tree_->child(d.first + static_cast<uint32_t>(2 * i + 1)));
}

inline Node Node::get(std::string_view name) const {
  if (!tree_) return {};
  const Tree::NodeData& d = tree_->data(index_);
  if (d.type != NodeType::kMapping) return {};
  for (uint32_t slot = d.first, end = d.first + 2 * d.count; slot < end; slot += 2) {
    const Tree::NodeData& k = tree_->data(tree_->child(slot));
    if (k.type == NodeType::kScalar && k.count == name.size() && tree_->scalar_text(k) == name)
      return Node(tree_, tree_->child(slot + 1));
  }
  return {};
}

}  // namespace footprint::yaml
