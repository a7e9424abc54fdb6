// Delivery paths: what each way of installing the bundle (kubectl, Helm, Argo CD, Flux, kapp, OLM)
// does with an object that meets a size limit, and with CRDs it never upgrades. The audit's
// delivery-path matrix, the size checks under --deploy-with and `diff` read it. Facts and their
// sources: ../shared/research/delivery-paths.md, section 1, and docs/delivery-paths.md.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/models/crd_models.h"
#include "analysis/models/object_sizes.h"
#include "model/object.h"

namespace footprint {

enum class DeliveryPath : uint8_t {
  kKubectl,            // client-side `kubectl apply`
  kKubectlServerSide,  // `kubectl apply --server-side`
  kHelm3,
  kHelm4,
  kArgocd,     // Argo CD's default: client-side apply of the rendered chart
  kArgocdSsa,  // Argo CD with ServerSideApply=true
  kFlux,       // helm-controller for a chart, kustomize-controller (server-side) otherwise
  kKapp,
  kOlm,  // OLM v0's bundle unpacking
};

inline constexpr DeliveryPath kAllDeliveryPaths[] = {
    DeliveryPath::kKubectl, DeliveryPath::kKubectlServerSide,
    DeliveryPath::kHelm3,   DeliveryPath::kHelm4,
    DeliveryPath::kArgocd,  DeliveryPath::kArgocdSsa,
    DeliveryPath::kFlux,    DeliveryPath::kKapp,
    DeliveryPath::kOlm};

// The name --deploy-with takes: "kubectl-server-side", "argocd-ssa".
std::string_view path_name(DeliveryPath path);
std::optional<DeliveryPath> parse_delivery_path(std::string_view name);

// True for paths that store a copy of the object in an annotation (client-side apply, kapp).
bool writes_applied_copy(DeliveryPath path);
// True for paths that keep a Helm release Secret (Flux only for a chart).
bool stores_helm_release(DeliveryPath path, bool chart);

// Worst last: a cell shows the worst outcome for the object on that path.
enum class Outcome : uint8_t { kWorks, kNoUpgrade, kNear, kFails };
std::string_view outcome_name(Outcome outcome);  // "works", "no-upgrade", "near-limit", "fails"

struct PathVerdict {
  DeliveryPath path = DeliveryPath::kKubectl;
  Outcome outcome = Outcome::kWorks;
  // What users see when it fails, one entry per wording Kubernetes used.
  std::vector<std::string> errors;
  std::string why;  // one sentence: the rule that decides
  std::string fix;  // the narrowest fix on this path; empty when it works
};

struct DeliveryRow {
  const Object* object = nullptr;     // null: the Helm release Secret
  std::string subject;                // the object's display, or the release Secret's name
  std::vector<PathVerdict> verdicts;  // one per path asked, in that order

  // The outcome is not the same on every path.
  bool differs() const;
};

// A CRD from a chart's crds/ directory, as `helm template --include-crds` marks it in its
// `# Source:` comment ("chart/crds/x.yaml", "parent/charts/sub/crds/x.yaml").
bool in_helm_crds_dir(const Object& object);

// For a CRD of a chart's crds/ directory: the verdict of a path that never upgrades it (Helm 3
// and 4; Flux's helm-controller for a chart, whose upgrade.crds defaults to Skip), with its fix;
// nullopt for a path that upgrades it like any object (kubectl, Argo CD, kapp, OLM).
std::optional<PathVerdict> crds_dir_not_upgraded(DeliveryPath path, const Object& crd, bool chart);

// The bundle was rendered from a Helm chart (by footprint, or with `# Source:` comments).
bool installed_as_chart(const Bundle& bundle);

// The verdict of one path on one object. `chart`: the bundle was rendered from a Helm chart,
// which decides what Flux uses (helm-controller or kustomize-controller).
PathVerdict object_verdict(DeliveryPath path, const ObjectSize& size, bool chart);

// The verdict of one path on the Helm release Secret (`secret` is its name).
PathVerdict release_verdict(DeliveryPath path, const HelmReleaseEstimate& release,
                            const std::string& secret, bool chart);

// Rows for every object that reaches 90 % of a limit or is a crds/ CRD that does, and for the
// release Secret when its estimate does; `paths` empty means all of kAllDeliveryPaths.
std::vector<DeliveryRow> delivery_matrix(const std::vector<ObjectSize>& sizes,
                                         const std::optional<HelmReleaseEstimate>& release,
                                         const std::string& release_name, bool chart,
                                         std::span<const DeliveryPath> paths);

// The name of the first release Secret: sh.helm.release.v1.<release>.v1.
std::string release_secret_name(const std::string& release);

}  // namespace footprint
