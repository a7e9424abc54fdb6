#include "analysis/models/command_line.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "analysis/models/images.h"

namespace footprint {

namespace {

std::string_view strip_quotes(std::string_view s) {
  while (!s.empty() && (s.front() == '"' || s.front() == '\'' || s.front() == '('))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == '"' || s.back() == '\'' || s.back() == ')' || s.back() == ';'))
    s.remove_suffix(1);
  return s;
}

bool is_model_name_part(std::string_view s) {
  if (s.empty() || s.size() > 96 || !std::isalnum(static_cast<unsigned char>(s.front())))
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  });
}

}  // namespace

std::vector<CommandToken> tokenize_command_line(const std::vector<std::string_view>& pieces,
                                                std::string_view context) {
  std::vector<CommandToken> out;
  std::string_view pending = context;
  for (size_t p = 0; p < pieces.size(); ++p) {
    std::string_view text = pieces[p];
    size_t pos = 0;
    while (pos < text.size()) {
      size_t start = text.find_first_not_of(" \t\r\n", pos);
      if (start == std::string_view::npos) break;
      size_t end = text.find_first_of(" \t\r\n", start);
      if (end == std::string_view::npos) end = text.size();
      std::string_view word = strip_quotes(text.substr(start, end - start));
      pos = end;
      std::string_view flag = pending;
      std::string_view value = word;
      size_t eq = word.find('=');
      if (eq != std::string_view::npos) {
        flag = word.substr(0, eq);
        value = strip_quotes(word.substr(eq + 1));
      } else if (word.starts_with('-')) {
        pending = word;
        continue;
      }
      pending = context;
      while (flag.starts_with('-'))
        flag.remove_prefix(1);
      size_t at = 0;
      while (at <= value.size()) {
        size_t comma = value.find(',', at);
        if (comma == std::string_view::npos) comma = value.size();
        std::string_view part = strip_quotes(value.substr(at, comma - at));
        if (!part.empty()) out.push_back({p, flag, part});
        at = comma + 1;
      }
    }
  }
  return out;
}

std::optional<ModelRef> model_from_url(std::string_view value) {
  std::string_view rest;
  for (std::string_view prefix :
       {"https://huggingface.co/", "http://huggingface.co/", "huggingface.co/", "hf://"}) {
    if (value.starts_with(prefix)) rest = value.substr(prefix.size());
  }
  if (rest.empty() || rest.starts_with("datasets/") || rest.starts_with("spaces/")) return {};
  std::vector<std::string_view> parts;
  size_t pos = 0;
  while (pos <= rest.size() && parts.size() < 4) {
    size_t slash = rest.find('/', pos);
    if (slash == std::string_view::npos) slash = rest.size();
    parts.push_back(rest.substr(pos, slash - pos));
    pos = slash + 1;
  }
  if (parts.size() < 2 || !is_model_name_part(parts[0]) || !is_model_name_part(parts[1])) return {};
  ModelRef out{fmt::format("{}/{}", parts[0], parts[1]), ""};
  if (parts.size() == 4 && (parts[2] == "tree" || parts[2] == "resolve" || parts[2] == "blob")) {
    out.revision = parts[3];
  }
  return out;
}

bool is_model_id(std::string_view text) {
  size_t slash = text.find('/');
  if (slash == std::string_view::npos) return false;
  return is_model_name_part(text.substr(0, slash)) && is_model_name_part(text.substr(slash + 1));
}

}  // namespace footprint
