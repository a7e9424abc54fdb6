// A report section: titled blocks of lines and tables for text and Markdown, and a JSON value.
// Analysis areas each turn their results into one Section; the writers are generic over them.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/units.h"

namespace footprint {

using Json = nlohmann::ordered_json;

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> right_aligned;  // per column; missing entries are left-aligned
};

// Some lines of prose, then optionally a table; blocks are separated by a blank line.
struct Block {
  std::vector<std::string> lines;
  std::optional<Table> table;
  size_t indent = 2;  // text output only
};

struct Section {
  std::string id;     // key in the JSON report
  std::string title;  // heading in text and Markdown
  std::vector<Block> blocks;
  Json json;
};

// Aligned columns, two spaces apart, each line indented by `indent`. When a row is wider than
// `width`, its last column wraps under itself.
std::string render_text_table(const Table& table, size_t indent, size_t width);
std::string render_markdown_table(const Table& table);
// Wraps `text` at `width`, indenting every line by `indent`.
std::string wrap_text(std::string_view text, size_t indent, size_t width);
// Display width of UTF-8 text, counting code points.
size_t display_width(std::string_view text);

}  // namespace footprint
