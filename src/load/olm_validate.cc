// OLM v1's bundle validators (operator-controller,
// internal/operator-controller/rukpak/render/registryv1/validators/validator.go) and the
// supported-kind check of its generators, with their messages, after the bundle file and line
// each one is about. OLM refuses to install a bundle that fails any of them.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "load/olm_bundle.h"
#include "util/strings.h"

namespace footprint {

namespace {

using yaml::Node;

std::string at(const OlmManifest& m, const Node& n) {
  return fmt::format("{}:{}", m.file, n ? n.position().line : m.node.position().line);
}

// operator-registry's pkg/lib/bundle/supported_resources.go.
bool supported_kind(std::string_view kind) {
  for (std::string_view k :
       {"ClusterServiceVersion", "CustomResourceDefinition", "ClusterRole", "ClusterRoleBinding",
        "Service", "ServiceAccount", "Role", "RoleBinding", "PrometheusRule", "ServiceMonitor",
        "Secret", "ConfigMap", "PodDisruptionBudget", "PriorityClass", "VerticalPodAutoscaler",
        "ConsoleYAMLSample"}) {
    if (k == kind) return true;
  }
  return false;
}

struct Checker {
  const OlmBundle& bundle;
  const OlmManifest& csv;
  Node webhooks;
  std::vector<std::string> out;

  void add(const Node& n, std::string message) {
    out.push_back(fmt::format("{}: {}", at(csv, n), message));
  }

  void deployments() {
    Node list = csv.node.at({"spec", "install", "spec", "deployments"});
    std::map<std::string, Node> seen;
    std::set<std::string> reported;
    for (size_t i = 0; i < list.size(); ++i) {
      std::string name(list.item(i).get("name").str());
      if (!seen.emplace(name, list.item(i)).second && reported.insert(name).second) {
        add(list.item(i),
            fmt::format("cluster service version contains duplicate strategy deployment "
                        "spec '{}'",
                        name));
      }
    }
  }

  void crds() {
    std::set<std::string> names;
    std::set<std::string> duplicates;
    for (const OlmManifest& crd : bundle.crds) {
      if (!names.insert(crd.name).second && duplicates.insert(crd.name).second) {
        out.push_back(fmt::format("{}: bundle contains duplicate custom resource definition '{}'",
                                  at(crd, crd.node), crd.name));
      }
    }
    Node owned = csv.node.at({"spec", "customresourcedefinitions", "owned"});
    std::map<std::string, Node> missing;
    for (size_t i = 0; i < owned.size(); ++i) {
      std::string name(owned.item(i).get("name").str());
      if (!names.count(name)) missing.emplace(name, owned.item(i));
    }
    for (const auto& [name, node] : missing) {
      add(node, fmt::format("cluster service definition references owned custom resource "
                            "definition '{}' not found in bundle",
                            name));
    }
  }

  void conversion_modes() {
    std::vector<std::string> modes = bundle.supported_modes();
    std::sort(modes.begin(), modes.end());
    if (modes.size() == 1 && modes.front() == "AllNamespaces") return;
    for (size_t i = 0; i < webhooks.size(); ++i) {
      Node wh = webhooks.item(i);
      if (wh.get("type").str() != "ConversionWebhook") continue;
      add(wh, fmt::format("bundle contains conversion webhook {} and supports install modes [{}] "
                          "- conversion webhooks are only supported for bundles that only "
                          "support AllNamespaces install mode",
                          go_quote(wh.get("generateName").str()), fmt::join(modes, " ")));
    }
  }

  void webhook_references() {
    std::set<std::string> deployments;
    Node list = csv.node.at({"spec", "install", "spec", "deployments"});
    for (size_t i = 0; i < list.size(); ++i)
      deployments.emplace(list.item(i).get("name").str());
    std::map<std::pair<std::string, std::string>, Node> names;
    std::set<std::pair<std::string, std::string>> duplicates;
    for (size_t i = 0; i < webhooks.size(); ++i) {
      Node wh = webhooks.item(i);
      std::string type(wh.get("type").str());
      std::string name(wh.get("generateName").str());
      std::string_view deployment = wh.get("deploymentName").str();
      if (!deployments.count(std::string(deployment))) {
        add(wh, fmt::format("webhook of type '{}' with name '{}' references non-existent "
                            "deployment '{}'",
                            type, name, deployment));
      }
      if (!names.emplace(std::pair(type, name), wh).second &&
          duplicates.emplace(type, name).second) {
        add(wh, fmt::format("duplicate webhook '{}' of type '{}'", name, type));
      }
    }
  }

  void conversion_crds() {
    std::set<std::string> owned;
    Node list = csv.node.at({"spec", "customresourcedefinitions", "owned"});
    for (size_t i = 0; i < list.size(); ++i)
      owned.emplace(list.item(i).get("name").str());
    std::map<std::string, std::vector<std::string>> webhooks_of;
    std::map<std::string, Node> first;
    for (size_t i = 0; i < webhooks.size(); ++i) {
      Node wh = webhooks.item(i);
      if (wh.get("type").str() != "ConversionWebhook") continue;
      std::string name(wh.get("generateName").str());
      Node crds = wh.get("conversionCRDs");
      for (size_t c = 0; c < crds.size(); ++c) {
        std::string crd(crds.item(c).str());
        webhooks_of[crd].push_back(name);
        first.emplace(crd, crds.item(c));
        if (!owned.count(crd)) {
          add(crds.item(c), fmt::format("conversion webhook '{}' references custom resource "
                                        "definition '{}' not owned bundle",
                                        name, crd));
        }
      }
    }
    for (auto& [crd, names] : webhooks_of) {
      if (names.size() < 2) continue;
      std::sort(names.begin(), names.end());
      add(first[crd], fmt::format("conversion webhooks [{}] reference same custom resource "
                                  "definition '{}'",
                                  fmt::join(names, ","), crd));
    }
  }

  // Webhooks that could lock OLM or the cluster's webhook configurations out.
  void webhook_rules() {
    for (size_t i = 0; i < webhooks.size(); ++i) {
      Node wh = webhooks.item(i);
      if (wh.get("type").str() == "ConversionWebhook") continue;
      std::string name = go_quote(wh.get("generateName").str());
      Node rules = wh.get("rules");
      for (size_t r = 0; r < rules.size(); ++r) {
        Node groups = rules.item(r).get("apiGroups");
        for (size_t g = 0; g < groups.size(); ++g) {
          std::string_view group = groups.item(g).str();
          if (group == "*" || group == "olm.operatorframework.io") {
            add(groups.item(g), fmt::format("webhook {} contains forbidden rule: admission "
                                            "webhook rules cannot reference API group {}",
                                            name, go_quote(group)));
          }
          if (group != "admissionregistration.k8s.io") continue;
          Node resources = rules.item(r).get("resources");
          for (size_t k = 0; k < resources.size(); ++k) {
            std::string lower(resources.item(k).str());
            std::transform(lower.begin(), lower.end(), lower.begin(), [](char c) {
              return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
            });
            if (lower == "*" || lower == "mutatingwebhookconfiguration" ||
                lower == "mutatingwebhookconfigurations" ||
                lower == "validatingwebhookconfiguration" ||
                lower == "validatingwebhookconfigurations") {
              add(resources.item(k),
                  fmt::format("webhook {} contains forbidden rule: admission webhook rules "
                              "cannot reference resource {} for API group {}",
                              name, go_quote(resources.item(k).str()), go_quote(group)));
            }
          }
        }
      }
    }
  }

  void kinds() {
    for (const OlmManifest& m : bundle.others) {
      if (supported_kind(m.kind)) continue;
      out.push_back(fmt::format("{}: bundle contains unsupported resource: Name: {}, Kind: {}",
                                at(m, m.node), m.name, m.kind));
    }
  }
};

}  // namespace

std::vector<std::string> validate_olm_bundle(const OlmBundle& bundle) {
  Checker c{bundle, bundle.csv, bundle.csv.node.at({"spec", "webhookdefinitions"}), {}};
  c.deployments();
  c.crds();
  if (bundle.package.empty()) c.out.push_back(bundle.root + ": package name is empty");
  c.conversion_modes();
  c.webhook_references();
  c.conversion_crds();
  c.webhook_rules();
  c.kinds();
  return c.out;
}

}  // namespace footprint
