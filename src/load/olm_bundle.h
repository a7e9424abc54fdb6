// OLM registry+v1 bundles: a folder with manifests/ (one ClusterServiceVersion, its CRDs and a few
// allowed extra objects) and metadata/annotations.yaml. OLM does not apply the bundle's files: it
// turns the ClusterServiceVersion into Deployments, ServiceAccounts, RBAC, webhook configurations
// and their Services, per install mode. read_olm_bundle() reads a bundle, validate_olm_bundle()
// refuses what OLM refuses, with OLM's messages, and render_olm_bundle() writes what OLM creates,
// as manifests the loader reads like any others.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

#include "load/loader.h"
#include "load/skipped.h"
#include "load/yaml.h"

namespace footprint {

// An OperatorGroup's shape: AllNamespaces watches every namespace, OwnNamespace the install
// namespace, SingleNamespace and MultiNamespace the namespaces named.
struct OlmInstallMode {
  std::string type;                  // "AllNamespaces", "OwnNamespace", ...
  std::vector<std::string> targets;  // SingleNamespace and MultiNamespace only
  // "AllNamespaces", "SingleNamespace=team-a", as --install-mode takes it.
  std::string name() const;
  // The namespaces OLM targets: "" stands for all of them, as in OLM's own render options.
  std::vector<std::string> target_namespaces(const std::string& install_namespace) const;
};

// Parses --install-mode: AllNamespaces, OwnNamespace, SingleNamespace=NS, MultiNamespace=NS,NS.
tl::expected<OlmInstallMode, std::string> parse_install_mode(std::string_view text);

// A directory that holds manifests/ with a *.clusterserviceversion.yaml or
// metadata/annotations.yaml, or a bundle image (olm_image.h).
bool is_olm_bundle(const std::string& path);

struct OlmManifest {
  std::string file;  // path as shown, under the bundle folder
  yaml::Node node;
  std::string kind;
  std::string name;
};

struct OlmBundle {
  std::string root;
  std::string package;  // operators.operatorframework.io.bundle.package.v1
  OlmManifest csv;
  std::vector<OlmManifest> crds;
  std::vector<OlmManifest> others;
  std::vector<std::shared_ptr<const yaml::Tree>> trees;
  // A bundle image's files by the names shown (IMAGE/manifests/x.yaml): they exist only in
  // memory. Empty for a bundle folder.
  std::map<std::string, std::string> texts;
  std::vector<std::string> notes;  // what the image is, and where its labels disagree
  std::vector<Skipped> skipped;    // what manifests/ holds beside its manifests
  // The install modes spec.installModes marks supported, in OLM's order.
  std::vector<std::string> supported_modes() const;
};

// `image` (--image) picks one image of a bundle image that holds several.
tl::expected<OlmBundle, std::string> read_olm_bundle(const std::string& path,
                                                     const std::string& image = "");

// What OLM v1's validators refuse (operator-controller, rukpak/render/registryv1/validators), each
// message as OLM words it, after the place in the bundle it is about.
std::vector<std::string> validate_olm_bundle(const OlmBundle& bundle);

// An image spec.relatedImages lists: the operator may start it.
struct RelatedImage {
  std::string image;
  std::string origin;  // "file:line"
};

// The bundle's spec.relatedImages.
std::vector<RelatedImage> related_images(const OlmBundle& bundle);

struct RenderedOlm {
  // The objects OLM generates, each after `# Source: FILE:LINE` naming where in the bundle it
  // comes from.
  std::string text;
  // Bundle manifests OLM creates unchanged: loaded as the files they are.
  std::vector<std::string> files;
  // A bundle image's manifests OLM creates unchanged, loaded from memory, instead of files.
  std::vector<NamedText> texts;
  std::vector<std::string> notes;
  std::vector<Skipped> skipped;
  std::string mode;  // the install mode rendered, as --install-mode names it
};

// Renders the bundle as OLM installs it in `install_namespace` with `mode`; errors are OLM's
// refusals (see validate_olm_bundle) and install modes the bundle does not support.
tl::expected<RenderedOlm, std::vector<std::string>> render_olm_bundle(
    const OlmBundle& bundle, const OlmInstallMode& mode, const std::string& install_namespace);

// Reads and renders the bundle at `path` with `mode_text` (--install-mode); without one, in
// AllNamespaces when the bundle supports it (the only mode OLM v1 installs by default), else in
// the first mode it supports.
tl::expected<RenderedOlm, std::vector<std::string>> render_olm_input(
    const std::string& path, const std::string& mode_text, const std::string& install_namespace,
    const std::string& image = "");

}  // namespace footprint
