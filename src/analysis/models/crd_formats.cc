#include "analysis/models/crd_formats.h"

#include <re2/re2.h>

#include <array>
#include <cstdint>
#include <string>

namespace footprint {

namespace {

// Go's `regexp.MatchString` with a pattern anchored by ^ and $, as all of these are.
bool go_match(std::string_view text, const RE2& pattern) {
  return RE2::PartialMatch(text, pattern);
}

std::string without_dashes(std::string_view format) {
  std::string name;
  for (char c : format) {
    if (c != '-') name += c;
  }
  return name;
}

// formats.go's set for the 1.33 compatibility version a 1.34 API server validates with (the
// k8s-short-name and k8s-long-name of 1.34 are not in it yet), less quantity (crd_formats.h)
// and password, which allows anything.
constexpr std::array<std::string_view, 23> kCheckedFormats = {
    "bsonobjectid", "uri",      "email",    "hostname", "ipv4", "ipv6",     "cidr",    "mac",
    "uuid",         "uuid3",    "uuid4",    "uuid5",    "isbn", "isbn10",   "isbn13",  "creditcard",
    "ssn",          "hexcolor", "rgbcolor", "byte",     "date", "duration", "datetime"};

bool is_ascii_digit(char c) {
  return c >= '0' && c <= '9';
}

bool is_hex_digit(char c) {
  return is_ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool is_leap(int year) {
  return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

// Go's time.ParseDuration: [-+]?([0-9]*(\.[0-9]*)?[a-z]+)+, each unit one of ns us µs μs ms s m
// h, the total within int64 nanoseconds.
bool go_parse_duration(std::string_view s) {
  constexpr uint64_t kLimit = uint64_t{1} << 63;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return true;
  if (s.empty()) return false;
  uint64_t total = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || is_ascii_digit(s[0]))) return false;
    uint64_t whole = 0;
    size_t i = 0;
    for (; i < s.size() && is_ascii_digit(s[i]); ++i) {
      if (whole > kLimit / 10) return false;
      whole = whole * 10 + static_cast<uint64_t>(s[i] - '0');
      if (whole > kLimit) return false;
    }
    bool before_point = i > 0;
    s.remove_prefix(i);
    uint64_t fraction = 0;
    double scale = 1;
    bool after_point = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      bool overflowed = false;
      size_t j = 0;
      for (; j < s.size() && is_ascii_digit(s[j]); ++j) {
        if (overflowed) continue;
        if (fraction > (kLimit - 1) / 10) {
          overflowed = true;
          continue;
        }
        uint64_t next = fraction * 10 + static_cast<uint64_t>(s[j] - '0');
        if (next > kLimit) {
          overflowed = true;
          continue;
        }
        fraction = next;
        scale *= 10;
      }
      after_point = j > 0;
      s.remove_prefix(j);
    }
    if (!before_point && !after_point) return false;
    size_t unit_end = 0;
    while (unit_end < s.size() && s[unit_end] != '.' && !is_ascii_digit(s[unit_end]))
      ++unit_end;
    if (unit_end == 0) return false;
    std::string_view unit = s.substr(0, unit_end);
    s.remove_prefix(unit_end);
    uint64_t nanos = 0;
    if (unit == "ns") {
      nanos = 1;
    } else if (unit == "us" || unit == "\xc2\xb5s" || unit == "\xce\xbcs") {
      nanos = 1000;
    } else if (unit == "ms") {
      nanos = 1000000;
    } else if (unit == "s") {
      nanos = 1000000000;
    } else if (unit == "m") {
      nanos = 60 * uint64_t{1000000000};
    } else if (unit == "h") {
      nanos = 3600 * uint64_t{1000000000};
    } else {
      return false;
    }
    if (whole > kLimit / nanos) return false;
    whole *= nanos;
    if (fraction > 0) {
      whole += static_cast<uint64_t>(static_cast<double>(fraction) *
                                     (static_cast<double>(nanos) / scale));
      if (whole > kLimit) return false;
    }
    total += whole;
    if (total > kLimit) return false;
  }
  return negative || total <= kLimit - 1;
}

// strfmt's Scala-style durations ("3 days", "1 hour 5 minutes"): each number and unit, a unit
// being a variant of a time unit or a word starting with its last variant.
bool scala_duration(std::string_view s) {
  static const RE2 kWhole(R"(^\s*(?:\d+\s*[A-Za-zµ]+\s*)+$)");
  static const RE2 kPart(R"((\d+)\s*([A-Za-zµ]+))");
  if (!go_match(s, kWhole)) return false;
  static const std::array<std::array<std::string_view, 3>, 8> kUnits = {{
      {"ns", "nano", ""},
      {"us", "\xc2\xb5s", "micro"},
      {"ms", "milli", ""},
      {"s", "sec", ""},
      {"m", "min", ""},
      {"h", "hr", "hour"},
      {"d", "day", ""},
      {"w", "wk", "week"},
  }};
  bool known = false;
  re2::StringPiece rest(s.data(), s.size());
  std::string number;
  std::string unit_text;
  while (RE2::FindAndConsume(&rest, kPart, &number, &unit_text)) {
    // strconv.Atoi of the number: more than int64 holds is an error.
    if (number.size() > 19 || (number.size() == 19 && number > "9223372036854775807")) return false;
    std::string unit;
    for (char c : unit_text)
      unit += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    for (const auto& variants : kUnits) {
      size_t last = variants[2].empty() ? 1 : 2;
      for (size_t i = 0; i <= last; ++i) {
        if (unit == variants[i] || (i == last && unit.starts_with(variants[i]))) known = true;
      }
    }
  }
  return known;
}

// govalidator.IsSSN: 11 bytes and the pattern.
bool is_ssn(std::string_view text) {
  static const RE2 kSsn(R"(^\d{3}[- ]?\d{2}[- ]?\d{4}$)");
  return text.size() == 11 && go_match(text, kSsn);
}

// bson's ObjectIDFromHex: 24 hex digits.
bool is_bson_object_id(std::string_view text) {
  if (text.size() != 24) return false;
  for (char c : text) {
    if (!is_hex_digit(c)) return false;
  }
  return true;
}

}  // namespace

bool format_checked(std::string_view format) {
  std::string name = without_dashes(format);
  for (std::string_view checked : kCheckedFormats) {
    if (name == checked) return true;
  }
  return false;
}

bool is_hostname(std::string_view text) {
  // strfmt's HostnamePattern; RE2 has Go's \p{S} and \p{L}.
  static const RE2 kHostname(
      R"(^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$)");
  if (!go_match(text, kHostname) || text.size() > 255) return false;
  size_t start = 0;
  while (true) {  // no label over 63 bytes
    size_t dot = text.find('.', start);
    size_t end = dot == std::string_view::npos ? text.size() : dot;
    if (end - start > 63) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

bool is_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  constexpr std::array<size_t, 8> kDigitAt = {0, 1, 2, 3, 5, 6, 8, 9};
  for (size_t i : kDigitAt) {
    if (!is_ascii_digit(text[i])) return false;
  }
  int year = std::stoi(std::string(text.substr(0, 4)));
  int month = std::stoi(std::string(text.substr(5, 2)));
  int day = std::stoi(std::string(text.substr(8, 2)));
  if (month < 1 || month > 12 || day < 1) return false;
  constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int days = kDays[static_cast<size_t>(month - 1)] + (month == 2 && is_leap(year) ? 1 : 0);
  return day <= days;
}

bool is_date_time(std::string_view text) {
  static const RE2 kTime(
      R"(^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$)");
  if (text.size() < 4) return false;
  std::string lowered;
  for (char c : text)
    lowered += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  // strings.Split on "t": the date before the first t, the time up to the second.
  size_t t = lowered.find('t');
  if (t == std::string::npos || !is_date(std::string_view(lowered).substr(0, t))) return false;
  std::string_view rest = std::string_view(lowered).substr(t + 1);
  rest = rest.substr(0, rest.find('t'));
  std::string hours;
  std::string minutes;
  std::string seconds;
  if (!RE2::PartialMatch(rest, kTime, &hours, &minutes, &seconds)) return false;
  return hours <= "23" && minutes <= "59" && seconds <= "59";
}

bool is_duration(std::string_view text) {
  return go_parse_duration(text) || scala_duration(text);
}

bool is_isbn(std::string_view text, int version) {
  if (version != 10 && version != 13) return is_isbn(text, 10) || is_isbn(text, 13);
  // Without white space and dashes (`[\s-]+`: Go's \s is ASCII \t \n \f \r and space).
  std::string digits;
  for (char c : text) {
    if (c != '-' && c != ' ' && c != '\t' && c != '\n' && c != '\f' && c != '\r') digits += c;
  }
  static const RE2 kIsbn10("^(?:[0-9]{9}X|[0-9]{10})$");
  static const RE2 kIsbn13("^(?:[0-9]{13})$");
  int checksum = 0;
  if (version == 10) {
    if (!go_match(digits, kIsbn10)) return false;
    for (int i = 0; i < 9; ++i)
      checksum += (i + 1) * (digits[static_cast<size_t>(i)] - '0');
    checksum += 10 * (digits[9] == 'X' ? 10 : digits[9] - '0');
    return checksum % 11 == 0;
  }
  if (!go_match(digits, kIsbn13)) return false;
  for (int i = 0; i < 12; ++i)
    checksum += (i % 2 == 0 ? 1 : 3) * (digits[static_cast<size_t>(i)] - '0');
  return (digits[12] - '0') - ((10 - (checksum % 10)) % 10) == 0;
}

bool is_credit_card(std::string_view text) {
  static const RE2 kCard(
      R"(^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$)");
  std::string digits;
  for (char c : text) {
    if (is_ascii_digit(c)) digits += c;
  }
  if (!go_match(digits, kCard)) return false;
  int sum = 0;  // Luhn, from the last digit
  bool twice = false;
  for (size_t i = digits.size(); i-- > 0;) {
    int digit = digits[i] - '0';
    if (twice) digit = digit * 2 >= 10 ? digit * 2 % 10 + 1 : digit * 2;
    sum += digit;
    twice = !twice;
  }
  return sum % 10 == 0;
}

bool format_matches(std::string_view format, std::string_view text) {
  // default.go's UUID patterns.
  static const RE2 kUuid(
      R"((?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$)");
  static const RE2 kUuid3(
      R"((?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$)");
  static const RE2 kUuid4(
      R"((?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$)");
  static const RE2 kUuid5(
      R"((?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$)");
  // govalidator's patterns.
  static const RE2 kHexColor("^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$");
  static const RE2 kRgbColor(
      R"(^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$)");
  static const RE2 kBase64(
      R"(^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$)");
  if (!format_checked(format)) return true;
  std::string name = without_dashes(format);
  if (name == "uuid") return go_match(text, kUuid);
  if (name == "uuid3") return go_match(text, kUuid3);
  if (name == "uuid4") return go_match(text, kUuid4);
  if (name == "uuid5") return go_match(text, kUuid5);
  if (name == "hostname") return is_hostname(text);
  if (name == "ipv4") return is_ipv4_sloppy(text);
  if (name == "ipv6") return is_ipv6(text);
  if (name == "cidr") return is_cidr_sloppy(text);
  if (name == "mac") return is_mac(text);
  if (name == "uri") return is_request_uri(text);
  if (name == "email") return is_email(text);
  if (name == "isbn") return is_isbn(text, 0);
  if (name == "isbn10") return is_isbn(text, 10);
  if (name == "isbn13") return is_isbn(text, 13);
  if (name == "creditcard") return is_credit_card(text);
  if (name == "ssn") return is_ssn(text);
  if (name == "hexcolor") return go_match(text, kHexColor);
  if (name == "rgbcolor") return go_match(text, kRgbColor);
  if (name == "byte") return go_match(text, kBase64);
  if (name == "bsonobjectid") return is_bson_object_id(text);
  if (name == "date") return is_date(text);
  if (name == "datetime") return is_date_time(text);
  if (name == "duration") return is_duration(text);
  return true;
}

}  // namespace footprint
