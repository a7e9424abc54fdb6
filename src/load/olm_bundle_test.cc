// The hand-made bundle tests/data/olm/webhook-operator has a webhook of every type. What OLM makes
// of it is argued from OLM v1's renderer (operator-controller,
// internal/operator-controller/rukpak/render/registryv1/generators/generators.go, "generators"
// below), its certificate provider (rukpak/render/certproviders/certmanager.go) and its validators
// (rukpak/render/registryv1/validators/validator.go, "validators").
#include "load/olm_bundle.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace footprint {
namespace {

namespace fs = std::filesystem;

const std::string kBundle = FOOTPRINT_SOURCE_DIR "/tests/data/olm/webhook-operator";
const std::string kCsv = "manifests/webhook-operator.clusterserviceversion.yaml";

struct Rendered {
  RenderedOlm olm;
  std::vector<yaml::Document> docs;

  yaml::Node find(std::string_view kind, std::string_view name = "") const {
    for (const yaml::Document& d : docs) {
      if (d.root.get("kind").str() != kind) continue;
      if (name.empty() || d.root.at({"metadata", "name"}).str() == name) return d.root;
    }
    return {};
  }
  size_t count(std::string_view kind) const {
    size_t n = 0;
    for (const yaml::Document& d : docs)
      n += d.root.get("kind").str() == kind;
    return n;
  }
};

Rendered render(const std::string& path, const std::string& mode = "AllNamespaces") {
  Rendered r;
  auto olm = render_olm_input(path, mode, "ops");
  EXPECT_TRUE(olm.has_value()) << (olm ? "" : olm.error().front());
  if (!olm) return r;
  r.olm = std::move(*olm);
  auto docs = yaml::parse(r.olm.text);
  EXPECT_TRUE(docs.has_value()) << (docs ? "" : docs.error().message);
  if (docs) r.docs = std::move(*docs);
  return r;
}

std::string file_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A copy of the bundle with `from` replaced by `to` in the file `file`.
class EditedBundle {
 public:
  EditedBundle(const std::string& name, const std::string& file, const std::string& from,
               const std::string& to) {
    dir_ = fs::temp_directory_path() / ("footprint-olm-" + name + "-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::copy(kBundle, dir_, fs::copy_options::recursive);
    std::string text = file_text(dir_ / file);
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    std::ofstream(dir_ / file) << text;
  }
  ~EditedBundle() { fs::remove_all(dir_); }
  EditedBundle(const EditedBundle&) = delete;
  EditedBundle& operator=(const EditedBundle&) = delete;
  std::string path() const { return dir_.string(); }

 private:
  fs::path dir_;
};

std::vector<std::string> refusals(const std::string& path, const std::string& mode) {
  auto olm = render_olm_input(path, mode, "ops");
  EXPECT_FALSE(olm.has_value());
  return olm ? std::vector<std::string>{} : olm.error();
}

bool has_suffix(const std::vector<std::string>& messages, std::string_view suffix) {
  for (const std::string& m : messages) {
    if (m.ends_with(suffix)) return true;
  }
  return false;
}

TEST(OlmBundle, AdmissionWebhooksCallTheGeneratedServiceOnTheContainerPort) {
  Rendered r = render(kBundle);
  // generators: the configuration and its one webhook are named by generateName without a
  // trailing "-"; the Service is CertProvisionerFor's `<deployment>-service`; the port is
  // containerPort; AllNamespaces (targets [""]) gives no namespaceSelector.
  yaml::Node vwc = r.find("ValidatingWebhookConfiguration", "vwidget.example.com");
  ASSERT_TRUE(vwc);
  yaml::Node hook = vwc.get("webhooks").item(0);
  EXPECT_EQ(hook.get("name").str(), "vwidget.example.com");
  yaml::Node service = hook.at({"clientConfig", "service"});
  EXPECT_EQ(service.get("name").str(), "webhook-operator-controller-manager-service");
  EXPECT_EQ(service.get("namespace").str(), "ops");
  EXPECT_EQ(service.get("path").str(), "/validate-widget");
  EXPECT_EQ(service.get("port").str(), "443");
  EXPECT_FALSE(hook.get("namespaceSelector"));
  EXPECT_EQ(hook.get("failurePolicy").str(), "Fail");
  // certmanager.go: the configuration asks cert-manager for the CA of `<service>-cert`.
  EXPECT_EQ(vwc.at({"metadata", "annotations", "cert-manager.io/inject-ca-from"}).str(),
            "ops/webhook-operator-controller-manager-service-cert");
  yaml::Node mwc = r.find("MutatingWebhookConfiguration", "mwidget.example.com");
  ASSERT_TRUE(mwc);
  EXPECT_EQ(mwc.get("webhooks").item(0).get("reinvocationPolicy").str(), "IfNeeded");
  EXPECT_EQ(mwc.get("webhooks").item(0).at({"clientConfig", "service", "path"}).str(),
            "/mutate-widget");
}

TEST(OlmBundle, OneServicePortPerDistinctContainerAndTargetPort) {
  Rendered r = render(kBundle);
  // generators: ports are a set of ServicePort{name: containerPort, port, targetPort}; the three
  // webhooks share 443 -> 9443, so the Service has one port, and selects the deployment's pods.
  ASSERT_EQ(r.count("Service"), 1U);
  yaml::Node svc = r.find("Service", "webhook-operator-controller-manager-service");
  ASSERT_TRUE(svc);
  yaml::Node ports = svc.at({"spec", "ports"});
  ASSERT_EQ(ports.size(), 1U);
  EXPECT_EQ(ports.item(0).get("name").str(), "443");
  EXPECT_EQ(ports.item(0).get("port").str(), "443");
  EXPECT_EQ(ports.item(0).get("targetPort").str(), "9443");
  EXPECT_EQ(svc.at({"spec", "selector", "control-plane"}).str(), "webhook-operator");
}

TEST(OlmBundle, ConversionWebhookIsWiredIntoTheOwnedCrd) {
  Rendered r = render(kBundle);
  // generators (BundleCRDGenerator): strategy Webhook, the Service in the install namespace,
  // webhookPath (default "/"), containerPort, and admissionReviewVersions as the conversion
  // review versions; certmanager.go annotates the CRD for CA injection.
  yaml::Node crd = r.find("CustomResourceDefinition", "widgets.example.com");
  ASSERT_TRUE(crd);
  yaml::Node conversion = crd.at({"spec", "conversion"});
  EXPECT_EQ(conversion.get("strategy").str(), "Webhook");
  yaml::Node service = conversion.at({"webhook", "clientConfig", "service"});
  EXPECT_EQ(service.get("name").str(), "webhook-operator-controller-manager-service");
  EXPECT_EQ(service.get("namespace").str(), "ops");
  EXPECT_EQ(service.get("path").str(), "/convert");
  EXPECT_EQ(service.get("port").str(), "443");
  EXPECT_EQ(conversion.at({"webhook", "conversionReviewVersions"}).item(0).str(), "v1");
  EXPECT_EQ(crd.at({"metadata", "annotations", "cert-manager.io/inject-ca-from"}).str(),
            "ops/webhook-operator-controller-manager-service-cert");
  // The CRD is rendered, so its file is not loaded a second time.
  for (const std::string& f : r.olm.files)
    EXPECT_FALSE(f.ends_with("example.com_widgets.yaml")) << f;
}

TEST(OlmBundle, WebhookDeploymentMountsTheCertificateOlmProvides) {
  Rendered r = render(kBundle);
  yaml::Node dep = r.find("Deployment", "webhook-operator-controller-manager");
  ASSERT_TRUE(dep);
  // generators: the CSV's deployment label, revisionHistoryLimit 1, the OperatorGroup's
  // annotations on the pod template, and the webhook-cert Secret mounted where
  // controller-runtime reads its serving certificate.
  EXPECT_EQ(dep.at({"metadata", "labels", "app.kubernetes.io/name"}).str(), "webhook-operator");
  EXPECT_EQ(dep.at({"spec", "revisionHistoryLimit"}).str(), "1");
  yaml::Node annotations = dep.at({"spec", "template", "metadata", "annotations"});
  EXPECT_EQ(annotations.get("olm.targetNamespaces").str(), "");
  EXPECT_EQ(annotations.get("olm.operatorNamespace").str(), "ops");
  EXPECT_EQ(annotations.get("capabilities").str(), "Basic Install");
  yaml::Node pod = dep.at({"spec", "template", "spec"});
  yaml::Node volume = pod.get("volumes").item(0);
  EXPECT_EQ(volume.get("name").str(), "webhook-cert");
  EXPECT_EQ(volume.at({"secret", "secretName"}).str(),
            "webhook-operator-controller-manager-service-cert");
  yaml::Node mount = pod.get("containers").item(0).get("volumeMounts").item(0);
  EXPECT_EQ(mount.get("mountPath").str(), "/tmp/k8s-webhook-server/serving-certs");
  // certmanager.go: a self-signed Issuer and a Certificate for the Service's DNS name.
  yaml::Node cert = r.find("Certificate", "webhook-operator-controller-manager-service-cert");
  ASSERT_TRUE(cert);
  EXPECT_EQ(cert.at({"spec", "dnsNames"}).item(0).str(),
            "webhook-operator-controller-manager-service.ops.svc");
  EXPECT_TRUE(
      r.find("Issuer", "webhook-operator-controller-manager-service-cert-selfsigned-issuer"));
}

TEST(OlmBundle, AllNamespacesPromotesPermissionsWithNamespaceRead) {
  Rendered r = render(kBundle);
  // generators: no Role in AllNamespaces; the permission becomes a ClusterRole with
  // get/list/watch on namespaces appended, beside the clusterPermissions' ClusterRole.
  EXPECT_EQ(r.count("Role"), 0U);
  EXPECT_EQ(r.count("ClusterRole"), 2U);
  EXPECT_EQ(r.count("ClusterRoleBinding"), 2U);
  EXPECT_EQ(r.count("ServiceAccount"), 1U);
  bool promoted = false;
  for (const yaml::Document& d : r.docs) {
    if (d.root.get("kind").str() != "ClusterRole") continue;
    yaml::Node rules = d.root.get("rules");
    yaml::Node last = rules.item(rules.size() - 1);
    if (last.get("resources").item(0).str() == "namespaces" &&
        rules.item(0).get("resources").item(0).str() == "leases") {
      promoted = true;
    }
  }
  EXPECT_TRUE(promoted);
}

TEST(OlmBundle, RelatedImagesAndMinKubeVersionAreKept) {
  Rendered r = render(kBundle);
  auto bundle = read_olm_bundle(kBundle);
  ASSERT_TRUE(bundle.has_value());
  std::vector<RelatedImage> images = related_images(*bundle);
  ASSERT_EQ(images.size(), 2U);
  EXPECT_EQ(images[1].image, "quay.io/example/widget-sidecar:v2");
  EXPECT_TRUE(images[1].origin.ends_with(kCsv + ":29"));
  bool min_kube = false;
  for (const std::string& note : r.olm.notes)
    min_kube = min_kube || note.find("Kubernetes 1.28.0 or later") != std::string::npos;
  EXPECT_TRUE(min_kube);
}

TEST(OlmBundle, SingleNamespaceWebhooksSeeOnlyTheWatchedNamespace) {
  // Without its conversion webhook the bundle may support SingleNamespace (validators).
  EditedBundle edited("single", kCsv, "  - type: SingleNamespace\n    supported: false",
                      "  - type: SingleNamespace\n    supported: true");
  std::string csv = file_text(fs::path(edited.path()) / kCsv);
  std::ofstream(fs::path(edited.path()) / kCsv)
      << csv.substr(0, csv.find("  - type: ConversionWebhook"));
  Rendered r = render(edited.path(), "SingleNamespace=team-a");
  // generators (getWebhookNamespaceSelector): kubernetes.io/metadata.name In [targets].
  yaml::Node selector =
      r.find("ValidatingWebhookConfiguration").get("webhooks").item(0).get("namespaceSelector");
  yaml::Node expression = selector.get("matchExpressions").item(0);
  EXPECT_EQ(expression.get("key").str(), "kubernetes.io/metadata.name");
  EXPECT_EQ(expression.get("operator").str(), "In");
  EXPECT_EQ(expression.get("values").item(0).str(), "team-a");
  // Permissions: a Role and RoleBinding in the watched namespace, for the account in "ops".
  yaml::Node role = r.find("Role");
  ASSERT_TRUE(role);
  EXPECT_EQ(role.at({"metadata", "namespace"}).str(), "team-a");
  EXPECT_EQ(r.find("RoleBinding").get("subjects").item(0).get("namespace").str(), "ops");
  EXPECT_EQ(r.count("ClusterRole"), 1U);
}

TEST(OlmBundle, ConversionWebhooksNeedAnAllNamespacesOnlyBundle) {
  EditedBundle edited("conversion", kCsv, "  - type: OwnNamespace\n    supported: false",
                      "  - type: OwnNamespace\n    supported: true");
  // validators.CheckConversionWebhookSupport, the modes sorted.
  EXPECT_TRUE(has_suffix(
      refusals(edited.path(), "AllNamespaces"),
      "bundle contains conversion webhook \"cwidget.example.com\" and supports install modes "
      "[AllNamespaces OwnNamespace] - conversion webhooks are only supported for bundles that "
      "only support AllNamespaces install mode"));
}

TEST(OlmBundle, WebhookRulesOnAllGroupsOrWebhookConfigurationsAreForbidden) {
  EditedBundle all_groups(
      "groups", kCsv,
      "    - apiGroups: [example.com]\n      apiVersions: [v1]\n      operations: [CREATE, UPDATE]",
      "    - apiGroups: ['*']\n      apiVersions: [v1]\n      operations: [CREATE, UPDATE]");
  // validators.CheckWebhookRules.
  EXPECT_TRUE(has_suffix(refusals(all_groups.path(), "AllNamespaces"),
                         "webhook \"vwidget.example.com\" contains forbidden rule: admission "
                         "webhook rules cannot reference API group \"*\""));
  EditedBundle configs("configs", kCsv, "      operations: [CREATE]\n      resources: [widgets]",
                       "      operations: [CREATE]\n      resources: [widgets]\n    - apiGroups: "
                       "[admissionregistration.k8s.io]\n      apiVersions: [v1]\n      "
                       "operations: [CREATE]\n      resources: [ValidatingWebhookConfigurations]");
  EXPECT_TRUE(has_suffix(refusals(configs.path(), "AllNamespaces"),
                         "webhook \"mwidget.example.com\" contains forbidden rule: admission "
                         "webhook rules cannot reference resource "
                         "\"ValidatingWebhookConfigurations\" for API group "
                         "\"admissionregistration.k8s.io\""));
}

TEST(OlmBundle, OwnedCrdMissingAndUnsupportedKindsAreRefused) {
  EditedBundle edited("missing", "manifests/example.com_widgets.yaml",
                      "kind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com",
                      "kind: Deployment\nmetadata:\n  name: widgets.example.com");
  std::vector<std::string> messages = refusals(edited.path(), "AllNamespaces");
  // validators.CheckOwnedCRDExistence, and generators.BundleAdditionalResourcesGenerator's
  // check against operator-registry's supported kinds.
  EXPECT_TRUE(has_suffix(messages,
                         "cluster service definition references owned custom "
                         "resource definition 'widgets.example.com' not found in "
                         "bundle"));
  EXPECT_TRUE(has_suffix(messages,
                         "bundle contains unsupported resource: Name: "
                         "widgets.example.com, Kind: Deployment"));
}

TEST(OlmBundle, PreservedUnknownFieldsBlockConversion) {
  EditedBundle edited("preserve", "manifests/example.com_widgets.yaml", "  scope: Namespaced",
                      "  scope: Namespaced\n  preserveUnknownFields: true");
  // generators.BundleCRDGenerator.
  EXPECT_TRUE(has_suffix(refusals(edited.path(), "AllNamespaces"),
                         "custom resource definition 'widgets.example.com' must have "
                         ".spec.preserveUnknownFields set to false to let API Server call "
                         "webhook to do the conversion"));
}

TEST(OlmBundle, UnsupportedInstallModeIsRefused) {
  std::vector<std::string> messages = refusals(kBundle, "OwnNamespace");
  ASSERT_EQ(messages.size(), 1U);
  EXPECT_NE(messages[0].find("does not support install mode OwnNamespace (it supports "
                             "AllNamespaces)"),
            std::string::npos);
  EXPECT_NE(messages[0].find(kCsv + ":17"), std::string::npos);
}

TEST(OlmBundle, InstallModesParseAsInstallModeFlags) {
  EXPECT_EQ(parse_install_mode("MultiNamespace=a,b")->targets,
            (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(parse_install_mode("SingleNamespace"));
  EXPECT_FALSE(parse_install_mode("SingleNamespace=a,b"));
  EXPECT_FALSE(parse_install_mode("AllNamespaces=a"));
  EXPECT_FALSE(parse_install_mode("Everywhere"));
  EXPECT_EQ(parse_install_mode("SingleNamespace=a")->name(), "SingleNamespace=a");
}

}  // namespace
}  // namespace footprint
