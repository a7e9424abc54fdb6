// Small string helpers that know nothing of Kubernetes or footprint.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace footprint {

bool contains(const std::vector<std::string>& list, std::string_view value);
// Appends `item` unless the list holds it already, keeping first-seen order.
void add_unique(std::vector<std::string>& list, std::string item);
// ASCII lower case: Kubernetes names and kinds are ASCII.
std::string lower(std::string_view s);
std::string upper(std::string_view s);
// Go's strconv.Quote (%q) of ASCII text, as Kubernetes and its tools quote names in messages;
// bytes above 0x7f pass through.
std::string go_quote(std::string_view text);
// Comparisons in ASCII lower case, without a lowered copy: for tests on every key or object.
bool equals_any_case(std::string_view a, std::string_view b);
bool ends_with_any_case(std::string_view s, std::string_view suffix);
// Without leading and trailing white space (isspace in the C locale).
std::string_view trim(std::string_view s);
// `s` in double quotes when it is empty or has white space at an end, so the reader sees it;
// else `s` as it is.
std::string quoted_if_blank_edges(std::string_view s);
// `text` as one shell word: as it is when it holds nothing a shell interprets, else in single
// quotes. Printed commands are meant to be pasted.
std::string shell_word(std::string_view text);
// "a, b, c", or with another separator.
std::string joined(const std::vector<std::string>& items, std::string_view separator = ", ");

}  // namespace footprint
