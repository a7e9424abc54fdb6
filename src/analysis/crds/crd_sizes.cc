// crd-* and helm-release-* checks of object sizes against the limits of the install path:
// client-side apply's annotation, the API server's request body, etcd, and Helm's release Secret.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "analysis/context.h"
#include "analysis/models/delivery_paths.h"
#include "model/units.h"
#include "util/strings.h"

namespace footprint {

namespace {

std::string percent_of(uint64_t value, uint64_t limit) {
  return fmt::format("{}%", value * 100 / limit);
}

bool helm_labelled(const Object& obj) {
  Labels labels = obj.labels();
  auto managed = labels.find("app.kubernetes.io/managed-by");
  return labels.contains("helm.sh/chart") || (managed != labels.end() && managed->second == "Helm");
}

// Who installs the object without `kubectl apply`, in words, or empty. Helm creates objects and
// patches them with its own client (pkg/kube/client.go), and never writes last-applied-
// configuration: a chart, or a render with Helm's `# Source:` lines and labels, is installed that
// way. A container that applies its own CRDs writes them with its client (Dynamo's crd-apply
// uses server-side apply).
bool installed_by_helm(const Context& ctx, const Object& obj, bool helm_render) {
  return ctx.bundle.input.renderer_of(ctx.bundle.file_of(obj)) == "helm" ||
         (helm_render && !obj.helm_source.empty());
}

std::string installer_without_annotation(const Context& ctx, const Object& obj, bool helm_render) {
  if (installed_by_helm(ctx, obj, helm_render))
    return "Helm installs it, and Helm never writes that annotation";
  if (obj.kind != "CustomResourceDefinition" || obj.group != "apiextensions.k8s.io") return "";
  for (const CrdInstallCommand& c : ctx.hidden.commands) {
    std::string_view group = obj.node.at({"spec", "group"}).str();
    // Commands that name no CRD files apply what they embed: the install's own CRDs.
    if (c.crd_names.empty() ? ctx.own.owns(group) : contains(c.crd_names, obj.name)) {
      return fmt::format("{} (container {}) applies it with its own client", c.workload->display(),
                         c.container);
    }
  }
  return "";
}

// With --deploy-with: what the chosen paths that keep a copy of the object in an annotation
// (client-side kubectl, Argo CD's default, kapp) make of it; info when none of them is chosen.
void report_on_chosen_paths(const Context& ctx, const ObjectSize& s, const std::string& what,
                            Findings& out) {
  if (!s.sizes) return;
  const Object& obj = *s.object;
  bool over = s.sizes->annotation_bytes > kAnnotationLimit;
  std::vector<std::string> copying;
  std::vector<std::string> fixes;
  std::vector<std::string> errors;
  for (DeliveryPath p : ctx.deploy_with) {
    if (!writes_applied_copy(p)) continue;
    PathVerdict v = object_verdict(p, s, installed_as_chart(ctx.bundle));
    copying.emplace_back(path_name(p));
    fixes.push_back(fmt::format("{}: {}", path_name(p), v.fix));
    if (errors.empty()) errors = v.errors;
  }
  if (copying.empty()) {
    Finding& f = out.add(
        obj, Severity::kInfo,
        fmt::format("{}, {} the API server's limit of {} bytes for all annotations. The "
                    "delivery paths given with --deploy-with keep no such copy, so the install "
                    "is not affected: the risk exists only for someone who applies the same "
                    "files client-side (kubectl apply, Argo CD's default, kapp).",
                    what, over ? "over" : "near", with_commas(kAnnotationLimit)),
        "Nothing to do on these delivery paths; whoever applies these files client-side should "
        "apply them server-side.");
    f.summary = fmt::format("{} is too large for client-side apply (not used here)", obj.display());
    return;
  }
  std::string said;
  for (const std::string& e : errors)
    said += fmt::format(" \"{}\"", e);
  Finding& f = out.add(
      obj, over ? Severity::kHigh : Severity::kLow,
      over ? fmt::format("{}, over the API server's limit of {} bytes for all annotations: {} "
                         "fail{} with{}.",
                         what, with_commas(kAnnotationLimit), fmt::join(copying, ", "),
                         copying.size() == 1 ? "s" : "", said)
           : fmt::format("{}, {} of the API server's {}-byte limit: a little growth in a later "
                         "version makes {} fail.",
                         what, percent_of(s.sizes->annotation_bytes, kAnnotationLimit),
                         with_commas(kAnnotationLimit), fmt::join(copying, ", ")),
      fmt::format("{}", fmt::join(fixes, " ")));
  f.summary = fmt::format("{} is {} the annotation limit of {}", obj.display(),
                          over ? "over" : "near", fmt::join(copying, ", "));
}

// A chart without --deploy-with: Helm 3 and 4 and Flux's helm-controller keep no copy, but Argo CD
// renders the chart, crds/ included, and applies it client-side by default, and kapp keeps one.
void report_for_chart(const ObjectSize& s, const std::string& what, Findings& out) {
  if (!s.sizes) return;
  const Object& obj = *s.object;
  bool over = s.sizes->annotation_bytes > kAnnotationLimit;
  Finding& f = out.add(
      obj, over ? Severity::kMedium : Severity::kLow,
      fmt::format(
          "{}, {} the API server's limit of {} bytes for all annotations. Helm 3 and 4 and "
          "Flux's helm-controller keep no such copy, but Argo CD renders the chart (crds/ "
          "included) and applies it client-side unless told otherwise, and kapp keeps a copy "
          "too: {}. The Delivery paths section compares every path; --deploy-with names yours.",
          what, over ? "over" : "near", with_commas(kAnnotationLimit),
          over ? "both fail with \"metadata.annotations: Too long: must have at most 262144 "
                 "bytes\" (\"may not be more than 262144 bytes\" since Kubernetes 1.32)"
               : "a little growth makes both fail"),
      "With Argo CD, annotate this object argocd.argoproj.io/sync-options: ServerSideApply=true "
      "(per resource); with kapp, kapp.k14s.io/disable-original: \"\"; with kubectl, apply "
      "server-side. Helm and Flux need nothing.");
  f.summary = fmt::format("{} is too large for client-side apply: Argo CD's default and kapp fail",
                          obj.display());
}

void run_too_large_for_client_side_apply(const Context& ctx, Findings& out) {
  bool helm_render = std::any_of(ctx.bundle.objects.begin(), ctx.bundle.objects.end(),
                                 [](const Object& o) { return helm_labelled(o); });
  for (const ObjectSize& s : ctx.sizes) {
    // Over MaxSecretSize, config-data-too-large says why no way of applying it works.
    if (!s.sizes || data_over_limit(s) || !near_limit(s.sizes->annotation_bytes, kAnnotationLimit))
      continue;
    const Object& obj = *s.object;
    bool over = s.sizes->annotation_bytes > kAnnotationLimit;
    std::string what = fmt::format(
        "{} is {} bytes as JSON. Client-side `kubectl apply` copies the whole object into the "
        "annotation {}, which brings its annotations to {} bytes",
        obj.display(), with_commas(s.sizes->json_bytes), kLastAppliedAnnotation,
        with_commas(s.sizes->annotation_bytes));
    if (!ctx.deploy_with.empty()) {
      report_on_chosen_paths(ctx, s, what, out);
      continue;
    }
    if (installed_by_helm(ctx, obj, helm_render)) {
      report_for_chart(s, what, out);
      continue;
    }
    if (std::string installer = installer_without_annotation(ctx, obj, helm_render);
        !installer.empty()) {
      Finding& f = out.add(
          obj, Severity::kInfo,
          fmt::format("{}, {} the API server's limit of {} bytes for all annotations. {}, so "
                      "the install is not affected: the risk exists only for someone who runs "
                      "client-side `kubectl apply` on the same files.",
                      what, over ? "over" : "near", with_commas(kAnnotationLimit), installer),
          "Nothing to do for this install; whoever applies these files with kubectl should use "
          "`kubectl apply --server-side`.");
      f.summary = fmt::format("{} is too large for client-side kubectl apply (not used here)",
                              obj.display());
      continue;
    }
    if (over) {
      Finding& f = out.add(
          obj, Severity::kHigh,
          fmt::format("{}, over the API server's limit of {} bytes for all annotations: the "
                      "apply fails with \"metadata.annotations: Too long: must have at most "
                      "{} bytes\" (\"may not be more than {} bytes\" since Kubernetes 1.32). "
                      "Helm and server-side apply do not write this annotation.",
                      what, with_commas(kAnnotationLimit), kAnnotationLimit, kAnnotationLimit),
          "Apply it with `kubectl apply --server-side` (add --force-conflicts when it was "
          "applied client-side before), or create it with `kubectl create` and change it "
          "with `kubectl replace`.");
      f.summary = fmt::format("{} is too large for client-side kubectl apply: use --server-side",
                              obj.display());
    } else {
      Finding& f = out.add(
          obj, Severity::kLow,
          fmt::format("{}, {} of the API server's {}-byte limit: a little growth in a later "
                      "version will make client-side apply fail.",
                      what, percent_of(s.sizes->annotation_bytes, kAnnotationLimit),
                      with_commas(kAnnotationLimit)),
          "Apply it with `kubectl apply --server-side` from now on.");
      f.summary = fmt::format("{} is near the limit of client-side kubectl apply", obj.display());
    }
  }
}

void run_request_size_limit(const Context& ctx, Findings& out) {
  for (const ObjectSize& s : ctx.sizes) {
    if (!s.sizes || data_over_limit(s) || !near_limit(s.sizes->request_bytes, kRequestBodyLimit))
      continue;
    bool over = s.sizes->request_bytes > kRequestBodyLimit;
    std::string what = fmt::format("{} is {} bytes as a request body", s.object->display(),
                                   with_commas(s.sizes->request_bytes));
    std::string fix =
        "Shrink the object: generate the CRD without schema descriptions (controller-gen "
        "crd:maxDescLen=0) or drop versions nobody serves; there is no client-side way around "
        "the limit.";
    if (over) {
      Finding& f = out.add(
          *s.object, Severity::kHigh,
          fmt::format("{}; the API server rejects any write over {} bytes (\"Request entity "
                      "too large: limit is {}\"), whatever the client, so it cannot be "
                      "installed.",
                      what, with_commas(kRequestBodyLimit), kRequestBodyLimit),
          fix);
      f.summary = fmt::format(
          "{} is over the API server's 3 MiB request limit: it cannot be "
          "installed",
          s.object->display());
    } else {
      Finding& f =
          out.add(*s.object, Severity::kLow,
                  fmt::format("{}, {} of the API server's {}-byte limit on request bodies: a later "
                              "version that grows a little cannot be installed at all.",
                              what, percent_of(s.sizes->request_bytes, kRequestBodyLimit),
                              with_commas(kRequestBodyLimit)),
                  fix);
      f.summary =
          fmt::format("{} is near the API server's 3 MiB request limit", s.object->display());
    }
  }
}

void run_etcd_size_limit(const Context& ctx, Findings& out) {
  for (const ObjectSize& s : ctx.sizes) {
    if (!s.sizes || data_over_limit(s) || !near_limit(s.sizes->json_bytes, kEtcdRequestLimit))
      continue;
    bool over = s.sizes->json_bytes > kEtcdRequestLimit;
    Finding& f = out.add(
        *s.object, over ? Severity::kMedium : Severity::kLow,
        fmt::format("{} is {} bytes as JSON, {} of etcd's default --max-request-bytes of {}. "
                    "The stored object is of that order (the API server's storage encoding "
                    "is more compact, but managedFields add to it); over the cluster's "
                    "setting, the write fails with \"etcdserver: request is too large\".",
                    s.object->display(), with_commas(s.sizes->json_bytes),
                    percent_of(s.sizes->json_bytes, kEtcdRequestLimit),
                    with_commas(kEtcdRequestLimit)),
        "Check the cluster's value: the --max-request-bytes flag of etcd (in kubeadm "
        "clusters /etc/kubernetes/manifests/etcd.yaml; managed clusters keep the default). "
        "Raise it, or shrink the object (schema descriptions, unused versions).");
    f.summary = fmt::format("{} is {} etcd's default request limit", s.object->display(),
                            over ? "over" : "near");
  }
}

void run_helm_release_too_large(const Context& ctx, Findings& out) {
  std::optional<HelmReleaseEstimate> estimate = helm_release_estimate(ctx.bundle);
  if (!estimate || !near_limit(estimate->estimate_bytes, kHelmReleaseLimit)) return;
  // Argo CD, kubectl, kapp and OLM keep no Helm release.
  bool chart = installed_as_chart(ctx.bundle);
  if (!ctx.deploy_with.empty() &&
      std::none_of(ctx.deploy_with.begin(), ctx.deploy_with.end(),
                   [&](DeliveryPath p) { return stores_helm_release(p, chart); }))
    return;
  if (ctx.bundle.objects.empty()) return;
  const Object* largest = &ctx.bundle.objects.front();
  for (const Object& obj : ctx.bundle.objects) {
    if (obj.yaml_bytes > largest->yaml_bytes) largest = &obj;
  }
  bool over = estimate->estimate_bytes > kHelmReleaseLimit;
  std::string amount =
      estimate->complete
          ? fmt::format("about {} bytes that way ({} gzipped)",
                        with_commas(estimate->estimate_bytes), with_commas(estimate->gzip_bytes))
          : fmt::format("more than {} bytes that way (footprint stopped compressing there)",
                        with_commas(estimate->estimate_bytes));
  Finding& f = out.add(
      *largest, over ? Severity::kHigh : Severity::kMedium,
      fmt::format("The bundle was rendered by Helm, which stores the release gzipped and "
                  "base64-encoded in a Secret of at most {} bytes. The rendered manifests "
                  "alone come to {}, {} of the limit. This is an estimate and a lower bound: "
                  "the release also holds the chart's templates, files and values. {} The "
                  "largest object is {} ({} bytes of YAML).",
                  with_commas(kHelmReleaseLimit), amount,
                  percent_of(estimate->estimate_bytes, kHelmReleaseLimit),
                  over ? "helm install fails with \"data: Too long: must have at most "
                         "1048576 bytes\" (\"may not be more than 1048576 bytes\" since "
                         "Kubernetes 1.32)."
                       : "A little growth makes helm install fail.",
                  largest->display(), with_commas(largest->yaml_bytes)),
      "Install the CRDs separately (`kubectl apply --server-side`, or a chart of their own) "
      "and keep them out of this chart, including its crds/ directory, which Helm stores in "
      "the release too; or split the chart.");
  f.summary = over ? "helm install fails: the release is over Helm's 1 MiB Secret limit"
                   : "The Helm release is near Helm's 1 MiB Secret limit";
}

}  // namespace

extern const Check kCrdTooLargeForClientSideApply{
    .id = "crd-too-large-for-client-side-apply",
    .min_severity = Severity::kInfo,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kCrds,
    .description =
        "An object is too large for client-side kubectl apply's last-applied annotation (256 KiB).",
    .run = run_too_large_for_client_side_apply,
    .rationale =
        "Client-side kubectl apply stores the whole object in the last-applied-configuration "
        "annotation, and all annotations together may not exceed 262,144 bytes; larger CRDs fail "
        "to apply that way (Helm and server-side apply do not write the annotation). High over the "
        "limit; low from 90 % of it. For a chart (a render with Helm's `# Source:` lines and "
        "labels), "
        "medium: Helm and Flux keep no copy, but Argo CD's default and kapp fail. With "
        "--deploy-with, high when a chosen path keeps a copy (kubectl, argocd, kapp) and info when "
        "none does; info when a container of the bundle applies the CRD itself.",
    .fix =
        "Apply with kubectl apply --server-side; with Argo CD annotate the object "
        "argocd.argoproj.io/sync-options: ServerSideApply=true; with kapp "
        "kapp.k14s.io/disable-original.",
    .breaks_on_install = true,
};

extern const Check kCrdRequestSizeLimit{
    .id = "crd-request-size-limit",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kCrds,
    .description = "An object is over or near the API server's 3 MiB limit on request bodies.",
    .run = run_request_size_limit,
    .rationale =
        "The API server rejects request bodies over 3 MiB whatever the client, so such an object "
        "cannot be installed at all. High over the limit; low from 90 % of it.",
    .fix = "Shrink the object (drop schema descriptions or unused versions).",
    .breaks_on_install = true,
};

extern const Check kCrdEtcdSizeLimit{
    .id = "crd-etcd-size-limit",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kMedium,
    .impact = Impact::kInstall,
    .area = Area::kCrds,
    .description = "An object is over or near etcd's default 1.5 MiB --max-request-bytes.",
    .run = run_etcd_size_limit,
    .rationale =
        "etcd's default --max-request-bytes is 1.5 MiB; a stored object near that size fails to "
        "write on clusters that keep the default. Medium over it; low from 90 %.",
    .fix = "Check the cluster's etcd setting, or shrink the object.",
    .breaks_on_install = true,
};

extern const Check kHelmReleaseTooLarge{
    .id = "helm-release-too-large",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kHigh,
    .impact = Impact::kInstall,
    .area = Area::kCrds,
    .description = "Helm's release Secret (1 MiB) is estimated to be over or near its limit.",
    .run = run_helm_release_too_large,
    .rationale =
        "Helm stores each release gzipped and base64-encoded in a Secret of at most 1 MiB; the "
        "estimate from the rendered manifests is a lower bound. High over the limit (helm install "
        "fails); medium from 90 %. Not reported when --deploy-with names only paths that keep no "
        "Helm release (kubectl, Argo CD, kapp, OLM).",
    .fix = "Install the CRDs separately and keep them out of the chart, or split the chart.",
};

}  // namespace footprint
