// Numbers as reports and findings print them.
#pragma once

#include <cstdint>
#include <string>

namespace footprint {

// 1234567 -> "1,234,567"
std::string with_commas(uint64_t n);

}  // namespace footprint
