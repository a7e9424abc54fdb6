#include "util/display_text.h"

#include <gtest/gtest.h>

namespace footprint {
namespace {

TEST(DisplayText, PrintableTextTabsAndNewlinesStay) {
  EXPECT_EQ(display_text("kind: Pod\n\tname: \xC3\xA9t\xC3\xA9 \xE2\x9C\x93"),
            "kind: Pod\n\tname: \xC3\xA9t\xC3\xA9 \xE2\x9C\x93");
}

// ECMA-48: ESC (0x1B) starts every escape sequence; CSI "ESC [ 1 A" moves the cursor up and
// "ESC [ 2 K" erases the line; CR (0x0D) returns to the line's start; BEL (0x07) ends an OSC.
TEST(DisplayText, C0ControlsAndDelAreEscaped) {
  EXPECT_EQ(display_text("approved\x1b[1A\x1b[2K"), "approved\\x1b[1A\\x1b[2K");
  EXPECT_EQ(display_text("nginx:1.25\x1b[2K\rnothing to see"),
            "nginx:1.25\\x1b[2K\\x0dnothing to see");
  EXPECT_EQ(display_text("\x1b]0;title\x07"), "\\x1b]0;title\\x07");
  EXPECT_EQ(display_text(std::string_view("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(display_text("\x7f\x08\x0b\x0c"), "\\x7f\\x08\\x0b\\x0c");
}

// C1 controls are U+0080-U+009F, two bytes in UTF-8 (C2 80 to C2 9F); U+009B is CSI, which some
// terminals take as ESC [.
TEST(DisplayText, C1ControlsAreEscaped) {
  EXPECT_EQ(display_text("a\xC2\x9B"
                         "2Kb"),
            "a\\u009b2Kb");
  EXPECT_EQ(display_text("\xC2\x80\xC2\x85\xC2\x9F"), "\\u0080\\u0085\\u009f");
  EXPECT_EQ(display_text("\xC2\xA0"), "\xC2\xA0");  // U+00A0, the first character after C1
}

// Unicode's bidirectional formatting characters (UAX #9): LRE, RLE, PDF, LRO, RLO are U+202A to
// U+202E; LRI, RLI, FSI, PDI are U+2066 to U+2069.
TEST(DisplayText, BidirectionalFormattingIsEscaped) {
  EXPECT_EQ(display_text("admin\xE2\x80\xAEnimda"), "admin\\u202enimda");
  EXPECT_EQ(display_text("\xE2\x80\xAA\xE2\x81\xA6\xE2\x81\xA9"), "\\u202a\\u2066\\u2069");
  EXPECT_EQ(display_text("\xE2\x80\xA9\xE2\x81\xAA"), "\xE2\x80\xA9\xE2\x81\xAA");  // neighbours
}

// RFC 3629: C0 and C1 never lead, overlong forms and surrogates (ED A0 80) are ill-formed, and
// so is a sequence cut short. Each byte that starts no well-formed sequence is escaped alone.
TEST(DisplayText, InvalidUtf8BytesAreEscaped) {
  EXPECT_EQ(display_text("a\xFF"
                         "b"),
            "a\\xffb");
  EXPECT_EQ(display_text("\xC0\x9B"), "\\xc0\\x9b");                    // an overlong CSI
  EXPECT_EQ(display_text("\xED\xA0\x80"), "\\xed\\xa0\\x80");           // a surrogate
  EXPECT_EQ(display_text("\xE2\x80"), "\\xe2\\x80");                    // cut short
  EXPECT_EQ(display_text("\xF4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  EXPECT_EQ(display_text("\xF0\x9F\x98\x80"), "\xF0\x9F\x98\x80");      // U+1F600 is fine
}

TEST(DisplayText, KeepsPaintedColoursOnly) {
  std::string red = paint(true, fmt::fg(fmt::terminal_color::red), "HIGH");
  std::string shown = display_text(red + " \x1b[31mforged");
  EXPECT_EQ(shown, "\x1b[31mHIGH\x1b[0m \\x1b[31mforged");
  EXPECT_EQ(paint(false, fmt::emphasis::bold, "x\x1b"), "x\x1b");
  EXPECT_EQ(display_text(paint(false, fmt::emphasis::bold, "x\x1b")), "x\\x1b");
}

TEST(DisplayText, EscapingTwiceChangesNothing) {
  std::string once = display_text("\x1b[2J\r\xE2\x80\xAE\xC2\x85\xFF");
  EXPECT_EQ(display_text(once), once);
}

}  // namespace
}  // namespace footprint
