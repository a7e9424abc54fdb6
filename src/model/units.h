// Numbers as reports and findings print them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace footprint {

// 1234567 -> "1,234,567"
std::string with_commas(uint64_t n);

// A count and its noun: "1 object", "2 objects", "1,024 images"; `plural` for irregular nouns
// ("1 policy", "3 policies"), else the singular with an "s".
std::string count_of(uint64_t n, std::string_view singular, std::string_view plural = {});

}  // namespace footprint
