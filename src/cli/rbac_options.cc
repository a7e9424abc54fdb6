#include "cli/rbac_options.h"

namespace footprint {

void add_identity_options(CLI::App& app, IdentityArgs& args) {
  app.add_option("--as", args.as, "system:serviceaccount:NAMESPACE:NAME, or a user name")
      ->required();
  add_repeatable(app, "--as-group", args.groups, "An extra group of the subject");
}

std::optional<Identity> parse_identity(const IdentityArgs& args) {
  auto who = Identity::parse(args.as, args.groups);
  if (!who) {
    print_error(who.error());
    return std::nullopt;
  }
  return std::move(*who);
}

void add_answer_options(CLI::App& app, AnswerArgs& args) {
  add_format_option(app, args.format, kTextOrJson);
  add_context_options(app, args.context, {.namespaces_for = {}, .cluster = true});
  add_color_option(app, args.color);
}

}  // namespace footprint
