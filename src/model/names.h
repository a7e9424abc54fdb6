// Comparing names, for suggestions such as "did you mean".
#pragma once

#include <cstddef>
#include <string_view>

namespace footprint {

// Levenshtein distance: single-character insertions, deletions and substitutions.
size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace footprint
