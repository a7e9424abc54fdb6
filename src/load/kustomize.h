// Kustomizations as input: footprint builds them with the real kustomize that kubectl embeds
// (`kubectl kustomize`), as `kubectl apply -k` would, and reads the output like any manifest. The
// files of a kustomization are kustomize's inputs and are never read as manifests.
#pragma once

#include <string>
#include <tl/expected.hpp>

namespace footprint {

// A directory holding kustomization.yaml, kustomization.yml or Kustomization (the names kustomize
// looks for), or one of those files.
bool is_kustomization(const std::string& path);

// The directory kustomize builds for `path`: the path itself, or the folder of a kustomization
// file.
std::string kustomization_root(const std::string& path);

// Finds kubectl: $FOOTPRINT_KUBECTL, else `kubectl` on PATH. Empty when there is none.
std::string find_kubectl();

// Runs `kubectl kustomize DIR`, with `--enable-helm --helm-command HELM` when the kustomization
// (or a local base or component of it) inflates helmCharts. The error is kubectl's message.
// `load_anywhere`: --load-restrictor LoadRestrictionsNone, for a kustomization footprint writes
// that names files elsewhere.
tl::expected<std::string, std::string> render_kustomization(const std::string& path,
                                                            bool load_anywhere = false);

}  // namespace footprint
