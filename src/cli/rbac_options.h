// The options can-i, who-can and can-install share: the subject they ask about (--as,
// --as-group), and how they answer (--format text or json, --cluster, --color).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/common.h"
#include "model/rbac.h"

namespace footprint {

struct IdentityArgs {
  std::string as;
  std::vector<std::string> groups;
};
void add_identity_options(CLI::App& app, IdentityArgs& args);
// The subject --as names; prints the error and returns nullopt when it names none.
std::optional<Identity> parse_identity(const IdentityArgs& args);

struct AnswerArgs {
  Format format = Format::kText;
  ContextArgs context;  // --cluster only
  ColorOption color;
};
void add_answer_options(CLI::App& app, AnswerArgs& args);

}  // namespace footprint
