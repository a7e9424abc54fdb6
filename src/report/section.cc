#include "report/section.h"

#include <algorithm>

namespace footprint {

size_t display_width(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

namespace {

// Byte length of the longest prefix of `word` that fits in `width` columns and ends after a
// separator, so "ns/very-long-name" breaks after "/" or "-"; a hard cut when there is none.
size_t split_point(std::string_view word, size_t width) {
  size_t fit = 0;
  size_t columns = 0;
  while (fit < word.size() && columns < width) {
    ++fit;
    while (fit < word.size() && (static_cast<unsigned char>(word[fit]) & 0xC0) == 0x80)
      ++fit;
    ++columns;
  }
  size_t separator = word.substr(0, fit).find_last_of(",/-.");
  return separator != std::string_view::npos && separator > 0 ? separator + 1 : fit;
}

// Splits into lines of at most `width` display columns, breaking at spaces where possible.
std::vector<std::string> break_lines(std::string_view text, size_t width) {
  std::vector<std::string> lines;
  width = std::max<size_t>(width, 1);
  size_t pos = 0;
  while (pos < text.size()) {
    size_t newline = text.find('\n', pos);
    std::string_view para =
        text.substr(pos, newline == std::string_view::npos ? newline : newline - pos);
    pos = newline == std::string_view::npos ? text.size() : newline + 1;
    std::string line;
    size_t start = 0;
    while (start <= para.size()) {
      size_t space = para.find(' ', start);
      std::string_view word =
          para.substr(start, space == std::string_view::npos ? space : space - start);
      if (!line.empty() && display_width(line) + 1 + display_width(word) > width) {
        lines.push_back(std::move(line));
        line.clear();
      }
      while (line.empty() && display_width(word) > width) {
        size_t cut = split_point(word, width);
        lines.emplace_back(word.substr(0, cut));
        word.remove_prefix(cut);
      }
      if (!line.empty()) line += ' ';
      line.append(word);
      if (space == std::string_view::npos) break;
      start = space + 1;
    }
    lines.push_back(std::move(line));
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

std::string render_text_table(const Table& table, size_t indent, size_t width) {
  size_t columns = table.header.size();
  std::vector<size_t> widths(columns, 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (size_t c = 0; c < columns && c < row.size(); ++c) {
      widths[c] = std::max(widths[c], display_width(row[c]));
    }
  };
  measure(table.header);
  for (const auto& row : table.rows)
    measure(row);
  // Narrow the widest column until the table fits; its cells then wrap within it. Columns first
  // shrink only down to their longest word, so identifiers stay whole where they can.
  std::vector<size_t> longest_word(columns, 0);
  auto measure_words = [&](const std::vector<std::string>& row) {
    for (size_t c = 0; c < columns && c < row.size(); ++c) {
      size_t start = 0;
      std::string_view cell = row[c];
      while (start <= cell.size()) {
        size_t space = cell.find(' ', start);
        size_t end = space == std::string_view::npos ? cell.size() : space;
        longest_word[c] = std::max(longest_word[c], display_width(cell.substr(start, end - start)));
        start = end + 1;
      }
    }
  };
  measure_words(table.header);
  for (const auto& row : table.rows)
    measure_words(row);
  constexpr size_t kMaxWordColumn = 32;
  constexpr size_t kMinColumn = 8;
  auto total = [&] {
    size_t sum = indent;
    for (size_t w : widths)
      sum += w + 2;
    return sum - 2;
  };
  auto shrink = [&](auto floor_of) {
    while (total() > width) {
      size_t widest = columns;
      for (size_t c = 0; c < columns; ++c) {
        if (widths[c] > floor_of(c) && (widest == columns || widths[c] > widths[widest])) {
          widest = c;
        }
      }
      if (widest == columns) return;
      --widths[widest];
    }
  };
  shrink([&](size_t c) { return std::max(kMinColumn, std::min(longest_word[c], kMaxWordColumn)); });
  shrink([&](size_t) { return kMinColumn; });

  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    std::vector<std::vector<std::string>> cells(columns);
    size_t height = 1;
    for (size_t c = 0; c < columns; ++c) {
      std::string cell = c < row.size() ? row[c] : "";
      bool right = c < table.right_aligned.size() && table.right_aligned[c];
      cells[c] = right ? std::vector<std::string>{cell} : break_lines(cell, widths[c]);
      height = std::max(height, cells[c].size());
    }
    for (size_t line_index = 0; line_index < height; ++line_index) {
      std::string line(indent, ' ');
      for (size_t c = 0; c < columns; ++c) {
        std::string text = line_index < cells[c].size() ? cells[c][line_index] : "";
        size_t w = display_width(text);
        size_t pad = widths[c] > w ? widths[c] - w : 0;
        bool right = c < table.right_aligned.size() && table.right_aligned[c];
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

std::string markdown_cell(const std::string& cell) {
  std::string out;
  for (char c : cell) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += "<br>";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string render_markdown_table(const Table& table) {
  std::string out = "|";
  for (const std::string& h : table.header)
    out += " " + markdown_cell(h) + " |";
  out += "\n|";
  for (size_t c = 0; c < table.header.size(); ++c) {
    bool right = c < table.right_aligned.size() && table.right_aligned[c];
    out += right ? "---:|" : "---|";
  }
  out += "\n";
  for (const auto& row : table.rows) {
    out += "|";
    for (size_t c = 0; c < table.header.size(); ++c) {
      out += " " + markdown_cell(c < row.size() ? row[c] : "") + " |";
    }
    out += "\n";
  }
  return out;
}

}  // namespace footprint
