#include "report/section.h"

#include <algorithm>

namespace footprint {

size_t display_width(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::string with_commas(uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

namespace {

// Splits into lines of at most `width` display columns, breaking at spaces where possible.
std::vector<std::string> break_lines(std::string_view text, size_t width) {
  std::vector<std::string> lines;
  width = std::max<size_t>(width, 20);
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
  size_t last_start = indent;
  for (size_t c = 0; c + 1 < columns; ++c)
    last_start += widths[c] + 2;
  size_t last_width = width > last_start + 20 ? width - last_start : 20;

  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    std::string line(indent, ' ');
    for (size_t c = 0; c < columns; ++c) {
      std::string cell = c < row.size() ? row[c] : "";
      bool right = c < table.right_aligned.size() && table.right_aligned[c];
      size_t pad = widths[c] - display_width(cell);
      if (c + 1 == columns) {
        std::vector<std::string> parts =
            right ? std::vector<std::string>{std::string(pad, ' ') + cell}
                  : break_lines(cell, last_width);
        line += parts.empty() ? "" : parts[0];
        for (size_t p = 1; p < parts.size(); ++p) {
          line += "\n" + std::string(last_start, ' ') + parts[p];
        }
      } else {
        line += right ? std::string(pad, ' ') + cell : cell + std::string(pad, ' ');
        line += "  ";
      }
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    out += line + "\n";
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
