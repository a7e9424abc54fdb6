// The verdicts of delivery_paths.h.
#include "analysis/models/delivery_paths.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/units.h"

namespace footprint {

namespace {

struct PathName {
  DeliveryPath path;
  std::string_view name;
};

constexpr PathName kPathNames[] = {
    {DeliveryPath::kKubectl, "kubectl"}, {DeliveryPath::kKubectlServerSide, "kubectl-server-side"},
    {DeliveryPath::kHelm3, "helm3"},     {DeliveryPath::kHelm4, "helm4"},
    {DeliveryPath::kArgocd, "argocd"},   {DeliveryPath::kArgocdSsa, "argocd-ssa"},
    {DeliveryPath::kFlux, "flux"},       {DeliveryPath::kKapp, "kapp"},
    {DeliveryPath::kOlm, "olm"},
};

// The API server's status message names a kind with its group ("CustomResourceDefinition.
// apiextensions.k8s.io"); kubectl prints "The <Kind> ..." before it instead.
std::string status_subject(const Object& obj) {
  return fmt::format("{}{}{} \"{}\"", obj.kind, obj.group.empty() ? "" : ".", obj.group, obj.name);
}

// field.TooLong's two wordings: "must have at most" until kubernetes/kubernetes PR#128553 merged
// TooLong and TooLongMaxLen (Kubernetes 1.32), "may not be more than" since.
std::vector<std::string> too_long(const std::string& prefix, std::string_view field,
                                  uint64_t limit) {
  return {fmt::format("{} is invalid: {}: Too long: must have at most {} bytes (Kubernetes 1.31 "
                      "and older)",
                      prefix, field, limit),
          fmt::format("{} is invalid: {}: Too long: may not be more than {} bytes (Kubernetes "
                      "1.32 and later)",
                      prefix, field, limit)};
}

PathVerdict fails(DeliveryPath path, std::vector<std::string> errors, std::string why,
                  std::string fix) {
  return {path, Outcome::kFails, std::move(errors), std::move(why), std::move(fix)};
}

const char* const kShrink =
    "Shrink the object: generate the CRD without schema descriptions (controller-gen "
    "crd:maxDescLen=0) or drop versions nobody serves; no delivery path avoids this limit.";

// Fixes for the paths that keep a copy of the object in an annotation.
std::string applied_copy_fix(DeliveryPath path) {
  switch (path) {
    case DeliveryPath::kArgocd:
      return "Annotate this object argocd.argoproj.io/sync-options: ServerSideApply=true: Argo CD "
             "then applies it server-side, without the annotation (per resource, so the other "
             "objects keep their sync).";
    case DeliveryPath::kKapp:
      return "Annotate this object kapp.k14s.io/disable-original: \"\" (kapp 0.28.0 and later), "
             "so that kapp keeps no copy of it.";
    default:
      return "Apply it with `kubectl apply --server-side` (add --force-conflicts if another "
             "manager owns its fields).";
  }
}

std::string applied_copy_why(DeliveryPath path, const ApplySizes& a) {
  std::string who = path == DeliveryPath::kKapp
                        ? "kapp stores a copy of the object in its kapp.k14s.io/original "
                          "annotation"
                    : path == DeliveryPath::kArgocd
                        ? "Argo CD applies client-side unless told otherwise, and client-side "
                          "apply stores the object in kubectl.kubernetes.io/last-applied-"
                          "configuration"
                        : "Client-side apply stores the object in kubectl.kubernetes.io/"
                          "last-applied-configuration";
  return fmt::format("{}, which brings its annotations to about {} bytes (limit {}).", who,
                     with_commas(a.annotation_bytes), with_commas(kAnnotationLimit));
}

bool chart_crd(const Object& obj) {
  return obj.kind == "CustomResourceDefinition" && obj.group == "apiextensions.k8s.io" &&
         in_helm_crds_dir(obj);
}

// Helm 3 and 4 (and Flux's helm-controller, whose upgrade.crds defaults to Skip) create a chart's
// crds/ CRDs on install and never upgrade them.
PathVerdict crds_dir_verdict(DeliveryPath path, const Object& obj) {
  std::string why =
      path == DeliveryPath::kFlux
          ? "Flux's helm-controller creates a chart's crds/ CRDs on install and skips them on "
            "upgrade (upgrade.crds defaults to Skip)."
          : "Helm installs a chart's crds/ CRDs once and never upgrades or deletes them.";
  std::string fix = path == DeliveryPath::kFlux
                        ? "Set the HelmRelease's spec.upgrade.crds: CreateReplace (and "
                          "spec.install.crds: CreateReplace)."
                        : fmt::format(
                              "Apply the CRD yourself before each upgrade "
                              "(`kubectl apply --server-side -f` of {}), or move it "
                              "into templates/.",
                              obj.helm_source);
  return {path, Outcome::kNoUpgrade, {}, std::move(why), std::move(fix)};
}

}  // namespace

std::string_view path_name(DeliveryPath path) {
  for (const PathName& p : kPathNames)
    if (p.path == path) return p.name;
  return "";
}

std::optional<DeliveryPath> parse_delivery_path(std::string_view name) {
  for (const PathName& p : kPathNames)
    if (p.name == name) return p.path;
  return std::nullopt;
}

bool writes_applied_copy(DeliveryPath path) {
  return path == DeliveryPath::kKubectl || path == DeliveryPath::kArgocd ||
         path == DeliveryPath::kKapp;
}

bool stores_helm_release(DeliveryPath path, bool chart) {
  return path == DeliveryPath::kHelm3 || path == DeliveryPath::kHelm4 ||
         (path == DeliveryPath::kFlux && chart);
}

std::string_view outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::kWorks:
      return "works";
    case Outcome::kNoUpgrade:
      return "no-upgrade";
    case Outcome::kNear:
      return "near-limit";
    case Outcome::kFails:
      return "fails";
  }
  return "";
}

bool DeliveryRow::differs() const {
  return std::any_of(verdicts.begin(), verdicts.end(),
                     [&](const PathVerdict& v) { return v.outcome != verdicts.front().outcome; });
}

bool in_helm_crds_dir(const Object& object) {
  return object.helm_source.find("/crds/") != std::string::npos &&
         object.helm_source.find("/templates/") == std::string::npos;
}

std::optional<PathVerdict> crds_dir_not_upgraded(DeliveryPath path, const Object& crd, bool chart) {
  bool helm_like = path == DeliveryPath::kHelm3 || path == DeliveryPath::kHelm4 ||
                   (path == DeliveryPath::kFlux && chart);
  if (!helm_like || !chart_crd(crd)) return std::nullopt;
  return crds_dir_verdict(path, crd);
}

bool installed_as_chart(const Bundle& bundle) {
  if (std::find(bundle.input.renderers.begin(), bundle.input.renderers.end(), "helm") !=
      bundle.input.renderers.end())
    return true;
  return std::any_of(bundle.objects.begin(), bundle.objects.end(),
                     [](const Object& o) { return !o.helm_source.empty(); });
}

PathVerdict object_verdict(DeliveryPath path, const ObjectSize& size, bool chart) {
  const Object& obj = *size.object;
  if (!size.sizes) return {path, Outcome::kWorks, {}, "Not sized: " + size.error, ""};
  const ApplySizes& a = *size.sizes;
  // Every path sends the object; the API server refuses the body before anything else.
  if (a.request_bytes > kRequestBodyLimit) {
    return fails(path,
                 {fmt::format("Request entity too large: limit is {}", kRequestBodyLimit),
                  "the server responded with the status code 413"},
                 fmt::format("The object alone is {} bytes as a request body (limit {}).",
                             with_commas(a.request_bytes), with_commas(kRequestBodyLimit)),
                 kShrink);
  }
  if (writes_applied_copy(path) && a.annotation_bytes > kAnnotationLimit) {
    // The object and its copy travel together: at least their sum, before the copy's escaping.
    if (a.request_bytes + a.annotation_bytes > kRequestBodyLimit) {
      return fails(
          path,
          {fmt::format("Request entity too large: limit is {}", kRequestBodyLimit),
           "the server responded with the status code 413"},
          applied_copy_why(path, a) + " The object and its copy pass the 3 MiB body limit.",
          applied_copy_fix(path));
    }
    std::string prefix = path == DeliveryPath::kKubectl
                             ? "The " + obj.kind + " \"" + obj.name + "\""
                             : status_subject(obj);
    std::vector<std::string> errors = too_long(prefix, "metadata.annotations", kAnnotationLimit);
    if (path == DeliveryPath::kKapp) {
      for (std::string& e : errors)
        e.insert(0, "Saving record of last applied resource: Updating resource ...: ");
    }
    return fails(path, std::move(errors), applied_copy_why(path, a), applied_copy_fix(path));
  }
  if (a.json_bytes > kEtcdRequestLimit) {
    return fails(
        path, {"etcdserver: request is too large"},
        fmt::format("The object is {} bytes as JSON, over etcd's default --max-request-bytes of "
                    "{} (server-side apply adds managedFields on top).",
                    with_commas(a.json_bytes), with_commas(kEtcdRequestLimit)),
        "Shrink the object (schema descriptions, unused versions), or raise etcd's "
        "--max-request-bytes where you run etcd yourself.");
  }
  // OLM v0 unpacks a bundle into a ConfigMap, whose data is limited like a Secret's.
  if (path == DeliveryPath::kOlm && size.yaml_bytes > kMaxSecretSize) {
    return fails(path, too_long("ConfigMap \"<bundle>\"", "[]", kMaxSecretSize),
                 fmt::format("OLM v0 unpacks each bundle manifest into a ConfigMap of at most {} "
                             "bytes; this one is {} bytes of YAML.",
                             with_commas(kMaxSecretSize), with_commas(size.yaml_bytes)),
                 "Shrink the manifest below 1 MiB for OLM: generate the CRD without schema "
                 "descriptions (controller-gen crd:maxDescLen=0) or drop versions nobody serves.");
  }
  bool near = (writes_applied_copy(path) && near_limit(a.annotation_bytes, kAnnotationLimit)) ||
              near_limit(a.request_bytes, kRequestBodyLimit) ||
              near_limit(a.json_bytes, kEtcdRequestLimit);
  if (near) {
    return {path,
            Outcome::kNear,
            {},
            writes_applied_copy(path)
                ? applied_copy_why(path, a) + " A little growth makes it fail."
                : "Within 10 % of the request or etcd limit.",
            writes_applied_copy(path) ? applied_copy_fix(path) : ""};
  }
  if (auto skipped = crds_dir_not_upgraded(path, obj, chart)) return *skipped;
  std::string why;
  switch (path) {
    case DeliveryPath::kHelm3:
      why = "Helm creates and patches objects without a last-applied annotation.";
      break;
    case DeliveryPath::kHelm4:
      why =
          "Helm 4 installs with server-side apply (no annotation); an upgrade keeps the method "
          "the release was installed with, and Helm 3's patches write no annotation either.";
      break;
    case DeliveryPath::kFlux:
      why = chart ? "Flux's helm-controller installs through the Helm SDK, which writes no "
                    "annotation."
                  : "Flux's kustomize-controller always applies server-side.";
      break;
    case DeliveryPath::kOlm:
      why = "OLM creates and updates the object with its own client.";
      break;
    default:
      why = "Server-side apply keeps no copy of the object.";
      break;
  }
  return {path, Outcome::kWorks, {}, std::move(why), ""};
}

std::string release_secret_name(const std::string& release) {
  return fmt::format("sh.helm.release.v1.{}.v1", release.empty() ? "<release>" : release);
}

PathVerdict release_verdict(DeliveryPath path, const HelmReleaseEstimate& release,
                            const std::string& secret, bool chart) {
  if (!stores_helm_release(path, chart)) {
    return {path, Outcome::kWorks, {}, "This path keeps no Helm release Secret.", ""};
  }
  std::string fix =
      "Move the CRDs into a chart of their own (or apply them with `kubectl apply "
      "--server-side`), so that this release stops storing them; or split the chart.";
  if (path == DeliveryPath::kFlux) fix += " helm-controller retries a failing release forever.";
  std::string why = fmt::format(
      "Helm stores the release gzipped and base64-encoded in a Secret of at most {} bytes; the "
      "rendered manifests alone come to {}{} bytes.",
      with_commas(kHelmReleaseLimit), release.complete ? "about " : "more than ",
      with_commas(release.estimate_bytes));
  if (release.estimate_bytes > kHelmReleaseLimit) {
    return fails(path, too_long("Secret \"" + secret + "\"", "data", kHelmReleaseLimit),
                 std::move(why), std::move(fix));
  }
  if (near_limit(release.estimate_bytes, kHelmReleaseLimit))
    return {path, Outcome::kNear, {}, std::move(why), std::move(fix)};
  return {path, Outcome::kWorks, {}, std::move(why), ""};
}

std::vector<DeliveryRow> delivery_matrix(const std::vector<ObjectSize>& sizes,
                                         const std::optional<HelmReleaseEstimate>& release,
                                         const std::string& release_name, bool chart,
                                         std::span<const DeliveryPath> paths) {
  if (paths.empty()) paths = kAllDeliveryPaths;
  std::vector<DeliveryRow> rows;
  for (const ObjectSize& s : sizes) {
    // Over MaxSecretSize, no path stores it (config-data-too-large says so).
    if (!s.sizes || data_over_limit(s) || !size_needs_attention(s)) continue;
    DeliveryRow row{s.object, s.object->display(), {}};
    for (DeliveryPath p : paths)
      row.verdicts.push_back(object_verdict(p, s, chart));
    rows.push_back(std::move(row));
  }
  if (release && near_limit(release->estimate_bytes, kHelmReleaseLimit)) {
    std::string secret = release_secret_name(release_name);
    DeliveryRow row{nullptr, "Secret " + secret + " (Helm release)", {}};
    for (DeliveryPath p : paths)
      row.verdicts.push_back(release_verdict(p, *release, secret, chart));
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace footprint
