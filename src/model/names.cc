#include "model/names.h"

#include <algorithm>
#include <vector>

namespace footprint {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

namespace {

bool lower_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

}  // namespace

bool matches_dns1123_label(std::string_view part) {
  return !part.empty() && lower_alnum(part.front()) && lower_alnum(part.back()) &&
         std::all_of(part.begin(), part.end(), [](char c) { return lower_alnum(c) || c == '-'; });
}

bool matches_dns1123_subdomain(std::string_view name) {
  // Dot-separated parts, each starting and ending with a letter or digit; a part may be longer
  // than a label's 63 characters, only the whole is bounded.
  for (size_t start = 0;;) {
    size_t dot = name.find('.', start);
    if (!matches_dns1123_label(
            name.substr(start, dot == std::string_view::npos ? dot : dot - start)))
      return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

bool is_dns1123_label(std::string_view name) {
  return name.size() <= 63 && matches_dns1123_label(name);
}

bool is_dns1123_subdomain(std::string_view name) {
  return name.size() <= 253 && matches_dns1123_subdomain(name);
}

}  // namespace footprint
