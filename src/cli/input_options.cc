#include "cli/input_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "cli/common.h"
#include "load/kustomize.h"

namespace footprint {

void add_input_options(CLI::App& app, BundleArgs& args) {
  add_repeatable(app, "-k,--kustomize", args.kustomizations,
                 "A kustomization directory, built with kubectl kustomize (as kubectl apply -k)")
      ->type_name("DIR");
  app.add_option("--chart-version", args.pull.version,
                 "Chart references (oci://HOST/PATH/CHART, REPO/CHART): the version to pull; "
                 "--version V after a chart reference means the same, as in helm")
      ->type_name("VERSION");
  app.add_flag("--plain-http", args.pull.plain_http,
               "Chart references: pull from an OCI registry over plain HTTP");
  app.add_option("--chart-ca-file", args.pull.ca_file,
                 "Chart references: CA certificates (PEM) to verify the chart's registry or "
                 "repository with (helm pull --ca-file)")
      ->type_name("FILE");
}

void chart_version_arguments(const CLI::App& app, std::vector<std::string>& args) {
  if (!app.get_option_no_throw("--chart-version")) return;
  auto end = std::find(args.begin(), args.end(), "--");
  if (std::none_of(args.begin() + 1, end, is_chart_reference)) return;
  for (auto it = args.begin() + 1; it != end; ++it) {
    if (it->starts_with("--version=")) {
      *it = "--chart-" + it->substr(2);
    } else if (*it == "--version" && it + 1 != end && !(it + 1)->starts_with("-") &&
               !is_chart_reference(*(it + 1))) {
      *it = "--chart-version";
    }
  }
}

bool pull_reference(const std::string& reference, const ChartPullOptions& options,
                    std::string& path, std::string* errors) {
  auto pulled = pull_chart(reference, options);
  if (!pulled) {
    if (errors) {
      *errors = pulled.error();
    } else {
      print_error(pulled.error());
    }
    return false;
  }
  path = std::move(*pulled);
  return true;
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
