#include "load/olm_bundle.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <utility>

#include "load/loader.h"
#include "load/olm_image.h"

namespace footprint {

namespace fs = std::filesystem;

namespace {

// OLM's install mode types, in the order the ClusterServiceVersion API lists them.
constexpr std::array<std::string_view, 4> kModeTypes = {"OwnNamespace", "SingleNamespace",
                                                        "MultiNamespace", "AllNamespaces"};

std::vector<std::string> split_commas(std::string_view text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    out.emplace_back(text.substr(pos, comma - pos));
    pos = comma + 1;
  }
  return out;
}

bool manifest_file(const fs::path& path) {
  std::string ext = path.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

}  // namespace

std::string OlmInstallMode::name() const {
  if (targets.empty()) return type;
  return type + "=" + fmt::format("{}", fmt::join(targets, ","));
}

std::vector<std::string> OlmInstallMode::target_namespaces(
    const std::string& install_namespace) const {
  if (type == "AllNamespaces") return {""};
  if (type == "OwnNamespace") return {install_namespace};
  return targets;
}

tl::expected<OlmInstallMode, std::string> parse_install_mode(std::string_view text) {
  size_t eq = text.find('=');
  OlmInstallMode mode;
  mode.type = std::string(text.substr(0, eq));
  if (std::find(kModeTypes.begin(), kModeTypes.end(), mode.type) == kModeTypes.end()) {
    return tl::unexpected(
        fmt::format("--install-mode {}: not an OLM install mode (AllNamespaces, OwnNamespace, "
                    "SingleNamespace=NS or MultiNamespace=NS,NS)",
                    text));
  }
  bool takes_targets = mode.type == "SingleNamespace" || mode.type == "MultiNamespace";
  if (!takes_targets) {
    if (eq != std::string_view::npos) {
      return tl::unexpected(fmt::format(
          "--install-mode {}: {} takes no namespaces (OLM derives them)", text, mode.type));
    }
    return mode;
  }
  if (eq == std::string_view::npos || eq + 1 == text.size()) {
    return tl::unexpected(fmt::format("--install-mode {}: name the namespaces it watches: {}=NS{}",
                                      text, mode.type, mode.type == "MultiNamespace" ? ",NS" : ""));
  }
  mode.targets = split_commas(text.substr(eq + 1));
  for (const std::string& ns : mode.targets) {
    if (ns.empty()) {
      return tl::unexpected(fmt::format("--install-mode {}: an empty namespace name", text));
    }
  }
  if (mode.type == "SingleNamespace" && mode.targets.size() != 1) {
    return tl::unexpected(fmt::format(
        "--install-mode {}: SingleNamespace watches one namespace; use MultiNamespace", text));
  }
  return mode;
}

bool is_olm_bundle(const std::string& path) {
  if (is_olm_image(path)) return true;
  std::error_code ec;
  fs::path root(path);
  if (!fs::is_directory(root / "manifests", ec)) return false;
  if (fs::is_regular_file(root / "metadata" / "annotations.yaml", ec)) return true;
  for (auto it = fs::directory_iterator(root / "manifests", ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (it->path().filename().string().ends_with(".clusterserviceversion.yaml")) return true;
  }
  return false;
}

std::vector<std::string> OlmBundle::supported_modes() const {
  std::vector<std::string> out;
  yaml::Node modes = csv.node.at({"spec", "installModes"});
  for (std::string_view type : kModeTypes) {
    for (size_t i = 0; i < modes.size(); ++i) {
      yaml::Node m = modes.item(i);
      if (m.get("type").str() == type && m.get("supported").text() == "true")
        out.emplace_back(type);
    }
  }
  return out;
}

namespace {

// The bundle from its files: `annotations` is metadata/annotations.yaml's text (nullopt when
// there is none), `manifests` the (name, text) of manifests/' files, sorted.
tl::expected<OlmBundle, std::string> parse_olm_bundle(
    const std::string& path, const std::optional<std::string>& annotations,
    const std::vector<std::pair<std::string, std::string>>& manifests) {
  OlmBundle bundle;
  bundle.root = path;
  if (annotations) {
    if (auto docs = yaml::parse(*annotations); docs && !docs->empty()) {
      bundle.package = std::string(
          docs->front()
              .root.at({"annotations", "operators.operatorframework.io.bundle.package.v1"})
              .str());
      bundle.trees.push_back(docs->front().tree);
    }
  }
  std::vector<OlmManifest> csvs;
  for (const auto& [file, text] : manifests) {
    auto docs = yaml::parse(text);
    if (!docs) {
      return tl::unexpected(fmt::format("{}:{}:{}: {}", file, docs.error().position.line,
                                        docs.error().position.column, docs.error().message));
    }
    for (const yaml::Document& doc : *docs) {
      if (!doc.root || doc.root.is_null()) continue;
      bundle.trees.push_back(doc.tree);
      OlmManifest m{file, doc.root, std::string(doc.root.get("kind").str()),
                    std::string(doc.root.at({"metadata", "name"}).str())};
      if (m.kind == "ClusterServiceVersion") {
        csvs.push_back(std::move(m));
      } else if (m.kind == "CustomResourceDefinition") {
        bundle.crds.push_back(std::move(m));
      } else {
        bundle.others.push_back(std::move(m));
      }
    }
  }
  if (csvs.size() != 1) {
    return tl::unexpected(
        fmt::format("{}/manifests: an OLM bundle holds exactly one ClusterServiceVersion; found {}",
                    path, csvs.size()));
  }
  bundle.csv = std::move(csvs.front());
  return bundle;
}

std::map<std::string, std::string> annotations_of(const std::string& text) {
  std::map<std::string, std::string> out;
  auto docs = yaml::parse(text);
  if (!docs || docs->empty()) return out;
  yaml::Node map = docs->front().root.get("annotations");
  for (size_t i = 0; map.is_mapping() && i < map.size(); ++i)
    out[std::string(map.key(i).str())] = std::string(map.value(i).text());
  return out;
}

tl::expected<OlmBundle, std::string> read_olm_image_bundle(const std::string& path,
                                                           const std::string& image_name) {
  auto image = read_olm_image(path, image_name);
  if (!image) return tl::unexpected(image.error());
  std::optional<std::string> annotations;
  std::vector<std::pair<std::string, std::string>> manifests;
  std::vector<Skipped> skipped;
  for (auto& [rel, text] : image->files) {
    if (rel == "metadata/annotations.yaml") annotations = text;
    if (!rel.starts_with("manifests/")) continue;
    std::string shown = fmt::format("{}/{}", path, rel);
    bool nested = rel.find('/', rel.find('/') + 1) != std::string::npos;
    if (!nested && manifest_file(rel)) {
      manifests.emplace_back(std::move(shown), text);
    } else {
      skipped.push_back(Skipped{
          Skipped::Unit::kFile, std::move(shown), 0, "",
          nested ? "in a folder of an OLM bundle's manifests/" : "not .yaml, .yml or .json"});
    }
  }
  auto bundle = parse_olm_bundle(path, annotations, manifests);
  if (!bundle) return bundle;
  bundle->skipped = std::move(skipped);
  for (auto& [name, text] : manifests)
    bundle->texts.emplace(name, std::move(text));
  bundle->notes.push_back(fmt::format(
      "{}: a bundle image ({}), image {} ({} layer{}, every digest checked), read in memory", path,
      image->format,
      image->name == image->digest ? image->digest : image->name + " " + image->digest,
      image->layers, image->layers == 1 ? "" : "s"));
  for (const std::string& disagreement :
       label_disagreements(*image, annotations ? annotations_of(*annotations)
                                               : std::map<std::string, std::string>{})) {
    bundle->notes.push_back(
        fmt::format("{}: {}; OLM reads metadata/annotations.yaml", path, disagreement));
  }
  return bundle;
}

}  // namespace

tl::expected<OlmBundle, std::string> read_olm_bundle(const std::string& path,
                                                     const std::string& image) {
  if (is_olm_image(path)) return read_olm_image_bundle(path, image);
  if (!image.empty())
    return tl::unexpected(
        fmt::format("{}: --image picks an image of a bundle image; this is a "
                    "bundle folder",
                    path));
  std::error_code ec;
  fs::path root(path);
  std::optional<std::string> annotations;
  if (auto text = read_text_file((root / "metadata" / "annotations.yaml").string(), 1 << 20))
    annotations = std::move(*text);
  std::vector<std::string> files;
  std::vector<Skipped> skipped;
  for (auto it = fs::directory_iterator(root / "manifests", ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    fs::path shown = fs::path(path) / "manifests" / it->path().filename();
    if (it->is_regular_file(ec) && manifest_file(it->path())) {
      files.push_back(shown.generic_string());
    } else {
      bool folder = it->is_directory(ec);
      skipped.push_back(Skipped{
          folder ? Skipped::Unit::kFolder : Skipped::Unit::kFile, shown.generic_string(), 0, "",
          folder ? "folders in an OLM bundle's manifests/" : "not .yaml, .yml or .json"});
    }
  }
  if (ec) return tl::unexpected(fmt::format("{}/manifests: cannot read: {}", path, ec.message()));
  std::sort(files.begin(), files.end());
  std::sort(skipped.begin(), skipped.end(),
            [](const Skipped& a, const Skipped& b) { return a.path < b.path; });
  std::vector<std::pair<std::string, std::string>> manifests;
  for (const std::string& file : files) {
    auto text = read_text_file(file, uint64_t{64} << 20);
    if (!text) return tl::unexpected(fmt::format("{}: cannot read: {}", file, text.error()));
    manifests.emplace_back(file, std::move(*text));
  }
  auto bundle = parse_olm_bundle(path, annotations, manifests);
  if (bundle) bundle->skipped = std::move(skipped);
  return bundle;
}

tl::expected<RenderedOlm, std::vector<std::string>> render_olm_input(
    const std::string& path, const std::string& mode_text, const std::string& install_namespace,
    const std::string& image) {
  auto bundle = read_olm_bundle(path, image);
  if (!bundle) return tl::unexpected(std::vector{bundle.error()});
  OlmInstallMode mode;
  if (!mode_text.empty()) {
    auto parsed = parse_install_mode(mode_text);
    if (!parsed) return tl::unexpected(std::vector{parsed.error()});
    mode = std::move(*parsed);
  } else {
    std::vector<std::string> supported = bundle->supported_modes();
    bool all = std::find(supported.begin(), supported.end(), "AllNamespaces") != supported.end();
    mode.type = all || supported.empty() ? "AllNamespaces" : supported.front();
    if (mode.type == "SingleNamespace") mode.targets = {"watched"};
    if (mode.type == "MultiNamespace") mode.targets = {"watched-1", "watched-2"};
  }
  auto rendered = render_olm_bundle(*bundle, mode, install_namespace);
  if (!rendered) return rendered;
  rendered->mode = mode.name();
  rendered->skipped = bundle->skipped;
  rendered->notes.insert(
      rendered->notes.begin(),
      fmt::format("{}: an OLM bundle, rendered as OLM installs it in namespace {} with install "
                  "mode {}{}",
                  path, install_namespace, mode.name(),
                  mode.type == "AllNamespaces"
                      ? ""
                      : " (OLM v1 installs other modes than AllNamespaces only behind its "
                        "SingleOwnNamespaceInstallSupport feature gate; OLM v0 through an "
                        "OperatorGroup)"));
  rendered->notes.insert(rendered->notes.begin() + 1, bundle->notes.begin(), bundle->notes.end());
  // An image's manifests exist only in memory: they are loaded as texts, under the names shown.
  for (const std::string& file : rendered->files) {
    auto text = bundle->texts.find(file);
    if (text != bundle->texts.end()) rendered->texts.push_back(NamedText{file, text->second});
  }
  if (!bundle->texts.empty()) rendered->files.clear();
  return rendered;
}

}  // namespace footprint
