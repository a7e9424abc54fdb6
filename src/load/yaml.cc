#include "load/yaml.h"

#include <fmt/format.h>
#include <yaml.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "load/yaml_errors.h"

namespace footprint::yaml {

bool Node::is_null() const {
  if (!is_scalar() || style() != ScalarStyle::kPlain || !tag().empty()) return false;
  std::string_view t = text();
  return t.empty() || t == "~" || t == "null" || t == "Null" || t == "NULL";
}

std::string_view Node::tag() const {
  uint16_t tag = tree_->data(index_).tag;
  return tag == 0 ? std::string_view() : tree_->tag_name(tag);
}

std::string_view Node::str() const {
  if (!is_scalar() || is_null()) return {};
  return text();
}

Position Node::position() const {
  const Tree::NodeData& d = tree_->data(index_);
  return {d.line, d.column};
}

uint32_t Node::begin_offset() const {
  return tree_->data(index_).begin;
}
uint32_t Node::end_offset() const {
  return tree_->data(index_).end;
}

Node Node::at(std::initializer_list<std::string_view> path) const {
  Node node = *this;
  for (std::string_view step : path) {
    node = node.get(step);
    if (!node) return {};
  }
  return node;
}

void Tree::Free::operator()(char* p) const {
  std::free(p);
}

namespace {

// libyaml reports reader errors (bad encoding, control characters) by byte offset only.
Position position_at_offset(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  Position pos{1, 1};
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      line_start = i + 1;
    }
  }
  pos.column = static_cast<uint32_t>(offset - line_start + 1);
  return pos;
}

bool is_ascii(std::string_view text) {
  // OR-ing whole words, without an early exit, lets the compiler vectorize the loop.
  uint64_t seen = 0;
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    seen |= word;
  }
  for (; i < text.size(); ++i)
    seen |= static_cast<unsigned char>(text[i]);
  return (seen & 0x8080808080808080) == 0;
}

ScalarStyle style_of(yaml_scalar_style_t style) {
  switch (style) {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE:
      return ScalarStyle::kSingleQuoted;
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
      return ScalarStyle::kDoubleQuoted;
    case YAML_LITERAL_SCALAR_STYLE:
      return ScalarStyle::kLiteral;
    case YAML_FOLDED_SCALAR_STYLE:
      return ScalarStyle::kFolded;
    default:
      return ScalarStyle::kPlain;
  }
}

std::string_view as_view(const yaml_char_t* s) {
  return s ? std::string_view(reinterpret_cast<const char*>(s)) : std::string_view();
}

// Owns a libyaml event for the duration of one loop iteration.
struct Event {
  yaml_event_t event{};
  bool live = false;
  ~Event() {
    if (live) yaml_event_delete(&event);
  }
};

}  // namespace

class Builder {
 public:
  Builder(std::string_view text, ChunkStart start, const Limits& limits)
      : text_(text), start_(start), limits_(limits), previous_root_end_(start.offset) {}

  tl::expected<std::vector<Document>, ParseError> run() {
    detect_encoding();
    if (text_.size() >= limits_.max_stream_bytes) {
      return tl::unexpected(ParseError{{1, 1},
                                       fmt::format("input is {} bytes; the limit is {} bytes",
                                                   text_.size(), limits_.max_stream_bytes)});
    }
    tree_ = std::make_shared<Tree>();
    // Real manifests hold about one node per 30 bytes: one allocation for most chunks.
    tree_->nodes_.reserve(text_.size() / 24);
    tree_->children_.reserve(text_.size() / 24);
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
      return tl::unexpected(ParseError{{1, 1}, "out of memory"});
    // libyaml asserts on a null input even when it is empty.
    static const char kEmpty[] = "";
    const char* input = text_.data() ? text_.data() : kEmpty;
    yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(input),
                                 text_.size());
    auto result = loop(parser);
    yaml_parser_delete(&parser);
    if (!result) return tl::unexpected(result.error());
    // The arrays grew by doubling; the tree lives as long as the bundle, so drop the slack.
    tree_->nodes_.shrink_to_fit();
    tree_->children_.shrink_to_fit();
    tree_->strings_.shrink_to_fit();
    return std::move(documents_);
  }

 private:
  struct Frame {
    uint32_t node;
    size_t pending_begin;
    uint64_t weight;  // expanded size of the children so far, to bound aliases
    std::string anchor;
  };

  struct Anchor {
    uint32_t node;
    uint64_t weight;  // expanded size of the anchored node
  };

  tl::expected<void, ParseError> loop(yaml_parser_t& parser) {
    for (;;) {
      Event ev;
      if (!yaml_parser_parse(&parser, &ev.event)) return tl::unexpected(libyaml_error(parser));
      ev.live = true;
      const yaml_event_t& e = ev.event;
      switch (e.type) {
        case YAML_STREAM_END_EVENT:
          return {};
        case YAML_DOCUMENT_START_EVENT:
          start_document();
          break;
        case YAML_DOCUMENT_END_EVENT:
          end_document();
          break;
        case YAML_SCALAR_EVENT:
          add_scalar(ev.event);
          break;
        case YAML_ALIAS_EVENT:
          if (auto r = add_alias(e); !r) return r;
          break;
        case YAML_SEQUENCE_START_EVENT:
          if (auto r = start_collection(e, NodeType::kSequence, e.data.sequence_start.anchor,
                                        e.data.sequence_start.tag, e.data.sequence_start.implicit);
              !r)
            return r;
          break;
        case YAML_MAPPING_START_EVENT:
          if (auto r = start_collection(e, NodeType::kMapping, e.data.mapping_start.anchor,
                                        e.data.mapping_start.tag, e.data.mapping_start.implicit);
              !r)
            return r;
          break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
          if (auto r = end_collection(e); !r) return r;
          break;
        default:
          break;
      }
    }
  }

  ParseError libyaml_error(const yaml_parser_t& parser) const {
    std::string message = parser.problem ? parser.problem : "invalid YAML";
    if (parser.error == YAML_READER_ERROR) {
      if (parser.problem_value != -1) {
        message += fmt::format(" (byte 0x{:02x})", static_cast<unsigned>(parser.problem_value));
      }
      Position pos = position_at_offset(text_, parser.problem_offset);
      if (pos.line == 1) pos.column += start_.column - 1;
      pos.line += start_.line - 1;
      return {pos, message};
    }
    SyntaxProblem problem{message, parser.context ? parser.context : "",
                          position_of(parser.problem_mark), position_of(parser.context_mark)};
    return explain_syntax_problem(problem, text_, start_.line);
  }

  Position position_of(const yaml_mark_t& mark) const {
    // A chunk that starts inside a line (a JSON value after another) shifts only its first line.
    uint32_t shift = mark.line == 0 ? start_.column - 1 : 0;
    return {static_cast<uint32_t>(mark.line) + start_.line,
            static_cast<uint32_t>(mark.column + 1) + shift};
  }

  // libyaml counts marks in characters after any byte-order mark; offsets are bytes.
  uint32_t offset_of(const yaml_mark_t& mark) {
    size_t chars = mark.index;
    if (ascii_) return static_cast<uint32_t>(chars) + start_.offset;
    if (chars < cursor_chars_) {
      cursor_chars_ = 0;
      cursor_bytes_ = bom_bytes_;
    }
    if (encoding_ == Encoding::kUtf8) skip_utf8_words(chars);
    while (cursor_chars_ < chars && cursor_bytes_ < text_.size()) {
      cursor_bytes_ += char_width(cursor_bytes_);
      ++cursor_chars_;
    }
    return static_cast<uint32_t>(cursor_bytes_) + start_.offset;
  }

  // Advances the cursor eight bytes at a time while that stays at or before character `chars`:
  // every byte that is not a UTF-8 continuation byte (10xxxxxx) starts a character.
  void skip_utf8_words(size_t chars) {
    constexpr uint64_t kHighBits = 0x8080808080808080;
    while (cursor_bytes_ + 8 <= text_.size() && cursor_chars_ + 8 <= chars) {
      uint64_t word;
      std::memcpy(&word, text_.data() + cursor_bytes_, 8);
      uint64_t continuation = word & ~(word << 1) & kHighBits;
      cursor_chars_ += 8 - (continuation ? static_cast<size_t>(std::popcount(continuation)) : 0);
      cursor_bytes_ += 8;
    }
    // A word may end inside a character, which it has counted: the next one starts after it.
    while (cursor_bytes_ < text_.size() &&
           (static_cast<unsigned char>(text_[cursor_bytes_]) & 0xC0) == 0x80) {
      ++cursor_bytes_;
    }
  }

  size_t char_width(size_t at) const {
    auto byte = [&](size_t i) {
      return i < text_.size() ? static_cast<unsigned char>(text_[i]) : 0u;
    };
    if (encoding_ != Encoding::kUtf8) {
      unsigned high = encoding_ == Encoding::kUtf16Le ? byte(at + 1) : byte(at);
      return high >= 0xD8 && high <= 0xDB ? 4 : 2;  // a surrogate pair is one character
    }
    unsigned lead = byte(at);
    if (lead >= 0xF0) return 4;
    if (lead >= 0xE0) return 3;
    if (lead >= 0xC0) return 2;
    return 1;
  }

  void detect_encoding() {
    if (text_.starts_with("\xff\xfe")) {
      encoding_ = Encoding::kUtf16Le;
      bom_bytes_ = 2;
    } else if (text_.starts_with("\xfe\xff")) {
      encoding_ = Encoding::kUtf16Be;
      bom_bytes_ = 2;
    } else if (text_.starts_with("\xef\xbb\xbf")) {
      bom_bytes_ = 3;
    }
    ascii_ = bom_bytes_ == 0 && is_ascii(text_);
    cursor_bytes_ = bom_bytes_;
  }

  void start_document() {
    anchors_.clear();
    pending_.clear();
    frames_.clear();
    alias_expansion_ = 0;
  }

  void end_document() {
    Document doc;
    doc.tree = tree_;
    doc.preamble_begin = previous_root_end_;
    if (!pending_.empty()) {
      uint32_t root = pending_.front();
      doc.root = Node(tree_.get(), root);
      doc.root_begin = nodes()[root].begin;
      doc.root_end = nodes()[root].end;
      previous_root_end_ = doc.root_end;
    }
    documents_.push_back(std::move(doc));
  }

  std::vector<Tree::NodeData>& nodes() { return tree_->nodes_; }
  const std::vector<Tree::NodeData>& nodes() const { return tree_->nodes_; }

  uint16_t intern_tag(const yaml_char_t* tag) {
    std::string_view name = as_view(tag);
    if (name.empty()) return 0;
    for (size_t i = 0; i < tree_->tags_.size(); ++i) {
      if (tree_->tags_[i] == name) return static_cast<uint16_t>(i + 1);
    }
    if (tree_->tags_.size() >= Tree::kMaxTags) return 0;
    tree_->tags_.emplace_back(name);
    return static_cast<uint16_t>(tree_->tags_.size());
  }

  uint32_t new_node(const yaml_event_t& e, NodeType type, ScalarStyle style, uint16_t tag) {
    Tree::NodeData d{};
    d.type = type;
    d.style = style;
    d.tag = tag;
    Position pos = position_of(e.start_mark);
    d.line = pos.line;
    d.column = static_cast<uint16_t>(std::min(pos.column, Tree::kMaxColumn));
    d.begin = offset_of(e.start_mark);
    d.end = offset_of(e.end_mark);
    nodes().push_back(d);
    return static_cast<uint32_t>(nodes().size() - 1);
  }

  // Adds `weight` expanded nodes to the collection being built.
  void add_weight(uint64_t weight) {
    if (!frames_.empty()) frames_.back().weight += weight;
  }

  void add_scalar(yaml_event_t& e) {
    auto& s = e.data.scalar;
    // A tag libyaml reports for an untagged plain or quoted scalar is not one the author wrote.
    uint16_t tag = (s.plain_implicit || s.quoted_implicit) ? 0 : intern_tag(s.tag);
    ScalarStyle style = style_of(s.style);
    uint32_t node = new_node(e, NodeType::kScalar, style, tag);
    Tree::NodeData& d = nodes()[node];
    d.count = static_cast<uint32_t>(s.length);
    if (s.length >= kOwnBlockBytes) {
      // Copying a 100 MB value would hold it in memory three times over (the file, libyaml's
      // buffer, the copy): keep libyaml's buffer instead.
      d.in_block = true;
      d.first = static_cast<uint32_t>(tree_->blocks_.size());
      tree_->blocks_.emplace_back(reinterpret_cast<char*>(s.value));
      s.value = nullptr;
    } else {
      d.first = intern(std::string_view(reinterpret_cast<const char*>(s.value), s.length));
    }
    if (s.anchor) anchors_[std::string(as_view(s.anchor))] = Anchor{node, 1};
    pending_.push_back(node);
    add_weight(1);
  }

  static constexpr size_t kOwnBlockBytes = size_t{64} * 1024;

  // The offset in strings_ of `text`, appended unless an earlier scalar of the chunk had the
  // same text. Keys, kinds and repeated values (200,000 small documents are mostly the same
  // words) are then stored once: the text of the scalars is the largest part of a tree after
  // the nodes. An open-addressing table of offsets into strings_, which stays valid as the
  // arena grows.
  uint32_t intern(std::string_view text) {
    if (interned_.size() < 2 * (interned_count_ + 1)) grow_interned();
    size_t mask = interned_.size() - 1;
    size_t hash = std::hash<std::string_view>{}(text);
    for (size_t slot = hash & mask;; slot = (slot + 1) & mask) {
      Interned& entry = interned_[slot];
      if (entry.length == kEmptySlot) {
        entry = Interned{static_cast<uint32_t>(tree_->strings_.size()),
                         static_cast<uint32_t>(text.size()), hash};
        ++interned_count_;
        tree_->strings_.append(text);
        return entry.offset;
      }
      if (entry.hash == hash && entry.length == text.size() &&
          std::string_view(tree_->strings_).substr(entry.offset, entry.length) == text) {
        return entry.offset;
      }
    }
  }

  void grow_interned() {
    std::vector<Interned> old = std::move(interned_);
    interned_.assign(std::max<size_t>(64, 2 * old.size()), Interned{});
    size_t mask = interned_.size() - 1;
    for (const Interned& entry : old) {
      if (entry.length == kEmptySlot) continue;
      size_t slot = entry.hash & mask;
      while (interned_[slot].length != kEmptySlot)
        slot = (slot + 1) & mask;
      interned_[slot] = entry;
    }
  }

  static constexpr uint32_t kEmptySlot = UINT32_MAX;  // scalars here are under kOwnBlockBytes
  struct Interned {
    uint32_t offset = 0;
    uint32_t length = kEmptySlot;
    size_t hash = 0;
  };
  std::vector<Interned> interned_;  // a power of two in size, at most half full
  size_t interned_count_ = 0;

  tl::expected<void, ParseError> add_alias(const yaml_event_t& e) {
    std::string_view name = as_view(e.data.alias.anchor);
    auto it = anchors_.find(std::string(name));
    if (it == anchors_.end()) {
      return tl::unexpected(ParseError{
          position_of(e.start_mark),
          fmt::format("unknown anchor '{}' (an alias must follow its complete anchor)", name)});
    }
    alias_expansion_ += it->second.weight;
    if (alias_expansion_ > limits_.max_alias_expansion) {
      return tl::unexpected(ParseError{
          position_of(e.start_mark),
          fmt::format("aliases expand to more than {} nodes; refusing a possible alias bomb",
                      limits_.max_alias_expansion)});
    }
    pending_.push_back(it->second.node);
    add_weight(it->second.weight);
    return {};
  }

  tl::expected<void, ParseError> start_collection(const yaml_event_t& e, NodeType type,
                                                  const yaml_char_t* anchor, const yaml_char_t* tag,
                                                  int implicit) {
    if (frames_.size() >= limits_.max_depth) {
      return tl::unexpected(
          ParseError{position_of(e.start_mark),
                     fmt::format("nesting deeper than {} levels", limits_.max_depth)});
    }
    uint32_t node = new_node(e, type, ScalarStyle::kPlain, implicit ? 0 : intern_tag(tag));
    // `{{ x }}` is a flow mapping whose key is a mapping: valid YAML, but never a manifest (a
    // key must be a string in JSON), and always a Helm template left unrendered.
    size_t begin = nodes()[node].begin - start_.offset;
    if (type == NodeType::kMapping && begin + 2 <= text_.size() &&
        text_.compare(begin, 2, "{{") == 0) {
      return tl::unexpected(ParseError{position_of(e.start_mark), unrendered_template_message()});
    }
    frames_.push_back(Frame{node, pending_.size(), 0, std::string(as_view(anchor))});
    return {};
  }

  tl::expected<void, ParseError> end_collection(const yaml_event_t& e) {
    Frame frame = std::move(frames_.back());
    frames_.pop_back();
    Tree::NodeData& d = nodes()[frame.node];
    d.end = offset_of(e.end_mark);
    if (d.type == NodeType::kMapping) {
      if (auto r = finish_mapping(frame.pending_begin); !r) return r;
    }
    size_t count = pending_.size() - frame.pending_begin;
    Tree::NodeData& done = nodes()[frame.node];
    std::vector<uint32_t>& children = tree_->children_;
    done.first = static_cast<uint32_t>(children.size());
    done.count = static_cast<uint32_t>(done.type == NodeType::kMapping ? count / 2 : count);
    children.insert(children.end(), pending_.begin() + static_cast<ptrdiff_t>(frame.pending_begin),
                    pending_.end());
    pending_.resize(frame.pending_begin);
    uint64_t weight = 1 + frame.weight;
    if (!frame.anchor.empty()) anchors_[frame.anchor] = Anchor{frame.node, weight};
    pending_.push_back(frame.node);
    add_weight(weight);
    return {};
  }

  bool is_merge_key(uint32_t node) const {
    const Tree::NodeData& d = nodes()[node];
    if (d.type != NodeType::kScalar) return false;
    if (d.tag != 0) return tree_->tag_name(d.tag) == "tag:yaml.org,2002:merge";
    return d.style == ScalarStyle::kPlain && scalar_text(node) == "<<";
  }

  std::string_view scalar_text(uint32_t node) const { return tree_->scalar_text(nodes()[node]); }

  ParseError duplicate_key_error(uint32_t key) const {
    const Tree::NodeData& kd = nodes()[key];
    return {{kd.line, kd.column}, fmt::format("duplicate key \"{}\" in mapping", scalar_text(key))};
  }

  // Rejects duplicate keys and applies merge keys to the pairs in pending_[begin..].
  tl::expected<void, ParseError> finish_mapping(size_t begin) {
    const size_t end = pending_.size();
    bool has_merge = false;
    auto is_plain_key = [&](size_t slot) {
      if (is_merge_key(pending_[slot])) {
        has_merge = true;
        return false;
      }
      return nodes()[pending_[slot]].type == NodeType::kScalar;
    };
    if (end - begin <= 32) {
      for (size_t i = begin; i < end; i += 2) {
        if (!is_plain_key(i)) continue;
        std::string_view text = scalar_text(pending_[i]);
        for (size_t j = begin; j < i; j += 2) {
          if (nodes()[pending_[j]].type == NodeType::kScalar && !is_merge_key(pending_[j]) &&
              scalar_text(pending_[j]) == text) {
            return tl::unexpected(duplicate_key_error(pending_[i]));
          }
        }
      }
    } else {
      std::unordered_set<std::string_view> seen;
      seen.reserve((end - begin) / 2);
      for (size_t i = begin; i < end; i += 2) {
        if (is_plain_key(i) && !seen.insert(scalar_text(pending_[i])).second)
          return tl::unexpected(duplicate_key_error(pending_[i]));
      }
    }
    if (!has_merge) return {};
    return apply_merge_keys(begin);
  }

  // YAML 1.1 merge: keys written in the mapping win over merged ones; earlier sources win over
  // later ones. Merged pairs are appended after the explicit pairs.
  tl::expected<void, ParseError> apply_merge_keys(size_t begin) {
    std::vector<uint32_t> merged;
    std::vector<uint32_t> sources;
    std::unordered_set<std::string_view> keys;
    for (size_t i = begin; i < pending_.size(); i += 2) {
      if (is_merge_key(pending_[i])) {
        sources.push_back(pending_[i + 1]);
        continue;
      }
      merged.push_back(pending_[i]);
      merged.push_back(pending_[i + 1]);
      if (nodes()[pending_[i]].type == NodeType::kScalar) keys.insert(scalar_text(pending_[i]));
    }
    const std::vector<uint32_t>& children = tree_->children_;
    auto merge_from = [&](uint32_t source) -> tl::expected<void, ParseError> {
      const Tree::NodeData& sd = nodes()[source];
      if (sd.type != NodeType::kMapping) {
        return tl::unexpected(
            ParseError{{sd.line, sd.column},
                       "the value of a merge key (<<) must be a mapping or a list of mappings"});
      }
      for (uint32_t i = 0; i < sd.count; ++i) {
        uint32_t key = children[sd.first + 2 * i];
        if (nodes()[key].type == NodeType::kScalar && !keys.insert(scalar_text(key)).second)
          continue;
        merged.push_back(key);
        merged.push_back(children[sd.first + 2 * i + 1]);
      }
      return {};
    };
    for (uint32_t source : sources) {
      const Tree::NodeData& sd = nodes()[source];
      if (sd.type == NodeType::kSequence) {
        for (uint32_t i = 0; i < sd.count; ++i) {
          if (auto r = merge_from(children[sd.first + i]); !r) return r;
        }
      } else if (auto r = merge_from(source); !r) {
        return r;
      }
    }
    pending_.resize(begin);
    pending_.insert(pending_.end(), merged.begin(), merged.end());
    return {};
  }

  enum class Encoding : uint8_t { kUtf8, kUtf16Le, kUtf16Be };

  std::string_view text_;
  Encoding encoding_ = Encoding::kUtf8;
  bool ascii_ = true;  // then characters are bytes
  size_t bom_bytes_ = 0;
  size_t cursor_chars_ = 0;  // a character index and its byte offset, advanced as marks arrive
  size_t cursor_bytes_ = 0;
  ChunkStart start_;
  Limits limits_;
  std::vector<Document> documents_;
  std::shared_ptr<Tree> tree_;  // every document of the stream
  std::unordered_map<std::string, Anchor> anchors_;
  std::vector<uint32_t> pending_;  // completed children of the open collections, in order
  std::vector<Frame> frames_;
  uint64_t alias_expansion_ = 0;
  uint32_t previous_root_end_;
};

tl::expected<std::vector<Document>, ParseError> parse(std::string_view text, const Limits& limits) {
  return Builder(text, ChunkStart{}, limits).run();
}

tl::expected<std::vector<Document>, ParseError> parse_chunk(std::string_view chunk,
                                                            ChunkStart start,
                                                            const Limits& limits) {
  return Builder(chunk, start, limits).run();
}

}  // namespace footprint::yaml
