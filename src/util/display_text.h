// Text shown to a reader (a terminal, a Markdown page, a CI log) carries strings from the input,
// which someone who wants the chart approved may have written. display_text() is the one place
// that makes such text inert, applied where text leaves the program (cli/output.h), so no field
// and no format can miss it.
#pragma once

#include <fmt/color.h>

#include <string>
#include <string_view>

namespace footprint {

// `text` with every character that can steer a terminal or reorder what a reader sees shown as
// an escape: C0 controls but tab and newline (carriage return, ESC and so every escape
// sequence), DEL and invalid UTF-8 bytes as `\x1b`; C1 controls (U+0080-U+009F) and the
// bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) as `\u202e`.
// The colours paint() adds are kept.
std::string display_text(std::string_view text);

// `text` in `style` when `color` is on. The escape sequences carry a secret of this process, by
// which display_text() tells them from sequences in the input; they take no width in
// report/section.h's display_width.
std::string paint(bool color, const fmt::text_style& style, std::string_view text);

}  // namespace footprint
