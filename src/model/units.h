// Numbers as reports and findings print them, and byte sizes and rates as users write them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <tl/expected.hpp>

namespace footprint {

// 1234567 -> "1,234,567"
std::string with_commas(uint64_t n);

// A count and its noun: "1 object", "2 objects", "1,024 images"; `plural` for irregular nouns
// ("1 policy", "3 policies"), else the singular with an "s".
std::string count_of(uint64_t n, std::string_view singular, std::string_view plural = {});

// "2GiB", "500MB", "1073741824"; decimal and binary units.
tl::expected<uint64_t, std::string> parse_byte_size(std::string_view text);
// "15MB/s", "100Mbit/s", "1GiB/s"; bytes per second.
tl::expected<double, std::string> parse_bandwidth(std::string_view text);
// "11 min 20 s", "45 s", "2 h 5 min".
std::string format_duration(double seconds);
// "10.2 GB (10,203,035,478 bytes)"
std::string format_bytes(uint64_t bytes);
// "10.2 GB", "94.7 MB", "812 bytes": short, for tables.
std::string human_bytes(uint64_t bytes);
// "2 GiB", "500 MB": a limit as a person would write it.
std::string format_limit(uint64_t bytes);
// "15 MB/s"
std::string format_rate(double bytes_per_second);

}  // namespace footprint
