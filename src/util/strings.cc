#include "util/strings.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace footprint {

bool contains(const std::vector<std::string>& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

void add_unique(std::vector<std::string>& list, std::string item) {
  if (!contains(list, item)) list.push_back(std::move(item));
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string go_quote(std::string_view text) {
  // strconv's appendEscapedRune: letter escapes first, then \x for the other control bytes.
  constexpr std::string_view kLetters = "a\ab\bf\fn\nr\rt\tv\v\"\"\\\\";
  constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    bool lettered = false;
    for (size_t i = 0; i + 1 < kLetters.size(); i += 2) {
      if (kLetters[i + 1] == ch) {
        out += '\\';
        out += kLetters[i];
        lettered = true;
        break;
      }
    }
    if (lettered) continue;
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    } else {
      out += ch;
    }
  }
  out += '"';
  return out;
}

namespace {

char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

}  // namespace

bool equals_any_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return ascii_lower(x) == ascii_lower(y);
         });
}

bool ends_with_any_case(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && equals_any_case(s.substr(s.size() - suffix.size()), suffix);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

std::string shell_word(std::string_view text) {
  bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("._/:=@%+,-", c);
  });
  if (plain) return std::string(text);
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string quoted_if_blank_edges(std::string_view s) {
  if (!s.empty() && trim(s).size() == s.size()) return std::string(s);
  return "\"" + std::string(s) + "\"";
}

std::string joined(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += separator;
    out += items[i];
  }
  return out;
}

}  // namespace footprint
