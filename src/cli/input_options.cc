#include "cli/input_options.h"

#include <fmt/format.h>

#include <string_view>

#include "cli/common.h"
#include "load/kustomize.h"

namespace footprint {

void add_input_options(CLI::App& app, BundleArgs& args) {
  add_repeatable(app, "-k,--kustomize", args.kustomizations,
                 "A kustomization directory, built with kubectl kustomize (as kubectl apply -k)")
      ->type_name("DIR");
}

void allow_kustomization_only(CLI::App& app, int argc, char** argv) {
  CLI::Option* inputs = app.get_option_no_throw("inputs");
  if (!inputs || !app.get_option_no_throw("--kustomize")) return;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg == "-k" || arg == "--kustomize" || arg.starts_with("--kustomize=") ||
        (arg.starts_with("-k") && arg.size() > 2 && arg[2] != '-')) {
      inputs->required(false);
      return;
    }
  }
}

bool add_kustomization(const std::string& input, std::vector<NamedText>& rendered,
                       std::string* errors, std::string_view option) {
  tl::expected<std::string, std::string> text =
      is_kustomization(input)
          ? render_kustomization(input)
          : tl::unexpected(fmt::format(
                "{} {}: no kustomization.yaml, kustomization.yml or Kustomization there", option,
                input));
  if (!text) {
    if (errors) {
      *errors = text.error();
    } else {
      print_error(text.error());
    }
    return false;
  }
  rendered.push_back(NamedText{input, std::move(*text), "", "kustomize"});
  return true;
}

}  // namespace footprint
