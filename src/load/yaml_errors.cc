#include "load/yaml_errors.h"

#include <fmt/format.h>

#include <cstring>

namespace footprint::yaml {

namespace {

constexpr size_t kNone = std::string_view::npos;

// Line `line` of the stream, from `text`, which starts at line `first_line`; empty when the
// text does not hold it.
std::string_view line_of(std::string_view text, uint32_t first_line, uint32_t line) {
  if (line < first_line) return {};
  size_t begin = 0;
  for (uint32_t l = first_line; l < line; ++l) {
    size_t newline = text.find('\n', begin);
    if (newline == kNone) return {};
    begin = newline + 1;
  }
  size_t end = text.find('\n', begin);
  std::string_view s = text.substr(begin, end == kNone ? kNone : end - begin);
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

bool continues_character(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The byte where 1-based character column `column` starts; the line's size past its end.
size_t byte_of_column(std::string_view line, uint32_t column) {
  uint32_t at = 1;
  for (size_t i = 0; i < line.size(); ++i) {
    if (continues_character(line[i])) continue;
    if (at == column) return i;
    ++at;
  }
  return line.size();
}

uint32_t column_of_byte(std::string_view line, size_t byte) {
  uint32_t column = 1;
  for (size_t i = 0; i < byte && i < line.size(); ++i) {
    if (!continues_character(line[i])) ++column;
  }
  return column;
}

// The character (its UTF-8 bytes) at `column`; empty past the end of the line.
std::string_view character_at(std::string_view line, uint32_t column) {
  size_t begin = byte_of_column(line, column);
  size_t end = begin + 1;
  while (end < line.size() && continues_character(line[end]))
    ++end;
  return line.substr(begin, begin < line.size() ? end - begin : 0);
}

size_t indent_of(std::string_view line) {
  size_t n = line.find_first_not_of(' ');
  return n == kNone ? line.size() : n;
}

// The byte where a `{{` outside quotes and comments starts, or kNone. A quote opens only where a
// YAML value can start, so the apostrophe in `it's` is not one.
size_t unquoted_template(std::string_view line) {
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote != 0) {
      if (c == '\\' && quote == '"') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
      continue;
    }
    bool value_start = i == 0 || std::strchr(" :[{,-", line[i - 1]) != nullptr;
    if (c == '#' && (i == 0 || line[i - 1] == ' ')) return kNone;
    if ((c == '"' || c == '\'') && value_start) {
      quote = c;
    } else if (c == '{' && i + 1 < line.size() && line[i + 1] == '{') {
      return i;
    }
  }
  return kNone;
}

struct Explained {
  Position at;
  std::string words;
};

// Plain words for what libyaml found; an empty `words` when the problem is not one we know.
Explained explain(const SyntaxProblem& p, std::string_view text, uint32_t first_line) {
  std::string_view line = line_of(text, first_line, p.problem_at.line);
  std::string_view context_line = line_of(text, first_line, p.context_at.line);
  std::string_view c = character_at(line, p.problem_at.column);
  size_t byte = byte_of_column(line, p.problem_at.column);
  std::string_view before = line.substr(0, byte);
  auto at_context = [&](std::string words) { return Explained{p.context_at, std::move(words)}; };
  auto here = [&](std::string words) { return Explained{p.problem_at, std::move(words)}; };
  std::string_view problem = p.problem;

  // Helm's `{{ }}` in a manifest breaks the YAML around it, whatever libyaml then reports: on the
  // line of the problem, or on the line of the key libyaml was reading.
  for (uint32_t candidate : {p.problem_at.line, p.context_at.line}) {
    if (candidate + 1 < p.problem_at.line) continue;
    std::string_view l = line_of(text, first_line, candidate);
    if (size_t open = unquoted_template(l); open != kNone) {
      return {{candidate, column_of_byte(l, open)}, unrendered_template_message()};
    }
  }

  // A byte-order mark where a later document starts (files saved with one, then concatenated):
  // the YAML reader takes one only at the start of the stream.
  for (uint32_t candidate : {p.problem_at.line, p.problem_at.line - 1, p.context_at.line}) {
    if (candidate <= first_line) continue;  // at the start of the stream, a mark is allowed
    if (line_of(text, first_line, candidate).starts_with("\xEF\xBB\xBF")) {
      return {{candidate, 1},
              "a byte-order mark (U+FEFF) starts this line: YAML accepts one only at the start of "
              "the file (kubectl, which splits the documents at '---' first, accepts one at the "
              "start of each document); remove it"};
    }
  }

  if (problem == "found character that cannot start any token") {
    if (c == "\t") {
      return here(before.find_first_not_of(" \t") == kNone
                      ? "a tab character in the indentation: YAML indents with spaces only; "
                        "replace the tab with spaces"
                      : "a tab character where YAML allows only spaces: replace it with spaces");
    }
    return here(fmt::format("a value cannot start with '{}' ({} in YAML): quote the value", c,
                            c == "@" || c == "`" ? "reserved" : "an indicator"));
  }
  if (problem == "found a tab character that violates indentation" ||
      problem == "found a tab character where an indentation space is expected") {
    return here(
        "a tab character in the indentation: YAML indents with spaces only; replace the tab "
        "with spaces");
  }
  if (problem == "mapping values are not allowed in this context") {
    if (before.find(": ") != kNone || before.find(":\t") != kNone) {
      return here(
          "a second ': ' on the line: a plain value cannot hold ': '; quote the value "
          "(key: \"a: b\"), or put the second key on a line of its own");
    }
    std::string_view above;
    for (uint32_t l = p.problem_at.line - 1; l >= first_line && above.empty() && l > 0; --l) {
      std::string_view candidate = line_of(text, first_line, l);
      size_t start = candidate.find_first_not_of(' ');
      if (start != kNone && candidate[start] != '#') above = candidate;
    }
    if (!above.empty() && indent_of(line) > indent_of(above)) {
      return here(
          "a key on a line indented deeper than the line above, which already holds a value: "
          "align the key with the keys it belongs with");
    }
    return here(
        "a key in the middle of a value: the line above is a value that runs on into this one "
        "(a key missing its ':', or a line not indented as its siblings)");
  }
  if (problem == "could not find expected ':'" && p.context == "while scanning a simple key") {
    return at_context(
        "a line with no ':' where 'key: value' was expected: add the ':', or indent the line as "
        "the text it continues");
  }
  if ((problem == "found unexpected end of stream" ||
       problem == "found unexpected document indicator") &&
      p.context == "while scanning a quoted scalar") {
    std::string_view quote = character_at(context_line, p.context_at.column);
    return at_context(fmt::format(
        "a {}-quoted string opens here and is never closed{}: add the closing {}",
        quote == "'" ? "single" : "double",
        problem == "found unexpected end of stream" ? "" : " before the next document", quote));
  }
  if (problem == "found unknown escape character" ||
      problem == "did not find expected hexdecimal number" ||
      problem == "found invalid Unicode character escape code") {
    return here(
        "a backslash escape YAML does not accept in a double-quoted string: write \\\\ for a "
        "backslash, or use single quotes, where a backslash is an ordinary character");
  }
  if (problem == "did not find expected alphabetic or numeric character" &&
      (p.context == "while scanning an alias" || p.context == "while scanning an anchor")) {
    bool alias = p.context == "while scanning an alias";
    return at_context(fmt::format(
        "a value starting with '{}' is read as {}: quote the value{}", alias ? "*" : "&",
        alias ? "a reference to an anchor" : "an anchor", alias ? " (\"*.example.com\")" : ""));
  }
  if (p.context == "while scanning a tag" || p.context == "while parsing a tag") {
    return at_context("a value starting with '!' is read as a YAML tag: quote the value");
  }
  if (problem == "block sequence entries are not allowed in this context") {
    if (before.find(':') != kNone) {
      return here(
          "a '- ' list item on the line of its key: start the list on the next line, indented "
          "under the key");
    }
    return here("a '- ' list item where none can start: check the indentation of this line");
  }
  if (problem == "did not find expected key" && p.context == "while parsing a block mapping") {
    if (c == "-") {
      return here(fmt::format(
          "a '- ' list item among the keys of the mapping that starts at line {}: a list is the "
          "value of a key (the key and ':' on the line above), or this item is not indented as "
          "the items before it",
          p.context_at.line));
    }
    size_t last = before.find_last_not_of(' ');
    if (last != kNone) {  // the problem is after something on its line
      char closing = before[last];
      if (closing == '"' || closing == '\'') {
        return here("text after the closing quote of a value: quote the whole value");
      }
      if (closing == ']' || closing == '}') {
        return here(fmt::format(
            "text after the closing '{}' of a value: quote the whole value if it is text",
            closing));
      }
      return here("unexpected text after the value: quote the whole value");
    }
    if (c == "]" || c == "}") {
      return here(fmt::format("a '{}' with no '{}' before it", c, c == "]" ? "[" : "{"));
    }
    return here(fmt::format(
        "the indentation of this line (column {}) matches no key above it: the keys of the "
        "mapping that starts at line {} are at column {}; align the line with them or with a "
        "deeper key",
        p.problem_at.column, p.context_at.line, p.context_at.column));
  }
  if (problem == "did not find expected '-' indicator") {
    return here(fmt::format(
        "a line inside the list that starts at line {} that is not a '- ' item: start it with "
        "'- ', or indent it as the text of an item",
        p.context_at.line));
  }
  if (problem == "did not find expected node content") {
    return here(c.empty() ? std::string("a value is missing here")
                          : fmt::format("a value cannot start with '{}': quote the value", c));
  }
  if (problem == "did not find expected ',' or ']'" ||
      problem == "did not find expected ',' or '}'") {
    bool list = problem.ends_with("']'");
    return here(fmt::format(
        "the '{}' at line {}, column {} is never closed with '{}', or two {} in it have no ',' "
        "between them",
        list ? "[" : "{", p.context_at.line, p.context_at.column, list ? "]" : "}",
        list ? "items" : "entries"));
  }
  if (problem == "did not find expected <document start>") {
    return here(
        "more content after the document ended: the document's first line is indented deeper "
        "than this one, or a '---' line is missing between two documents");
  }
  return here("");
}

}  // namespace

std::string unrendered_template_message() {
  return "an unrendered Helm template ({{ ... }}): this is a chart's template, not a manifest; "
         "render it with `helm template`, or give the chart directory";
}

ParseError explain_syntax_problem(const SyntaxProblem& p, std::string_view text,
                                  uint32_t first_line) {
  Explained e = explain(p, text, first_line);
  std::string detail(p.problem);
  if (!p.context.empty()) detail += fmt::format(" {}", p.context);
  if (e.words.empty()) return {e.at, fmt::format("malformed YAML ({})", detail)};
  return {e.at, fmt::format("{} (YAML parser: {})", e.words, detail)};
}

}  // namespace footprint::yaml
