#include "report/section.h"

#include <algorithm>

namespace footprint {

size_t display_width(std::string_view text) {
  size_t width = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      // An ANSI colour sequence, ESC [ params m, takes no room on the terminal.
      size_t end = text.find('m', i);
      if (end != std::string_view::npos) {
        i = end;
        continue;
      }
    }
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++width;
  }
  return width;
}

namespace {

// Splits into lines of at most `width` display columns, breaking only at spaces: a word wider
// than the line is kept whole on a line of its own. Lines after the first of each paragraph
// start with `continuation` spaces.
std::vector<std::string> break_lines(std::string_view text, size_t width, size_t continuation = 0) {
  std::vector<std::string> lines;
  width = std::max<size_t>(width, 1);
  size_t pos = 0;
  while (pos < text.size()) {
    size_t newline = text.find('\n', pos);
    std::string_view para =
        text.substr(pos, newline == std::string_view::npos ? newline : newline - pos);
    pos = newline == std::string_view::npos ? text.size() : newline + 1;
    std::string pad;
    std::string line;
    size_t start = 0;
    while (start <= para.size()) {
      size_t space = para.find(' ', start);
      std::string_view word =
          para.substr(start, space == std::string_view::npos ? space : space - start);
      size_t room = width > pad.size() ? width - pad.size() : 1;
      if (!line.empty() && display_width(line) + 1 + display_width(word) > room) {
        lines.push_back(pad + line);
        line.clear();
        pad.assign(std::min(continuation, width / 2), ' ');
      }
      if (!line.empty()) line += ' ';
      line.append(word);
      if (space == std::string_view::npos) break;
      start = space + 1;
    }
    lines.push_back(pad + line);
  }
  return lines;
}

}  // namespace

std::string wrap_text(std::string_view text, size_t indent, size_t width) {
  std::string out;
  std::string pad(indent, ' ');
  for (const std::string& line : break_lines(text, width > indent ? width - indent : 20)) {
    out += pad + line + "\n";
  }
  return out;
}

namespace {

constexpr size_t kContinuation = 2;  // how far a cell's continuation lines are indented
constexpr size_t kMinColumn = 8;

// One record per row, a "HEADER: value" line per non-empty cell, for a table whose columns
// cannot all hold their longest word side by side. Values wrap at spaces under their first
// word; a word wider than the room left of the line goes on a line of its own, less indented,
// so that only a word wider than the whole line can ever pass the edge.
std::string render_stacked(const Table& table, size_t indent, size_t width) {
  size_t label = 0;
  for (const std::string& h : table.header)
    label = std::max(label, display_width(h) + 1);
  size_t value_at = indent + label + 2;
  size_t room = width > value_at ? width - value_at : 0;
  std::string pad(indent, ' ');
  std::string hanging(indent + 4, ' ');
  size_t hanging_room = width > hanging.size() ? width - hanging.size() : 1;
  std::string out;
  for (size_t r = 0; r < table.rows.size(); ++r) {
    if (r > 0) out += "\n";
    const std::vector<std::string>& row = table.rows[r];
    for (size_t c = 0; c < table.header.size() && c < row.size(); ++c) {
      if (row[c].empty()) continue;
      std::string line = pad + (table.header[c].empty() ? "" : table.header[c] + ":");
      std::vector<std::string> lines = break_lines(row[c], std::max<size_t>(room, 1));
      bool first_fits = room > 0 && display_width(lines.front()) <= room;
      if (!first_fits) lines = break_lines(row[c], hanging_room);
      for (size_t i = 0; i < lines.size(); ++i) {
        if (i == 0 && first_fits) {
          line += std::string(value_at - display_width(line), ' ') + lines[i];
          continue;
        }
        out += line + "\n";
        bool fits = first_fits && display_width(lines[i]) <= room;
        line = (fits ? std::string(value_at, ' ') : hanging) + lines[i];
      }
      out += line + "\n";
    }
  }
  return out;
}

}  // namespace

std::string render_text_table(const Table& table, size_t indent, size_t width) {
  size_t columns = table.header.size();
  std::vector<size_t> widths(columns, 0);
  std::vector<size_t> longest_word(columns, 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (size_t c = 0; c < columns && c < row.size(); ++c) {
      std::string_view cell = row[c];
      widths[c] = std::max(widths[c], display_width(cell));
      size_t start = 0;
      while (start <= cell.size()) {
        size_t space = cell.find(' ', start);
        size_t end = space == std::string_view::npos ? cell.size() : space;
        longest_word[c] = std::max(longest_word[c], display_width(cell.substr(start, end - start)));
        start = end + 1;
      }
    }
  };
  measure(table.header);
  for (const auto& row : table.rows)
    measure(row);
  auto right_aligned = [&](size_t c) {
    return c < table.right_aligned.size() && table.right_aligned[c];
  };
  // The narrowest a column may get: every cell then wraps within it, so an identifier is never
  // split and never pushes the columns after it out of line. That is its longest word, or up to
  // a continuation line's indent more where a long word starts a continuation line. Right-aligned
  // cells (numbers) never wrap.
  auto wraps_within = [&](size_t c, size_t w) {
    auto fits = [&](const std::vector<std::string>& row) {
      if (c >= row.size()) return true;
      for (const std::string& line : break_lines(row[c], w, kContinuation)) {
        if (display_width(line) > w) return false;
      }
      return true;
    };
    return fits(table.header) && std::all_of(table.rows.begin(), table.rows.end(), fits);
  };
  auto total = [&] {
    size_t sum = indent;
    for (size_t w : widths)
      sum += w + 2;
    return sum - 2;
  };
  if (total() > width) {
    std::vector<size_t> floors(columns);
    for (size_t c = 0; c < columns; ++c) {
      size_t w = longest_word[c];
      while (!right_aligned(c) && w < longest_word[c] + kContinuation && !wraps_within(c, w))
        ++w;
      floors[c] = right_aligned(c) ? widths[c] : std::max(kMinColumn, w);
    }
    // Narrow the widest column until the table fits; its cells then wrap within it.
    while (total() > width) {
      size_t widest = columns;
      for (size_t c = 0; c < columns; ++c) {
        if (widths[c] > floors[c] && (widest == columns || widths[c] > widths[widest])) {
          widest = c;
        }
      }
      if (widest == columns) return render_stacked(table, indent, width);
      --widths[widest];
    }
  }

  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    std::vector<std::vector<std::string>> cells(columns);
    size_t height = 1;
    for (size_t c = 0; c < columns; ++c) {
      std::string cell = c < row.size() ? row[c] : "";
      bool right = right_aligned(c);
      cells[c] =
          right ? std::vector<std::string>{cell} : break_lines(cell, widths[c], kContinuation);
      height = std::max(height, cells[c].size());
    }
    for (size_t line_index = 0; line_index < height; ++line_index) {
      std::string line(indent, ' ');
      for (size_t c = 0; c < columns; ++c) {
        std::string text = line_index < cells[c].size() ? cells[c][line_index] : "";
        size_t w = display_width(text);
        size_t pad = widths[c] > w ? widths[c] - w : 0;
        bool right = right_aligned(c);
        line += right ? std::string(pad, ' ') + text : text + std::string(pad, ' ');
        if (c + 1 < columns) line += "  ";
      }
      while (!line.empty() && line.back() == ' ')
        line.pop_back();
      out += line + "\n";
    }
  };
  emit(table.header);
  for (const auto& row : table.rows)
    emit(row);
  return out;
}

namespace {

// Markdown's inline syntax characters, and `$` for GitHub's math, escaped wherever they occur.
bool always_escaped(char c) {
  return std::string_view("\\*_[]<>|~&$").find(c) != std::string_view::npos;
}

// A block marker at the start of a line: a heading, quote, list item, rule or setext underline.
size_t block_marker_length(std::string_view line) {
  if (line.empty()) return 0;
  if (line[0] == '#' || line[0] == '-' || line[0] == '+' || line[0] == '=') return 1;
  size_t digits = 0;
  while (digits < line.size() && digits < 9 && line[digits] >= '0' && line[digits] <= '9')
    ++digits;
  if (digits > 0 && digits < line.size() && (line[digits] == '.' || line[digits] == ')')) {
    return digits + 1;
  }
  return 0;
}

// The length of the code span opening at `text[at]` (a backtick run closed by a run of the same
// length), or 0 when the run is never closed.
size_t code_span_length(std::string_view text, size_t at) {
  size_t run = text.find_first_not_of('`', at);
  if (run == std::string_view::npos) return 0;
  size_t fence = run - at;
  for (size_t pos = run; (pos = text.find('`', pos)) != std::string_view::npos;) {
    size_t end = text.find_first_not_of('`', pos);
    if (end == std::string_view::npos) end = text.size();
    if (end - pos == fence) return end - at;
    pos = end;
  }
  return 0;
}

std::string escape(std::string_view text, bool in_table) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  bool line_start = true;
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '\n') {
      out += in_table ? "<br>" : "\n";
      line_start = true;
      ++i;
      continue;
    }
    bool at_line_start = line_start;
    line_start = false;
    if (at_line_start && !in_table) {
      if (size_t marker = block_marker_length(text.substr(i)); marker > 0) {
        out.append(text.substr(i, marker - 1));
        out += '\\';
        out += text[i + marker - 1];
        i += marker;
        continue;
      }
    }
    if (c == '`') {
      if (size_t span = code_span_length(text, i); span > 0) {
        for (char k : text.substr(i, span)) {
          // A pipe ends a table cell even inside a code span unless it is escaped (GFM).
          if (in_table && k == '|') out += '\\';
          out += k;
        }
        i += span;
        continue;
      }
      size_t run = text.find_first_not_of('`', i);
      if (run == std::string_view::npos) run = text.size();
      for (; i < run; ++i)
        out += "\\`";
      continue;
    }
    if (always_escaped(c)) out += '\\';
    out += c;
    ++i;
  }
  return out;
}

}  // namespace

std::string escape_markdown(std::string_view text) {
  return escape(text, false);
}

std::string markdown_code(std::string_view text) {
  size_t longest = 0;
  for (size_t i = 0; i < text.size();) {
    size_t run = text.find_first_not_of('`', i);
    if (run == std::string_view::npos) run = text.size();
    longest = std::max(longest, run - i);
    i = run == i ? i + 1 : run;
  }
  std::string fence(longest + 1, '`');
  bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  return fence + (pad ? " " : "") + std::string(text) + (pad ? " " : "") + fence;
}

std::string render_markdown_table(const Table& table) {
  std::string out = "|";
  for (const std::string& h : table.header)
    out += " " + escape(h, true) + " |";
  out += "\n|";
  for (size_t c = 0; c < table.header.size(); ++c) {
    bool right = c < table.right_aligned.size() && table.right_aligned[c];
    out += right ? "---:|" : "---|";
  }
  out += "\n";
  for (const auto& row : table.rows) {
    out += "|";
    for (size_t c = 0; c < table.header.size(); ++c) {
      const std::string& cell = c < row.size() ? row[c] : std::string();
      bool markdown = c < table.markdown.size() && table.markdown[c];
      out += " " + (markdown ? cell : escape(cell, true)) + " |";
    }
    out += "\n";
  }
  return out;
}

std::string dump_json(const Json& j, int indent) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace footprint
