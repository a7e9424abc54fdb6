#include "util/display_text.h"

#include <fmt/format.h>

#include <cstdint>
#include <random>

namespace footprint {

namespace {

// paint()'s sequences are `ESC [ SECRET ; params m`: the secret is hex digits, so that
// display_width, which skips from `ESC [` to the next `m`, still gives them no width.
const std::string& secret() {
  static const std::string kSecret = [] {
    std::random_device random;
    std::string out;
    for (int i = 0; i < 4; ++i)
      out += fmt::format("{:08x}", static_cast<uint32_t>(random()));
    return out;
  }();
  return kSecret;
}

std::string marked(std::string_view sequences) {
  std::string out;
  for (size_t i = 0; i < sequences.size(); ++i) {
    out += sequences[i];
    if (sequences[i] == '[' && i > 0 && sequences[i - 1] == '\x1b') out += secret() + ";";
  }
  return out;
}

bool shown_escaped(uint32_t code_point) {
  return (code_point >= 0x80 && code_point <= 0x9F) ||
         (code_point >= 0x202A && code_point <= 0x202E) ||
         (code_point >= 0x2066 && code_point <= 0x2069);
}

// The length of the well-formed UTF-8 sequence at the start of `s` (RFC 3629, section 4: no
// overlong forms, no surrogates, nothing above U+10FFFF), or 0; its code point in `code_point`.
size_t utf8_sequence(std::string_view s, uint32_t& code_point) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  unsigned char lead = byte(0);
  size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  }
  if (length == 0 || s.size() < length) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  code_point = lead & (0x7F >> length);
  for (size_t i = 1; i < length; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
    code_point = (code_point << 6) | (byte(i) & 0x3F);
  }
  return length;
}

}  // namespace

std::string paint(bool color, const fmt::text_style& style, std::string_view text) {
  if (!color) return std::string(text);
  std::string around = fmt::format(style, "{}", "|");
  size_t bar = around.find('|');
  return marked(around.substr(0, bar)) + std::string(text) + marked(around.substr(bar + 1));
}

std::string display_text(std::string_view text) {
  const std::string painted = "\x1b[" + secret() + ";";
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c == 0x1B && text.substr(i).starts_with(painted)) {
      size_t end = text.find('m', i + painted.size());
      if (end != std::string_view::npos) {
        out += "\x1b[";
        out += text.substr(i + painted.size(), end + 1 - i - painted.size());
        i = end + 1;
        continue;
      }
    }
    if (c < 0x80) {
      if (c == '\t' || c == '\n' || (c >= 0x20 && c != 0x7F)) {
        out += static_cast<char>(c);
      } else {
        out += fmt::format("\\x{:02x}", c);
      }
      ++i;
      continue;
    }
    uint32_t code_point = 0;
    size_t length = utf8_sequence(text.substr(i), code_point);
    if (length == 0) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    } else if (shown_escaped(code_point)) {
      out += fmt::format("\\u{:04x}", code_point);
      i += length;
    } else {
      out += text.substr(i, length);
      i += length;
    }
  }
  return out;
}

}  // namespace footprint
