// What footprint says of an image besides where it is used: whether its tag moves, and its size
// against the pull limits (images.h).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "analysis/images/images.h"
#include "model/units.h"
#include "util/strings.h"

namespace footprint {

namespace {

bool has_digit(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// latest, main and the like, alone or with a qualifier ("main-latest", "v2-nightly").
bool is_moving_name(std::string_view lowered) {
  static constexpr std::array<std::string_view, 16> kMutable = {
      "latest", "main", "master", "devel",    "develop",  "dev",     "nightly", "edge",
      "stable", "head", "canary", "snapshot", "unstable", "rolling", "next",    "testing"};
  if (std::find(kMutable.begin(), kMutable.end(), lowered) != kMutable.end()) return true;
  return lowered.starts_with("latest-") ||
         std::any_of(kMutable.begin(), kMutable.begin() + 8,
                     [&](std::string_view m) { return lowered.ends_with(fmt::format("-{}", m)); });
}

}  // namespace

bool is_mutable_tag(std::string_view tag) {
  std::string l = lower(tag);
  if (is_moving_name(l)) return true;
  // "1.x", "v2.x.x", "1.*": a version with a wildcard part is a range, and moves within it.
  for (size_t start = 0; start <= l.size();) {
    size_t dot = l.find('.', start);
    std::string_view part = std::string_view(l).substr(start, dot - start);
    if (part == "x" || part == "*") return true;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  // "alpine", "bookworm", "slim": a name without any version number follows its base image's
  // releases, so it moves too.
  return !has_digit(l);
}

bool is_variant_tag(std::string_view tag) {
  return !tag.empty() && !has_digit(tag) && !is_moving_name(lower(tag));
}

bool moves(const ImageRef& ref) {
  std::string_view tag = ref.effective_tag();
  if (!is_variant_tag(tag)) return is_mutable_tag(tag);
  // "linux", "box": a variant names no version itself; the repository's name may
  // ("python3.12:slim"), and then the variant of that version is what is asked for.
  std::string_view last = std::string_view(ref.path).substr(ref.path.rfind('/') + 1);
  return !has_digit(last);
}

std::optional<LargeImage> large_image(uint64_t bytes, const PullLimits& limits) {
  if (bytes <= limits.large_bytes) return std::nullopt;
  return LargeImage{bytes, static_cast<double>(bytes) / limits.bytes_per_second};
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

const RegistryImage* ImageSizes::find(std::string_view reference) const {
  auto it = registry.find(reference);
  return it == registry.end() ? nullptr : &it->second;
}

RegistryTarget registry_target(const ImageRef& ref) {
  RegistryTarget target;
  target.domain = ref.domain;
  target.repository = ref.path;
  target.tag = ref.digest.empty() ? std::string(ref.effective_tag()) : ref.tag;
  target.digest = ref.digest;
  target.reference = ref.normalized();
  return target;
}

void add_registry_results(ImageSizes& sizes, std::vector<RegistryImage> images) {
  if (sizes.sized) sizes.total_bytes = distinct_bytes(images);
  for (RegistryImage& image : images) {
    if (image.ok() && sizes.sized) sizes.bytes[image.target.reference] = image.bytes;
    std::string reference = image.target.reference;
    sizes.registry.insert_or_assign(std::move(reference), std::move(image));
  }
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
