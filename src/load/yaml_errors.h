// Syntax errors in words a user acts on. libyaml names what its grammar expected ("did not find
// expected key while parsing a block mapping"); the user needs what is wrong in the file (a tab
// in the indentation, a quote never closed, a second ': ' on a line, an unrendered Helm
// template) and how to fix it. libyaml's own words stay in the message as the detail.
#pragma once

#include <string>
#include <string_view>

#include "load/yaml.h"

namespace footprint::yaml {

// What libyaml reported: its problem and context strings, and where each was found (positions in
// the whole stream, columns counted in characters).
struct SyntaxProblem {
  std::string_view problem;
  std::string_view context;  // empty when libyaml gives none
  Position problem_at;
  Position context_at;
};

// The error to show for `p`: plain words, then libyaml's words in parentheses, at the place the
// user has to edit (for a quote never closed, where it opens). `text` is what was parsed; its
// first line is line `first_line` of the stream.
ParseError explain_syntax_problem(const SyntaxProblem& p, std::string_view text,
                                  uint32_t first_line);

// The message for a Helm template (`{{ ... }}`) found in what should be a rendered manifest.
std::string unrendered_template_message();

}  // namespace footprint::yaml
