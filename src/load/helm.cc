#include "load/helm.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>

#include "load/loader.h"
#include "load/process.h"
#include "load/yaml.h"

namespace footprint {

namespace {

namespace fs = std::filesystem;

constexpr int kHelmTimeoutSeconds = 300;

bool is_archive(const std::string& path) {
  return path.ends_with(".tgz") || path.ends_with(".tar.gz");
}

// Calls `visit(name, contents)` for every file of a packaged chart.
bool for_each_archive_file(
    const std::string& path,
    const std::function<void(const std::string&, const std::string&)>& visit) {
  archive* a = archive_read_new();
  archive_read_support_filter_all(a);
  archive_read_support_format_all(a);
  bool ok = archive_read_open_filename(a, path.c_str(), 1 << 16) == ARCHIVE_OK;
  archive_entry* entry = nullptr;
  while (ok && archive_read_next_header(a, &entry) == ARCHIVE_OK) {
    if (archive_entry_filetype(entry) != AE_IFREG) continue;
    std::string contents;
    char buffer[1 << 16];
    la_ssize_t n;
    while ((n = archive_read_data(a, buffer, sizeof buffer)) > 0) {
      contents.append(buffer, static_cast<size_t>(n));
    }
    visit(std::string(archive_entry_pathname(entry)), contents);
  }
  archive_read_free(a);
  return ok;
}

}  // namespace

std::string chart_name(const std::string& chart) {
  std::string chart_yaml;
  if (is_archive(chart)) {
    for_each_archive_file(chart, [&](const std::string& name, const std::string& contents) {
      if (chart_yaml.empty() && name.ends_with("/Chart.yaml") &&
          std::count(name.begin(), name.end(), '/') == 1) {
        chart_yaml = contents;
      }
    });
  } else {
    chart_yaml = read_text_file((fs::path(chart) / "Chart.yaml").string()).value_or("");
  }
  auto docs = yaml::parse(chart_yaml);
  if (docs && !docs->empty()) {
    std::string_view name = docs->front().root.get("name").str();
    if (!name.empty()) return std::string(name);
  }
  return fs::path(chart).stem().string();
}

namespace {

// `.Capabilities.APIVersions.Has "monitoring.coreos.com/v1"` in a template's text.
void scan_capabilities(std::string_view text, std::set<std::string>& found) {
  constexpr std::string_view kCall = ".Capabilities.APIVersions.Has";
  size_t pos = 0;
  while ((pos = text.find(kCall, pos)) != std::string_view::npos) {
    pos += kCall.size();
    size_t open = text.find_first_not_of(" \t", pos);
    if (open == std::string_view::npos || text[open] != '"') continue;
    size_t close_quote = text.find('"', open + 1);
    if (close_quote == std::string_view::npos) break;
    found.emplace(text.substr(open + 1, close_quote - open - 1));
    pos = close_quote;
  }
}

bool is_template(const std::string& path) {
  return path.find("/templates/") != std::string::npos || path.starts_with("templates/");
}

}  // namespace

bool is_chart(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return fs::exists(fs::path(path) / "Chart.yaml", ec);
  return is_archive(path) && fs::is_regular_file(path, ec);
}

std::string find_helm() {
  return find_tool("FOOTPRINT_HELM", "helm");
}

tl::expected<RenderedChart, HelmFailure> render_chart(const std::string& chart,
                                                      const ChartOptions& options) {
  std::string helm = find_helm();
  if (std::string problem =
          configured_tool_problem("FOOTPRINT_HELM", "helm", "renders charts with helm");
      !problem.empty()) {
    return tl::unexpected(HelmFailure{std::move(problem)});
  }
  if (helm.empty()) {
    return tl::unexpected(HelmFailure{
        "helm is not installed: footprint renders charts with it. Install helm "
        "(https://helm.sh/docs/intro/install/) or set FOOTPRINT_HELM to its path, or render the "
        "chart yourself and pipe it in: helm template RELEASE CHART -n NS --include-crds | "
        "footprint audit - -n NS"});
  }
  RenderedChart r;
  r.chart = chart;
  r.release = options.release.empty() ? chart_name(chart) : options.release;
  r.command = {helm, "template", r.release, chart, "--namespace", options.namespace_};
  if (options.include_crds) r.command.emplace_back("--include-crds");
  // Joined to its flag, a value is never read as a flag of helm's own: `--set=--debug` is a
  // --set value (pflag takes everything after the first '='), which helm then refuses.
  for (const std::string& f : options.values_files)
    r.command.push_back("--values=" + f);
  for (const std::string& s : options.set)
    r.command.push_back("--set=" + s);
  for (const std::string& s : options.set_string)
    r.command.push_back("--set-string=" + s);
  for (const std::string& s : options.set_file)
    r.command.push_back("--set-file=" + s);
  for (const std::string& v : options.api_versions)
    r.command.push_back("--api-versions=" + v);
  if (!options.kube_version.empty()) r.command.push_back("--kube-version=" + options.kube_version);
  auto result = run_process(r.command, kHelmTimeoutSeconds);
  if (!result) return tl::unexpected(HelmFailure{result.error()});
  if (result->timed_out) {
    return tl::unexpected(
        HelmFailure{fmt::format("helm template did not finish within {} s", kHelmTimeoutSeconds)});
  }
  if (result->exit_code != 0) {
    std::string message = fmt::format("helm template {} failed:\n{}", chart, result->err);
    // helm's advice to pass its --debug, which footprint does not take.
    constexpr std::string_view kDebugAdvice = "Use --debug flag to render out invalid YAML";
    if (size_t at = message.rfind(kDebugAdvice); at != std::string::npos)
      message.erase(at, kDebugAdvice.size());
    while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
      message.pop_back();
    if (message.ends_with(':')) {
      // A plugin, a wrapper script or a crash can fail without a word: say what was run.
      message = fmt::format(
          "helm template {} failed with exit status {} and printed no message; the command "
          "was: {}",
          chart, result->exit_code, fmt::join(r.command, " "));
    }
    if (message.find("found in Chart.yaml, but missing in charts/ directory") !=
        std::string::npos) {
      message += fmt::format(
          "\nhint: the chart's dependencies are not vendored. Run `helm dependency build {}` "
          "where the repositories are reachable, or copy the dependency charts into {}/charts/.",
          chart, chart);
    }
    return tl::unexpected(HelmFailure{std::move(message)});
  }
  r.text = std::move(result->out);
  auto version = run_process({helm, "version", "--short"}, 30);
  if (version && version->exit_code == 0) {
    r.helm_version = version->out.substr(0, version->out.find('\n'));
  }
  return r;
}

namespace {

// "Kind name" of every object in a rendered stream; empty when it does not parse.
std::set<std::string> object_keys(const std::string& text) {
  std::set<std::string> keys;
  auto loaded = load_texts({{"probe", text}}, LoadOptions{});
  if (!loaded) return keys;
  for (const RawObject& o : loaded->objects) {
    keys.insert(
        fmt::format("{} {}", o.node.get("kind").str(), o.node.at({"metadata", "name"}).str()));
  }
  return keys;
}

}  // namespace

std::vector<CapabilityEffect> probe_capabilities(const std::string& chart,
                                                 const ChartOptions& options,
                                                 const RenderedChart& base) {
  std::vector<CapabilityEffect> effects;
  std::set<std::string> base_keys = object_keys(base.text);
  for (const std::string& api : capability_checks(chart)) {
    CapabilityEffect effect;
    effect.api_version = api;
    auto& declared = options.api_versions;
    effect.declared = std::find(declared.begin(), declared.end(), api) != declared.end();
    ChartOptions probe = options;
    probe.release = base.release;
    if (effect.declared) {
      probe.api_versions.erase(
          std::remove(probe.api_versions.begin(), probe.api_versions.end(), api),
          probe.api_versions.end());
    } else {
      probe.api_versions.push_back(api);
    }
    auto rendered = render_chart(chart, probe);
    if (rendered) {
      std::set<std::string> with = effect.declared ? base_keys : object_keys(rendered->text);
      std::set<std::string> without = effect.declared ? object_keys(rendered->text) : base_keys;
      for (const std::string& key : with) {
        if (!without.count(key)) effect.objects.push_back(key);
      }
    }
    effects.push_back(std::move(effect));
  }
  return effects;
}

std::vector<std::string> capability_checks(const std::string& chart) {
  std::set<std::string> found;
  if (is_archive(chart)) {
    for_each_archive_file(chart, [&](const std::string& name, const std::string& contents) {
      if (is_template(name)) scan_capabilities(contents, found);
    });
  } else {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(chart, ec), end; !ec && it != end; it.increment(ec)) {
      std::string rel = fs::relative(it->path(), chart, ec).generic_string();
      if (!it->is_regular_file(ec) || !is_template(rel)) continue;
      scan_capabilities(read_text_file(it->path().string()).value_or(""), found);
    }
  }
  return {found.begin(), found.end()};
}

}  // namespace footprint
