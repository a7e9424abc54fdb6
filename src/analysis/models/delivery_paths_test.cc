// The delivery-path rules, each with its source (../shared/research/delivery-paths.md, §1). Sizes
// are set by hand around the limits: apimachinery's TotalAnnotationSizeLimitB (262,144), the API
// server's MaxRequestBodyBytes (3,145,728), etcd's default --max-request-bytes (1,572,864) and
// core.MaxSecretSize (1,048,576); object_sizes' own tests pin how the sizes are computed.
#include "analysis/models/delivery_paths.h"

#include <gtest/gtest.h>

#include "model/testing.h"

namespace footprint {
namespace {

using testing::bundle_from;

constexpr const char* kDeliveredCrd =
    "---\n# Source: chart/crds/widgets.yaml\n"
    "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
    "metadata: {name: widgets.example.com}\n"
    "spec: {group: example.com, scope: Namespaced, names: {plural: widgets, kind: Widget}}\n";
constexpr const char* kTemplateCrd =
    "---\n# Source: chart/templates/widgets.yaml\n"
    "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
    "metadata: {name: widgets.example.com}\n"
    "spec: {group: example.com, scope: Namespaced, names: {plural: widgets, kind: Widget}}\n";

ObjectSize sized(const Object& obj, uint64_t json, uint64_t annotations, uint64_t yaml = 0) {
  ObjectSize s;
  s.object = &obj;
  s.yaml_bytes = yaml ? yaml : json * 3;
  s.sizes = ApplySizes{json, json + 1, annotations};
  return s;
}

TEST(DeliveryPaths, NamesRoundTrip) {
  for (DeliveryPath p : kAllDeliveryPaths)
    EXPECT_TRUE(parse_delivery_path(path_name(p)) == p);
  EXPECT_FALSE(parse_delivery_path("helm"));
}

// helm/helm pkg/action/action.go renderResources: with --include-crds, `helm template` writes each
// of chart.CRDObjects() as "---\n# Source: %s\n" with crd.Filename, the path from the top chart
// ("chart/crds/x.yaml", "parent/charts/sub/crds/x.yaml" for a subchart's), and each template the
// same way with its name under templates/.
TEST(DeliveryPaths, CrdsDirectoryFromHelmSourceComment) {
  Bundle a = bundle_from(kDeliveredCrd);
  Bundle b = bundle_from(kTemplateCrd);
  std::string sub = kDeliveredCrd;
  sub.replace(sub.find("chart/crds/"), 11, "parent/charts/sub/crds/");
  Bundle c = bundle_from(sub);
  EXPECT_TRUE(in_helm_crds_dir(a.objects[0]));
  EXPECT_FALSE(in_helm_crds_dir(b.objects[0]));
  EXPECT_TRUE(in_helm_crds_dir(c.objects[0]));
  EXPECT_TRUE(installed_as_chart(a));
  Bundle plain =
      bundle_from(std::string(kDeliveredCrd).substr(std::string(kDeliveredCrd).find("apiVersion")));
  EXPECT_FALSE(installed_as_chart(plain));
  EXPECT_FALSE(in_helm_crds_dir(plain.objects[0]));
}

// kubernetes/kubectl pkg/util/apply.go: client-side apply writes last-applied-configuration;
// kubernetes/kubernetes#85840 (not possible to change for client-side apply). The wording changed
// in kubernetes/kubernetes PR#128553 ("must have at most" -> "may not be more than"). kubectl
// prints an Invalid status as "The <Kind> <name quoted> is invalid: " (kubectl pkg/cmd/util
// helpers.go checkErr); apimachinery's ValidateAnnotationsSize rejects only a total over the limit.
TEST(DeliveryPaths, ClientSideApplyFailsOverAnnotationLimitInBothWordings) {
  Bundle b = bundle_from(kDeliveredCrd);
  ObjectSize s = sized(b.objects[0], 400'000, 262'145);
  PathVerdict v = object_verdict(DeliveryPath::kKubectl, s, true);
  EXPECT_EQ(v.outcome, Outcome::kFails);
  ASSERT_EQ(v.errors.size(), 2U);
  EXPECT_NE(v.errors[0].find("The CustomResourceDefinition \"widgets.example.com\" is invalid: "
                             "metadata.annotations: Too long: must have at most 262144 bytes"),
            std::string::npos);
  EXPECT_NE(v.errors[1].find("metadata.annotations: Too long: may not be more than 262144 bytes"),
            std::string::npos);
  EXPECT_NE(v.fix.find("kubectl apply --server-side"), std::string::npos);
  // Exactly the limit passes: ValidateAnnotationsSize rejects only a total above it.
  EXPECT_NE(
      object_verdict(DeliveryPath::kKubectl, sized(b.objects[0], 400'000, 262'144), true).outcome,
      Outcome::kFails);
}

// argo-cd docs/operator-manual/upgrading/3.2-3.3.md and argoproj/argo-cd#8128: Argo CD applies
// client-side by default, even a chart's crds/ (rendered with --include-crds, argo-cd#3336); the
// per-resource fix is argocd.argoproj.io/sync-options: ServerSideApply=true (argo-cd docs
// user-guide/sync-options.md; kedacore/charts#653). Argo CD shows the API server's own message,
// "<Kind>.<group> <name quoted> is invalid: ..." (apimachinery pkg/api/errors NewInvalid).
TEST(DeliveryPaths, ArgoCdDefaultFailsAndNamesPerResourceServerSideApply) {
  Bundle b = bundle_from(kDeliveredCrd);
  ObjectSize s = sized(b.objects[0], 400'000, 800'000);
  PathVerdict v = object_verdict(DeliveryPath::kArgocd, s, true);
  EXPECT_EQ(v.outcome, Outcome::kFails);
  EXPECT_NE(v.errors[0].find("CustomResourceDefinition.apiextensions.k8s.io "
                             "\"widgets.example.com\" is invalid"),
            std::string::npos);
  EXPECT_NE(v.fix.find("argocd.argoproj.io/sync-options: ServerSideApply=true"), std::string::npos);
  EXPECT_EQ(object_verdict(DeliveryPath::kArgocdSsa, s, true).outcome, Outcome::kWorks);
}

// carvel-dev/kapp#48 (the Too long error when saving the original) and kapp v0.28.0's
// kapp.k14s.io/disable-original.
TEST(DeliveryPaths, KappFailsAndNamesDisableOriginal) {
  Bundle b = bundle_from(kTemplateCrd);
  PathVerdict v = object_verdict(DeliveryPath::kKapp, sized(b.objects[0], 400'000, 800'000), true);
  EXPECT_EQ(v.outcome, Outcome::kFails);
  EXPECT_NE(v.errors[0].find("Saving record of last applied resource"), std::string::npos);
  EXPECT_NE(v.fix.find("kapp.k14s.io/disable-original"), std::string::npos);
}

// helm-www chart_best_practices/custom_resource_definitions.md and helm/helm pkg/action/install.go
// installCRDs: crds/ is installed once, never upgraded, in Helm 3 and 4; fluxcd/helm-controller
// upgrade.crds defaults to Skip, CreateReplace replaces them. Helm writes no last-applied
// annotation (argo-cd upgrading/3.2-3.3.md).
TEST(DeliveryPaths, HelmAndFluxNeverUpgradeCrdsDirectory) {
  Bundle b = bundle_from(kDeliveredCrd);
  ObjectSize s = sized(b.objects[0], 400'000, 800'000);
  for (DeliveryPath p : {DeliveryPath::kHelm3, DeliveryPath::kHelm4, DeliveryPath::kFlux}) {
    PathVerdict v = object_verdict(p, s, true);
    EXPECT_EQ(v.outcome, Outcome::kNoUpgrade) << path_name(p);
  }
  EXPECT_NE(object_verdict(DeliveryPath::kFlux, s, true).fix.find("upgrade.crds: CreateReplace"),
            std::string::npos);
  // Argo CD and kubectl upgrade crds/ like any object.
  EXPECT_EQ(object_verdict(DeliveryPath::kKubectlServerSide, s, true).outcome, Outcome::kWorks);
  // A CRD of templates/ is upgraded with the release.
  Bundle t = bundle_from(kTemplateCrd);
  EXPECT_EQ(
      object_verdict(DeliveryPath::kHelm3, sized(t.objects[0], 400'000, 800'000), true).outcome,
      Outcome::kWorks);
  // Flux without a chart is the kustomize-controller, which applies server-side (always, since
  // Flux 0.18: fluxcd/kustomize-controller#486) and upgrades CRDs like any object.
  EXPECT_EQ(object_verdict(DeliveryPath::kFlux, s, false).outcome, Outcome::kWorks);
}

// helm-www docs/overview.md: Helm 4 installs server-side; upgrades keep the release's method.
TEST(DeliveryPaths, HelmFourSaysUpgradesKeepTheInstallMethod) {
  Bundle t = bundle_from(kTemplateCrd);
  PathVerdict v = object_verdict(DeliveryPath::kHelm4, sized(t.objects[0], 400'000, 800'000), true);
  EXPECT_EQ(v.outcome, Outcome::kWorks);
  EXPECT_NE(v.why.find("server-side apply"), std::string::npos);
  EXPECT_NE(v.why.find("upgrade keeps the method"), std::string::npos);
}

// The request body limit (kubernetes/kubernetes#105863: the API server's MaxRequestBodyBytes,
// 3 MiB; the handler answers errors.NewRequestEntityTooLargeError("limit is 3145728"), kubectl
// may show only the 413) holds for every client; client-side apply sends the object and its copy
// (open-telemetry/opentelemetry-operator PR#5023, banzaicloud/koperator#716).
TEST(DeliveryPaths, RequestBodyLimit) {
  Bundle b = bundle_from(kTemplateCrd);
  PathVerdict all = object_verdict(DeliveryPath::kKubectlServerSide,
                                   sized(b.objects[0], 3'145'728, 3'145'800), false);
  EXPECT_EQ(all.outcome, Outcome::kFails);
  EXPECT_EQ(all.errors[0], "Request entity too large: limit is 3145728");
  // 1.4 MB: server-side fits, client-side's body (object + copy) is over 3 MiB.
  ObjectSize s = sized(b.objects[0], 1'400'000, 1'800'000);
  EXPECT_EQ(object_verdict(DeliveryPath::kKubectl, s, false).errors[0],
            "Request entity too large: limit is 3145728");
  EXPECT_NE(object_verdict(DeliveryPath::kKubectlServerSide, s, false).outcome, Outcome::kFails);
}

// etcd's --max-request-bytes defaults to 1.5 MiB (etcd's configuration docs); kubernetes-sigs/
// prow#181: server-side apply of a CRD over it fails with "etcdserver: request is too large".
TEST(DeliveryPaths, EtcdLimitFailsServerSideToo) {
  Bundle b = bundle_from(kTemplateCrd);
  PathVerdict v = object_verdict(DeliveryPath::kKubectlServerSide,
                                 sized(b.objects[0], 1'572'865, 1'572'900), false);
  EXPECT_EQ(v.outcome, Outcome::kFails);
  EXPECT_EQ(v.errors[0], "etcdserver: request is too large");
}

// operator-framework/operator-lifecycle-manager#1523: a bundle manifest over a ConfigMap's 1 MiB.
TEST(DeliveryPaths, OlmConfigMapLimit) {
  Bundle b = bundle_from(kTemplateCrd);
  PathVerdict v =
      object_verdict(DeliveryPath::kOlm, sized(b.objects[0], 400'000, 800'000, 1'048'577), false);
  EXPECT_EQ(v.outcome, Outcome::kFails);
  EXPECT_NE(v.errors[0].find("[]: Too long: must have at most 1048576 bytes"), std::string::npos);
  // The ConfigMap is OLM's alone: the same object applies server-side.
  EXPECT_EQ(v.fix.find("no delivery path"), std::string::npos) << v.fix;
  EXPECT_EQ(object_verdict(DeliveryPath::kKubectlServerSide,
                           sized(b.objects[0], 400'000, 800'000, 1'048'577), false)
                .outcome,
            Outcome::kWorks);
}

// helm/helm pkg/storage/driver/secrets.go and ValidateSecret (1 MiB of data); warn at 90 %
// (cozystack/cozystack#4174); Argo CD keeps no release.
TEST(DeliveryPaths, HelmReleaseSecret) {
  HelmReleaseEstimate over{800'000, 1'048'577, true};
  std::string secret = release_secret_name("dynamo");
  EXPECT_EQ(secret, "sh.helm.release.v1.dynamo.v1");
  PathVerdict v = release_verdict(DeliveryPath::kHelm3, over, secret, true);
  EXPECT_EQ(v.outcome, Outcome::kFails);
  EXPECT_NE(v.errors[0].find("Secret \"sh.helm.release.v1.dynamo.v1\" is invalid: data: Too long: "
                             "must have at most 1048576 bytes"),
            std::string::npos);
  EXPECT_NE(v.errors[1].find("data: Too long: may not be more than 1048576 bytes"),
            std::string::npos);
  EXPECT_EQ(release_verdict(DeliveryPath::kArgocd, over, secret, true).outcome, Outcome::kWorks);
  EXPECT_EQ(release_verdict(DeliveryPath::kFlux, over, secret, true).outcome, Outcome::kFails);
  EXPECT_EQ(release_verdict(DeliveryPath::kFlux, over, secret, false).outcome, Outcome::kWorks);
  HelmReleaseEstimate near{700'000, 943'719, true};  // 90 % of 1,048,576 is 943,718.4
  EXPECT_EQ(release_verdict(DeliveryPath::kHelm4, near, secret, true).outcome, Outcome::kNear);
  HelmReleaseEstimate under{700'000, 943'718, true};
  EXPECT_EQ(release_verdict(DeliveryPath::kHelm4, under, secret, true).outcome, Outcome::kWorks);
}

// A limit's last 10 % is a warning (issue 44, "warn at 90 %", as cozystack/cozystack#4174 did by
// hand for the release Secret): the annotation total against ValidateAnnotationsSize's 262,144 on
// the paths that keep a copy, the body and etcd limits on every path.
TEST(DeliveryPaths, ObjectsNearALimit) {
  Bundle b = bundle_from(kTemplateCrd);
  // 90 % of 262,144 is 235,929.6.
  ObjectSize near = sized(b.objects[0], 200'000, 235'930);
  EXPECT_EQ(object_verdict(DeliveryPath::kKubectl, near, false).outcome, Outcome::kNear);
  EXPECT_NE(object_verdict(DeliveryPath::kArgocd, near, false).fix.find("ServerSideApply=true"),
            std::string::npos);
  EXPECT_EQ(object_verdict(DeliveryPath::kKubectlServerSide, near, false).outcome, Outcome::kWorks);
  EXPECT_EQ(
      object_verdict(DeliveryPath::kKubectl, sized(b.objects[0], 200'000, 235'929), false).outcome,
      Outcome::kWorks);
  // 90 % of etcd's 1,572,864 is 1,415,577.6: near on every path.
  EXPECT_EQ(object_verdict(DeliveryPath::kKubectlServerSide,
                           sized(b.objects[0], 1'415'578, 1'415'600), false)
                .outcome,
            Outcome::kNear);
}

TEST(DeliveryPaths, MatrixRowsAndDifferences) {
  Bundle b = bundle_from(std::string(kDeliveredCrd) +
                         "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: small}\n");
  std::vector<ObjectSize> sizes = {sized(b.objects[0], 400'000, 800'000),
                                   sized(b.objects[1], 100, 200)};
  std::vector<DeliveryRow> rows = delivery_matrix(sizes, std::nullopt, "", true, {});
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_EQ(rows[0].verdicts.size(), std::size(kAllDeliveryPaths));
  EXPECT_TRUE(rows[0].differs());
  DeliveryPath only[] = {DeliveryPath::kKubectlServerSide, DeliveryPath::kArgocdSsa};
  rows = delivery_matrix(sizes, std::nullopt, "", true, only);
  ASSERT_EQ(rows[0].verdicts.size(), 2U);
  EXPECT_FALSE(rows[0].differs());
}

}  // namespace
}  // namespace footprint
