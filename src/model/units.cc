#include "model/units.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>

namespace footprint {

std::string with_commas(uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string count_of(uint64_t n, std::string_view singular, std::string_view plural) {
  std::string out = with_commas(n) + " ";
  if (n == 1) return out.append(singular);
  if (!plural.empty()) return out.append(plural);
  return out.append(singular).append("s");
}

namespace {

struct Unit {
  std::string_view suffix;
  double factor;
};

tl::expected<double, std::string> parse_with_units(std::string_view text,
                                                   std::initializer_list<Unit> units,
                                                   std::string_view what) {
  std::string_view number = text;
  double factor = 1;
  for (const Unit& u : units) {
    if (text.size() > u.suffix.size() && text.ends_with(u.suffix)) {
      number = text.substr(0, text.size() - u.suffix.size());
      factor = u.factor;
      break;
    }
  }
  while (!number.empty() && number.back() == ' ')
    number.remove_suffix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec != std::errc() || end != number.data() + number.size() || value <= 0 ||
      !std::isfinite(value)) {
    return tl::unexpected(fmt::format("\"{}\" is not a {}", text, what));
  }
  return value * factor;
}

}  // namespace

tl::expected<uint64_t, std::string> parse_byte_size(std::string_view text) {
  // Longest suffixes first, so "GiB" is not read as "B".
  auto v = parse_with_units(text,
                            {{"KiB", 1024.0},
                             {"MiB", 1024.0 * 1024},
                             {"GiB", 1024.0 * 1024 * 1024},
                             {"TiB", 1024.0 * 1024 * 1024 * 1024},
                             {"kB", 1e3},
                             {"MB", 1e6},
                             {"GB", 1e9},
                             {"TB", 1e12},
                             {"B", 1}},
                            "size such as 2GiB or 500MB");
  if (!v) return tl::unexpected(v.error());
  return static_cast<uint64_t>(std::llround(*v));
}

tl::expected<double, std::string> parse_bandwidth(std::string_view text) {
  return parse_with_units(text,
                          {{"KiB/s", 1024.0},
                           {"MiB/s", 1024.0 * 1024},
                           {"GiB/s", 1024.0 * 1024 * 1024},
                           {"kbit/s", 1e3 / 8},
                           {"Mbit/s", 1e6 / 8},
                           {"Gbit/s", 1e9 / 8},
                           {"kB/s", 1e3},
                           {"MB/s", 1e6},
                           {"GB/s", 1e9},
                           {"B/s", 1}},
                          "bandwidth such as 15MB/s or 1Gbit/s");
}

std::string format_duration(double seconds) {
  auto total = static_cast<uint64_t>(std::llround(seconds));
  uint64_t h = total / 3600, m = total / 60 % 60, s = total % 60;
  if (h) return m ? fmt::format("{} h {} min", h, m) : fmt::format("{} h", h);
  if (m) return s ? fmt::format("{} min {} s", m, s) : fmt::format("{} min", m);
  return fmt::format("{} s", s);
}

std::string format_bytes(uint64_t bytes) {
  std::string commas = with_commas(bytes);
  if (bytes < 1000) return fmt::format("{} bytes", commas);
  static constexpr std::array<std::string_view, 4> kUnits = {"kB", "MB", "GB", "TB"};
  double v = static_cast<double>(bytes);
  size_t unit = 0;
  while (v >= 1e3 && unit < kUnits.size()) {
    v /= 1e3;
    ++unit;
  }
  return fmt::format("{:.1f} {} ({} bytes)", v, kUnits[unit - 1], commas);
}

std::string human_bytes(uint64_t bytes) {
  if (bytes < 1000) return fmt::format("{} bytes", bytes);
  std::string long_form = format_bytes(bytes);
  return long_form.substr(0, long_form.find(" ("));
}

std::string format_limit(uint64_t bytes) {
  static constexpr std::array<std::pair<std::string_view, uint64_t>, 6> kUnits = {{
      {"TiB", uint64_t{1} << 40},
      {"GiB", uint64_t{1} << 30},
      {"MiB", uint64_t{1} << 20},
      {"TB", 1'000'000'000'000},
      {"GB", 1'000'000'000},
      {"MB", 1'000'000},
  }};
  for (const auto& [unit, size] : kUnits) {
    if (bytes >= size && bytes % size == 0) return fmt::format("{} {}", bytes / size, unit);
  }
  return format_bytes(bytes);
}

std::string format_rate(double bytes_per_second) {
  static constexpr std::array<std::pair<std::string_view, double>, 3> kUnits = {
      {{"GB/s", 1e9}, {"MB/s", 1e6}, {"kB/s", 1e3}}};
  for (const auto& [unit, size] : kUnits) {
    if (bytes_per_second >= size) return fmt::format("{:g} {}", bytes_per_second / size, unit);
  }
  return fmt::format("{:g} B/s", bytes_per_second);
}

}  // namespace footprint
