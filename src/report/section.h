// A report section: titled blocks of lines and tables for text and Markdown, and a JSON value.
// Analysis areas each turn their results into one Section; the writers are generic over them.
#pragma once

#include <cstddef>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/units.h"

namespace footprint {

using Json = nlohmann::ordered_json;

// `j` as JSON text, as dump() writes it (indent -1: on one line), with each byte of a string that
// is not UTF-8 (a file name can hold any) written as U+FFFD: JSON text is Unicode (RFC 8259), and
// nlohmann's dump() throws on such a byte.
std::string dump_json(const Json& j, int indent = -1);

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> right_aligned;  // per column; missing entries are left-aligned
  // Per column: cells already written as Markdown (a link), which the Markdown table keeps as
  // they are; missing entries are escaped.
  std::vector<bool> markdown;
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

// The parts of a section a report format reads: its blocks (text, Markdown, HTML) or its JSON
// (JSON); SARIF, GitHub annotations and JUnit read neither. A section as large as Permissions
// (tens of megabytes on a cluster's worth of subjects) builds only what the format reads.
struct SectionParts {
  bool blocks = true;
  bool json = true;
};

// A width that never wraps: tables written to a file or a pipe keep one line per row, so grep
// finds whole rows (as kubectl does).
constexpr size_t kNoWrap = std::numeric_limits<size_t>::max();

// Aligned columns, two spaces apart, each line indented by `indent`. When the table is wider than
// `width`, the widest columns narrow and their cells wrap at spaces, continuation lines indented
// by two; a column never narrows below its longest word. When the columns cannot fit that way,
// each row becomes a record of "HEADER: value" lines, records apart by a blank line. Words are
// never split: only a word wider than the whole width passes it, on a line of its own.
std::string render_text_table(const Table& table, size_t indent, size_t width);
// GitHub-flavoured Markdown; cells are escaped with escape_markdown.
std::string render_markdown_table(const Table& table);
// Wraps `text` at spaces to `width`, indenting every line by `indent`; a word longer than the
// line stays whole.
std::string wrap_text(std::string_view text, size_t indent, size_t width);
// Display width of UTF-8 text, counting code points; ANSI colour sequences take none.
size_t display_width(std::string_view text);

// Text for a Markdown paragraph or table cell: characters Markdown would read as formatting or
// HTML (`*`, `_`, `<digest>`, `[x]`, a leading `#` or `-`...) are backslash-escaped, except
// inside `code spans`, which are kept. An unpaired backtick is escaped.
std::string escape_markdown(std::string_view text);
// `text` as a code span, with a longer fence when it holds backticks.
std::string markdown_code(std::string_view text);
}  // namespace footprint
