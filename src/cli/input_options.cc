#include "cli/input_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "cli/common.h"
#include "load/gitops.h"
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
  add_repeatable(app, "--source", args.git_sources,
                 "GitOps objects: the local checkout of a Git repository they name (nothing is "
                 "fetched)")
      ->type_name("URL=DIR");
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

namespace {

bool fail(const std::string& message, std::string* errors) {
  if (errors) {
    *errors = message;
  } else {
    print_error(message);
  }
  return false;
}

}  // namespace

bool expand_gitops(const BundleArgs& args, const std::vector<std::string>& files,
                   const LoadOptions& options, std::vector<NamedText> rendered, LoadedInput& loaded,
                   std::string* errors) {
  if (std::none_of(loaded.objects.begin(), loaded.objects.end(), is_gitops_object)) return true;
  GitopsOptions gitops;
  gitops.pull = args.pull;
  for (const std::string& mapping : args.git_sources) {
    auto source = parse_source_mapping(mapping);
    if (!source) return fail(source.error(), errors);
    gitops.sources.push_back(std::move(*source));
  }
  auto resolved = resolve_gitops(loaded, gitops);
  if (!resolved) return fail(resolved.error(), errors);
  // Rendered texts come first in the loaded files, then the files named.
  size_t first_deployed = rendered.size();
  size_t end_deployed = first_deployed + resolved->rendered.size();
  rendered.insert(rendered.end(), std::make_move_iterator(resolved->rendered.begin()),
                  std::make_move_iterator(resolved->rendered.end()));
  auto again = load_inputs(files, options, std::move(rendered));
  if (!again) {
    if (errors) {
      for (const LoadError& e : again.error())
        *errors += e.to_string() + "\n";
    } else {
      print_load_errors(again.error());
    }
    return false;
  }
  // The GitOps objects are resolved above; those a GitOps object deploys (an app of apps) are
  // not followed, and said so.
  std::vector<RawObject> kept;
  for (RawObject& o : again->objects) {
    if (!is_gitops_object(o)) {
      kept.push_back(std::move(o));
    } else if (o.file >= first_deployed && o.file < end_deployed) {
      again->notes.push_back(fmt::format(
          "{} {} deployed by a GitOps object ({}:{}) not followed: give it as an input to audit "
          "what it deploys",
          o.node.get("kind").str(), o.node.at({"metadata", "name"}).str(), again->files[o.file],
          o.position.line));
      again->skipped.push_back(Skipped{
          Skipped::Unit::kObject, again->files[o.file], o.position.line,
          fmt::format("{} {}", o.node.get("kind").str(), o.node.at({"metadata", "name"}).str()),
          "GitOps objects another one deploys, not followed"});
    }
  }
  again->objects = std::move(kept);
  again->notes.insert(again->notes.end(), resolved->notes.begin(), resolved->notes.end());
  again->skipped.insert(again->skipped.end(), resolved->skipped.begin(), resolved->skipped.end());
  again->delivery_paths = std::move(resolved->delivery_paths);
  loaded = std::move(*again);
  return true;
}

}  // namespace footprint
