#include "load/kustomize.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <vector>

#include "load/helm.h"
#include "load/loader.h"
#include "load/process.h"
#include "load/yaml.h"

namespace footprint {

namespace {

namespace fs = std::filesystem;

constexpr int kKustomizeTimeoutSeconds = 300;
// The file names kustomize accepts, in its order (api/konfig: RecognizedKustomizationFileNames).
constexpr const char* kKustomizationNames[] = {"kustomization.yaml", "kustomization.yml",
                                               "Kustomization"};

// The kustomization file in `dir`, or empty.
fs::path kustomization_file(const fs::path& dir) {
  std::error_code ec;
  for (const char* name : kKustomizationNames) {
    if (fs::is_regular_file(dir / name, ec)) return dir / name;
  }
  return {};
}

// Whether the kustomization in `dir`, or one it includes from a local folder (resources,
// components, bases), lists helmCharts: kustomize refuses those without --enable-helm.
bool inflates_helm_charts(const fs::path& dir, std::set<fs::path>& seen, int depth = 0) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(dir, ec);
  if (ec || depth > 32 || !seen.insert(canonical).second) return false;
  fs::path file = kustomization_file(dir);
  if (file.empty()) return false;
  auto text = read_text_file(file.string(), uint64_t{16} << 20);
  if (!text) return false;
  auto docs = yaml::parse(*text);
  if (!docs || docs->empty()) return false;
  yaml::Node root = docs->front().root;
  if (root.get("helmCharts").size() > 0) return true;
  for (std::string_view field : {"resources", "components", "bases"}) {
    yaml::Node list = root.get(field);
    for (size_t i = 0; i < list.size(); ++i) {
      std::string_view entry = list.item(i).str();
      if (entry.empty() || entry.find("://") != std::string_view::npos) continue;
      fs::path included = dir / std::string(entry);
      if (fs::is_directory(included, ec) && inflates_helm_charts(included, seen, depth + 1))
        return true;
    }
  }
  return false;
}

// kustomize 5's chart inflator asks `helm version -c --short` and accepts only a helm 3 answer
// ("this plugin requires helm V3"); helm 4 refuses -c, yet renders with the same `helm template`
// arguments. For helm 4, kustomize is given a wrapper that answers the version question itself
// and runs the real helm for everything else. Empty on failure.
std::string helm_for_kustomize(const std::string& helm, const PrivateDir& dir) {
  auto version = run_process({helm, "version", "--short"}, 30);
  if (!version || version->exit_code != 0 || !version->out.starts_with("v4")) return helm;
  if (dir.path().empty()) return "";
  fs::path wrapper = dir.path() / "helm";
  std::string quoted = "'";
  for (char c : helm)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  std::ofstream out(wrapper);
  out << "#!/bin/sh\n"
      << "# kustomize accepts only helm 3's answer to `helm version`; this is helm "
      << version->out.substr(0, version->out.find('\n')) << ".\n"
      << "if [ \"$1\" = version ]; then echo v3.99.0; exit 0; fi\n"
      << "exec " << quoted << " \"$@\"\n";
  out.close();
  std::error_code ec;
  fs::permissions(wrapper, fs::perms::owner_all, ec);
  return out && !ec ? wrapper.string() : "";
}

}  // namespace

bool is_kustomization(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return !kustomization_file(path).empty();
  fs::path p(path);
  for (const char* name : kKustomizationNames) {
    if (p.filename() == name && fs::is_regular_file(p, ec)) return true;
  }
  return false;
}

std::string kustomization_root(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return path;
  std::string parent = fs::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

std::string find_kubectl() {
  return find_tool("FOOTPRINT_KUBECTL", "kubectl");
}

tl::expected<std::string, std::string> render_kustomization(const std::string& path,
                                                            bool load_anywhere) {
  std::string root = kustomization_root(path);
  if (std::string problem = configured_tool_problem("FOOTPRINT_KUBECTL", "kubectl",
                                                    "builds kustomizations with kubectl kustomize");
      !problem.empty()) {
    return tl::unexpected(problem);
  }
  std::string kubectl = find_kubectl();
  if (kubectl.empty()) {
    return tl::unexpected(fmt::format(
        "{} is a kustomization, and kubectl is not installed: footprint builds kustomizations "
        "with `kubectl kustomize`. Install kubectl or set FOOTPRINT_KUBECTL to its path, or build "
        "it yourself and pipe it in: kubectl kustomize {} | footprint audit -",
        path, root));
  }
  std::vector<std::string> command = {kubectl, "kustomize", root};
  if (load_anywhere) command.emplace_back("--load-restrictor=LoadRestrictionsNone");
  PrivateDir wrapper_dir;
  std::set<fs::path> seen;
  if (inflates_helm_charts(root, seen)) {
    std::string helm = find_helm();
    if (helm.empty()) {
      return tl::unexpected(fmt::format(
          "{} inflates helmCharts, and helm is not installed: install helm or set FOOTPRINT_HELM "
          "to its path",
          path));
    }
    helm = helm_for_kustomize(helm, wrapper_dir);
    if (helm.empty()) {
      return tl::unexpected(
          fmt::format("{} inflates helmCharts: cannot write the helm wrapper kustomize needs "
                      "for helm 4 in the temporary folder",
                      path));
    }
    command.insert(command.end(), {"--enable-helm", "--helm-command", helm});
  }
  auto result = run_process(command, kKustomizeTimeoutSeconds);
  if (!result) return tl::unexpected(result.error());
  if (result->timed_out) {
    return tl::unexpected(fmt::format("kubectl kustomize {} did not finish within {} s", root,
                                      kKustomizeTimeoutSeconds));
  }
  if (result->exit_code != 0) {
    std::string err = result->err;
    while (!err.empty() && (err.back() == '\n' || err.back() == ' '))
      err.pop_back();
    if (err.empty()) {
      return tl::unexpected(fmt::format(
          "kubectl kustomize {} failed with exit status {} and printed no message; the command "
          "was: {}",
          root, result->exit_code, fmt::join(command, " ")));
    }
    return tl::unexpected(fmt::format("kubectl kustomize {} failed:\n{}", root, err));
  }
  return std::move(result->out);
}

}  // namespace footprint
