// Values in the command lines and environment variables of containers: each with the flag or
// variable it belongs to, and Hugging Face model ids in URLs. Image discovery (images.cc) reads
// images and models from them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace footprint {

struct CommandToken {
  size_t piece = 0;       // which input string the value came from
  std::string_view flag;  // the flag or variable the value belongs to, without leading dashes
  std::string_view value;
};

// Splits command-line pieces (args items, or one env value) into values, each with the flag it
// follows: `--a=b`, `--a b` (also across pieces), `a=b`; comma-separated lists are split too.
std::vector<CommandToken> tokenize_command_line(const std::vector<std::string_view>& pieces,
                                                std::string_view context);

// Where a model id and revision can be read from a Hugging Face URL or hf:// URI.
struct ModelRef {
  std::string id;
  std::string revision;
};
std::optional<ModelRef> model_from_url(std::string_view value);

}  // namespace footprint
