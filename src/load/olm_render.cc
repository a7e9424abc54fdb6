// Renders a registry+v1 bundle as OLM v1's renderer does (operator-controller,
// internal/operator-controller/rukpak/render/registryv1/generators/generators.go), which keeps
// parity with OLM v0's installer: names, fields and defaults below follow it.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "load/olm_bundle.h"
#include "load/olm_render_parts.h"
#include "load/yaml_writer.h"

namespace footprint {

namespace {

using yaml::Node;
using yaml::Value;

std::string source_of(const OlmManifest& m, const Node& at) {
  return fmt::format("{}:{}", m.file, at ? at.position().line : m.node.position().line);
}

Value metadata(const std::string& name, const std::string& ns) {
  Value meta = Value::map();
  meta.set("name", Value::str(name));
  if (!ns.empty()) meta.set("namespace", Value::str(ns));
  return meta;
}

Value object(std::string_view api_version, std::string_view kind, const std::string& name,
             const std::string& ns = "") {
  Value obj = Value::map();
  obj.set("apiVersion", Value::str(std::string(api_version)));
  obj.set("kind", Value::str(std::string(kind)));
  obj.set("metadata", metadata(name, ns));
  return obj;
}

Value strings(const std::vector<std::string>& items) {
  Value seq = Value::seq();
  for (const std::string& s : items)
    seq.push(Value::str(s));
  return seq;
}

std::string port_or_default(const Node& port) {
  std::string_view text = port.text();
  return text.empty() || text == "0" ? "443" : std::string(text);
}

class Renderer {
 public:
  Renderer(const OlmBundle& bundle, const std::string& ns, std::vector<std::string> targets)
      : bundle_(bundle), csv_(bundle.csv), ns_(ns), targets_(std::move(targets)) {
    spec_ = csv_.node.get("spec");
    strategy_ = spec_.at({"install", "spec"});
    all_namespaces_ = targets_.size() == 1 && targets_.front().empty();
    csv_name_ = csv_.name;
  }

  tl::expected<RenderedOlm, std::vector<std::string>> run() {
    service_accounts();
    permissions();
    cluster_permissions();
    collect_webhooks();
    find_rendered_files();
    if (auto error = crds(); !error.empty()) return tl::unexpected(std::vector{error});
    others();
    deployments();
    admission_webhooks("ValidatingAdmissionWebhook", "ValidatingWebhookConfiguration");
    admission_webhooks("MutatingAdmissionWebhook", "MutatingWebhookConfiguration");
    services();
    api_services();
    certificates();
    min_kube_version();
    return std::move(out_);
  }

 private:
  void add(const std::string& source, const Value& obj) {
    out_.text += "---\n# Source: " + source + "\n" + yaml::write(obj);
  }

  // OLM names roles by CSV and account, made unique by a hash; a counter does here.
  std::string unique(const std::string& base) {
    int n = ++names_[base];
    return n == 1 ? base : fmt::format("{}-{}", base, n);
  }

  static std::string account(const Node& permission) {
    std::string_view sa = permission.get("serviceAccountName").str();
    return sa.empty() ? "default" : std::string(sa);
  }

  void service_accounts() {
    std::set<std::string> seen;
    for (const char* key : {"permissions", "clusterPermissions"}) {
      Node list = strategy_.get(key);
      for (size_t i = 0; i < list.size(); ++i) {
        std::string sa = account(list.item(i));
        // The namespace's default account exists already.
        if (sa == "default" || !seen.insert(sa).second) continue;
        add(source_of(csv_, list.item(i).get("serviceAccountName")),
            object("v1", "ServiceAccount", sa, ns_));
      }
    }
  }

  Value subjects(const std::string& sa) const {
    Value subject = Value::map();
    subject.set("kind", Value::str("ServiceAccount"));
    subject.set("name", Value::str(sa));
    subject.set("namespace", Value::str(ns_));
    Value list = Value::seq();
    list.push(std::move(subject));
    return list;
  }

  static Value role_ref(std::string_view kind, const std::string& name) {
    Value ref = Value::map();
    ref.set("apiGroup", Value::str("rbac.authorization.k8s.io"));
    ref.set("kind", Value::str(std::string(kind)));
    ref.set("name", Value::str(name));
    return ref;
  }

  static Value rules_of(const Node& permission) {
    Node rules = permission.get("rules");
    return rules ? Value::editable(rules) : Value::seq();
  }

  void binding(const std::string& source, std::string_view kind, const std::string& name,
               const std::string& ns, const std::string& sa, Value rules) {
    Value role = object("rbac.authorization.k8s.io/v1", kind, name, ns);
    role.set("rules", std::move(rules));
    add(source, role);
    std::string binding_kind = std::string(kind) + "Binding";
    Value bound = object("rbac.authorization.k8s.io/v1", binding_kind, name, ns);
    bound.set("roleRef", role_ref(kind, name));
    bound.set("subjects", subjects(sa));
    add(source, bound);
  }

  // permissions: a Role and RoleBinding in each target namespace; with AllNamespaces they are
  // promoted to cluster permissions (cluster_permissions()).
  void permissions() {
    if (all_namespaces_) return;
    Node list = strategy_.get("permissions");
    for (const std::string& target : targets_) {
      names_.clear();
      for (size_t i = 0; i < list.size(); ++i) {
        Node p = list.item(i);
        std::string sa = account(p);
        binding(source_of(csv_, p), "Role", unique(csv_name_ + "-" + sa), target, sa, rules_of(p));
      }
    }
    names_.clear();
  }

  void cluster_permissions() {
    Node list = strategy_.get("clusterPermissions");
    for (size_t i = 0; i < list.size(); ++i) {
      Node p = list.item(i);
      std::string sa = account(p);
      binding(source_of(csv_, p), "ClusterRole", unique(csv_name_ + "-" + sa), "", sa, rules_of(p));
    }
    if (!all_namespaces_) return;
    // OLM v0 parity: a promoted permission also reads namespaces.
    Node promoted = strategy_.get("permissions");
    for (size_t i = 0; i < promoted.size(); ++i) {
      Node p = promoted.item(i);
      std::string sa = account(p);
      Value rules = rules_of(p);
      Value read = Value::map();
      read.set("apiGroups", strings({""}));
      read.set("resources", strings({"namespaces"}));
      read.set("verbs", strings({"get", "list", "watch"}));
      rules.push(std::move(read));
      binding(source_of(csv_, p), "ClusterRole", unique(csv_name_ + "-" + sa), "", sa,
              std::move(rules));
    }
  }

  struct ServicePort {
    std::string port;
    Node target;  // absent: the port itself
    // By port number, then target: ports are digits without leading zeros.
    bool operator<(const ServicePort& o) const {
      return std::tuple(port.size(), port, target.text()) <
             std::tuple(o.port.size(), o.port, o.target.text());
    }
  };

  void collect_webhooks() {
    Node list = spec_.get("webhookdefinitions");
    for (size_t i = 0; i < list.size(); ++i) {
      Node wh = list.item(i);
      std::string deployment(wh.get("deploymentName").str());
      ports_[deployment].insert(
          ServicePort{port_or_default(wh.get("containerPort")), wh.get("targetPort")});
      cert_deployments_.insert(deployment);
      if (wh.get("type").str() != "ConversionWebhook") continue;
      Node crds = wh.get("conversionCRDs");
      for (size_t c = 0; c < crds.size(); ++c)
        conversions_[std::string(crds.item(c).str())] = wh;
    }
    Node apis = spec_.at({"apiservicedefinitions", "owned"});
    for (size_t i = 0; i < apis.size(); ++i) {
      std::string deployment(apis.item(i).get("deploymentName").str());
      ports_[deployment].insert(
          ServicePort{port_or_default(apis.item(i).get("containerPort")), {}});
      cert_deployments_.insert(deployment);
    }
  }

  // The CRD field and annotation the certificate provider (cert-manager, OLM v1's default) fills
  // in.
  Value ca_annotations(std::string_view deployment) const {
    Value annotations = Value::map();
    annotations.set("cert-manager.io/inject-ca-from",
                    Value::str(ns_ + "/" + service_name(deployment) + "-cert"));
    return annotations;
  }

  static void merge_annotations(Value& obj, Value annotations) {
    Value* meta = obj.find("metadata");
    Value* existing = meta->find("annotations");
    if (existing == nullptr || existing->type() != Value::Type::kMap) {
      meta->set("annotations", std::move(annotations));
      return;
    }
    for (const auto& [k, v] : annotations.entries())
      existing->set(k, v);
  }

  // Files that cannot be loaded as they are: the ClusterServiceVersion's (OLM creates no object
  // from it as such), those with a CRD OLM wires a conversion webhook into, and those with an
  // object whose namespace OLM replaces. Their other objects are rendered with them.
  void find_rendered_files() {
    rendered_files_.insert(csv_.file);
    for (const OlmManifest& crd : bundle_.crds) {
      if (conversions_.count(crd.name)) rendered_files_.insert(crd.file);
    }
    for (const OlmManifest& m : bundle_.others) {
      Node ns = m.node.at({"metadata", "namespace"});
      if (ns && ns.str() != ns_ && namespaced(m.kind)) rendered_files_.insert(m.file);
    }
  }

  void keep(const std::string& file) {
    if (std::find(out_.files.begin(), out_.files.end(), file) == out_.files.end())
      out_.files.push_back(file);
  }

  // Owned CRDs are created as they are, except that conversion webhooks are wired in.
  std::string crds() {
    for (const OlmManifest& crd : bundle_.crds) {
      if (!rendered_files_.count(crd.file)) {
        keep(crd.file);
        continue;
      }
      auto wiring = conversions_.find(crd.name);
      if (wiring == conversions_.end()) {
        add(source_of(crd, crd.node), Value::copy(crd.node));
        continue;
      }
      Node preserve = crd.node.at({"spec", "preserveUnknownFields"});
      if (preserve.text() == "true") {
        return fmt::format(
            "{}: custom resource definition '{}' must have .spec.preserveUnknownFields set to "
            "false to let API Server call webhook to do the conversion",
            source_of(crd, preserve), crd.name);
      }
      Node wh = wiring->second;
      std::string deployment(wh.get("deploymentName").str());
      Value out = Value::editable(crd.node);
      Value service = Value::map();
      service.set("name", Value::str(service_name(deployment)));
      service.set("namespace", Value::str(ns_));
      std::string_view path = wh.get("webhookPath").str();
      service.set("path", Value::str(path.empty() ? "/" : std::string(path)));
      service.set("port", Value::plain(port_or_default(wh.get("containerPort"))));
      Value client = Value::map();
      client.set("service", std::move(service));
      Value webhook = Value::map();
      webhook.set("clientConfig", std::move(client));
      if (Node versions = wh.get("admissionReviewVersions"))
        webhook.set("conversionReviewVersions", Value::copy(versions));
      Value conversion = Value::map();
      conversion.set("strategy", Value::str("Webhook"));
      conversion.set("webhook", std::move(webhook));
      if (Value* spec = out.find("spec")) spec->set("conversion", std::move(conversion));
      merge_annotations(out, ca_annotations(deployment));
      add(source_of(csv_, wh), out);
    }
    return "";
  }

  // Extra objects land in the install namespace: OLM sets it on the kinds it knows as namespaced.
  // The loader gives an object without a namespace the install namespace already.
  void others() {
    for (const OlmManifest& m : bundle_.others) {
      if (!rendered_files_.count(m.file)) {
        keep(m.file);
        continue;
      }
      Value out = Value::editable(m.node);
      if (namespaced(m.kind)) {
        if (Value* meta = out.find("metadata")) meta->set("namespace", Value::str(ns_));
      }
      add(source_of(m, m.node), out);
    }
  }

  // operator-registry's supported_resources.go: the extra kinds OLM sets a namespace on.
  static bool namespaced(std::string_view kind) {
    for (std::string_view k : {"Service", "ServiceAccount", "Role", "RoleBinding", "PrometheusRule",
                               "ServiceMonitor", "Secret", "ConfigMap", "PodDisruptionBudget"}) {
      if (k == kind) return true;
    }
    return false;
  }

  void deployments() {
    Node list = strategy_.get("deployments");
    Node csv_annotations = csv_.node.at({"metadata", "annotations"});
    for (size_t i = 0; i < list.size(); ++i) {
      Node d = list.item(i);
      std::string name(d.get("name").str());
      Value dep = object("apps/v1", "Deployment", name, ns_);
      if (Node labels = d.get("label"); labels.is_mapping() && labels.size() > 0)
        dep.find("metadata")->set("labels", Value::copy(labels));
      Value spec = d.get("spec").is_mapping() ? Value::editable(d.get("spec")) : Value::map();
      spec.set("revisionHistoryLimit", Value::plain("1"));
      Value* tmpl = spec.find("template");
      if (tmpl == nullptr) tmpl = &spec.set("template", Value::map());
      Value* meta = tmpl->find("metadata");
      if (meta == nullptr) meta = &tmpl->set("metadata", Value::map());
      // The CSV's annotations, then the template's own, then the OperatorGroup's.
      Value annotations = Value::map();
      for (size_t a = 0; a < csv_annotations.size(); ++a)
        annotations.set(csv_annotations.key(a).str(), Value::copy(csv_annotations.value(a)));
      if (Value* own = meta->find("annotations"); own && own->type() == Value::Type::kMap) {
        for (const auto& [k, v] : own->entries())
          annotations.set(k, v);
      }
      std::string joined = fmt::format("{}", fmt::join(targets_, ","));
      annotations.set("olm.targetNamespaces", Value::str(joined));
      annotations.set("olm.operatorNamespace", Value::str(ns_));
      meta->set("annotations", std::move(annotations));
      if (cert_deployments_.count(name)) add_webhook_cert_volume(*tmpl, name);
      dep.set("spec", std::move(spec));
      add(source_of(csv_, d), dep);
    }
  }

  void admission_webhooks(std::string_view type, std::string_view kind) {
    Node list = spec_.get("webhookdefinitions");
    for (size_t i = 0; i < list.size(); ++i) {
      Node wh = list.item(i);
      if (wh.get("type").str() != type) continue;
      std::string name(wh.get("generateName").str());
      if (name.ends_with("-")) name.pop_back();
      std::string deployment(wh.get("deploymentName").str());
      Value config = object("admissionregistration.k8s.io/v1", kind, name);
      merge_annotations(config, ca_annotations(deployment));
      Value hook = Value::map();
      hook.set("name", Value::str(name));
      Value service = Value::map();
      service.set("name", Value::str(service_name(deployment)));
      service.set("namespace", Value::str(ns_));
      if (Node path = wh.get("webhookPath")) service.set("path", Value::copy(path));
      service.set("port", Value::plain(port_or_default(wh.get("containerPort"))));
      Value client = Value::map();
      client.set("service", std::move(service));
      hook.set("clientConfig", std::move(client));
      for (const char* field : {"rules", "failurePolicy", "matchPolicy", "objectSelector",
                                "sideEffects", "timeoutSeconds", "admissionReviewVersions"}) {
        if (Node n = wh.get(field)) hook.set(field, Value::copy(n));
      }
      if (kind == "MutatingWebhookConfiguration") {
        if (Node n = wh.get("reinvocationPolicy")) hook.set("reinvocationPolicy", Value::copy(n));
      }
      // Only the target namespaces' objects: every namespace carries its name as a label.
      if (!all_namespaces_) {
        Value expression = Value::map();
        expression.set("key", Value::str("kubernetes.io/metadata.name"));
        expression.set("operator", Value::str("In"));
        expression.set("values", strings(targets_));
        Value expressions = Value::seq();
        expressions.push(std::move(expression));
        Value selector = Value::map();
        selector.set("matchExpressions", std::move(expressions));
        hook.set("namespaceSelector", std::move(selector));
      }
      Value hooks = Value::seq();
      hooks.push(std::move(hook));
      config.set("webhooks", std::move(hooks));
      add(source_of(csv_, wh), config);
    }
  }

  Node deployment_spec(std::string_view name) const {
    Node list = strategy_.get("deployments");
    for (size_t i = 0; i < list.size(); ++i) {
      if (list.item(i).get("name").str() == name) return list.item(i);
    }
    return {};
  }

  // One Service per deployment that serves webhooks or APIs, on every port they are called on.
  void services() {
    for (const auto& [deployment, ports] : ports_) {
      Node d = deployment_spec(deployment);
      if (!d) continue;  // validate_olm_bundle names the missing deployment
      Value service = object("v1", "Service", service_name(deployment), ns_);
      Value list = Value::seq();
      for (const ServicePort& p : ports) {
        Value port = Value::map();
        port.set("name", Value::str(p.port));
        port.set("port", Value::plain(p.port));
        port.set("targetPort", p.target ? Value::copy(p.target) : Value::plain(p.port));
        list.push(std::move(port));
      }
      Value spec = Value::map();
      spec.set("ports", std::move(list));
      if (Node labels = d.at({"spec", "selector", "matchLabels"}))
        spec.set("selector", Value::copy(labels));
      service.set("spec", std::move(spec));
      add(source_of(csv_, d), service);
    }
  }

  // OLM v0's install/apiservice.go: an APIService per owned API, served by the deployment's
  // Service; certresources.go binds its account to delegate authentication.
  void api_services() {
    Node owned = spec_.at({"apiservicedefinitions", "owned"});
    std::set<std::string> bound;
    for (size_t i = 0; i < owned.size(); ++i) {
      Node api = owned.item(i);
      std::string group(api.get("group").str());
      std::string version(api.get("version").str());
      std::string deployment(api.get("deploymentName").str());
      std::string port = port_or_default(api.get("containerPort"));
      Value apiservice =
          object("apiregistration.k8s.io/v1", "APIService", fmt::format("{}.{}", version, group));
      merge_annotations(apiservice, ca_annotations(deployment));
      Value service = Value::map();
      service.set("name", Value::str(service_name(deployment)));
      service.set("namespace", Value::str(ns_));
      service.set("port", Value::plain(port));
      Value spec = Value::map();
      spec.set("group", Value::str(group));
      spec.set("version", Value::str(version));
      spec.set("groupPriorityMinimum", Value::plain("2000"));
      spec.set("versionPriority", Value::plain("15"));
      spec.set("service", std::move(service));
      apiservice.set("spec", std::move(spec));
      add(source_of(csv_, api), apiservice);
      if (!bound.insert(deployment).second) continue;
      Node d = deployment_spec(deployment);
      std::string sa(d.at({"spec", "template", "spec", "serviceAccountName"}).str());
      if (sa.empty()) sa = "default";
      std::string svc = service_name(deployment);
      Value delegator = object("rbac.authorization.k8s.io/v1", "ClusterRoleBinding",
                               svc + "-system:auth-delegator");
      delegator.set("roleRef", role_ref("ClusterRole", "system:auth-delegator"));
      delegator.set("subjects", subjects(sa));
      add(source_of(csv_, api), delegator);
      Value reader = object("rbac.authorization.k8s.io/v1", "RoleBinding", svc + "-auth-reader",
                            "kube-system");
      reader.set("roleRef", role_ref("Role", "extension-apiserver-authentication-reader"));
      reader.set("subjects", subjects(sa));
      add(source_of(csv_, api), reader);
    }
  }

  // cert-manager, OLM v1's default certificate provider: a self-signed Issuer and a Certificate
  // per deployment that serves webhooks or APIs.
  void certificates() {
    for (const std::string& deployment : cert_deployments_) {
      Node d = deployment_spec(deployment);
      if (!d) continue;
      std::string svc = service_name(deployment);
      std::string cert = svc + "-cert";
      std::string issuer_name = cert + "-selfsigned-issuer";
      Value issuer = object("cert-manager.io/v1", "Issuer", issuer_name, ns_);
      Value issuer_spec = Value::map();
      issuer_spec.set("selfSigned", Value::map());
      issuer.set("spec", std::move(issuer_spec));
      add(source_of(csv_, d), issuer);
      Value certificate = object("cert-manager.io/v1", "Certificate", cert, ns_);
      Value spec = Value::map();
      spec.set("secretName", Value::str(cert));
      spec.set("usages", strings({"server auth"}));
      spec.set("dnsNames", strings({svc + "." + ns_ + ".svc"}));
      Value ref = Value::map();
      ref.set("name", Value::str(issuer_name));
      spec.set("issuerRef", std::move(ref));
      certificate.set("spec", std::move(spec));
      add(source_of(csv_, d), certificate);
    }
    if (!cert_deployments_.empty()) {
      out_.notes.push_back(fmt::format(
          "{}: OLM supplies the serving certificates of this bundle's webhooks and APIs (OLM v1 "
          "through cert-manager, rendered here as an Issuer and a Certificate; OLM v0 with its "
          "own CA), so their caBundle needs nothing from the bundle",
          csv_.file));
    }
  }

  void min_kube_version() {
    if (Node min = spec_.get("minKubeVersion"); !min.str().empty()) {
      out_.notes.push_back(fmt::format(
          "{}: OLM installs this operator only on Kubernetes {} or later (spec.minKubeVersion)",
          source_of(csv_, min), min.str()));
    }
  }

  const OlmBundle& bundle_;
  const OlmManifest& csv_;
  std::string ns_;
  std::vector<std::string> targets_;
  bool all_namespaces_ = false;
  std::string csv_name_;
  Node spec_;
  Node strategy_;
  RenderedOlm out_;
  std::map<std::string, int> names_;
  std::map<std::string, std::set<ServicePort>> ports_;
  std::set<std::string> cert_deployments_;
  std::map<std::string, Node> conversions_;
  std::set<std::string> rendered_files_;
};

}  // namespace

std::vector<RelatedImage> related_images(const OlmBundle& bundle) {
  std::vector<RelatedImage> out;
  Node list = bundle.csv.node.at({"spec", "relatedImages"});
  for (size_t i = 0; i < list.size(); ++i) {
    Node image = list.item(i).get("image");
    if (!image.str().empty())
      out.push_back({std::string(image.str()), source_of(bundle.csv, image)});
  }
  return out;
}

tl::expected<RenderedOlm, std::vector<std::string>> render_olm_bundle(
    const OlmBundle& bundle, const OlmInstallMode& mode, const std::string& install_namespace) {
  std::vector<std::string> supported = bundle.supported_modes();
  if (std::find(supported.begin(), supported.end(), mode.type) == supported.end()) {
    Node at = bundle.csv.node.at({"spec", "installModes"});
    return tl::unexpected(std::vector{fmt::format(
        "{}: the ClusterServiceVersion does not support install mode {} (it supports {})",
        source_of(bundle.csv, at), mode.type,
        supported.empty() ? std::string("none") : fmt::format("{}", fmt::join(supported, ", ")))});
  }
  std::vector<std::string> refusals = validate_olm_bundle(bundle);
  if (!refusals.empty()) return tl::unexpected(std::move(refusals));
  return Renderer(bundle, install_namespace, mode.target_namespaces(install_namespace)).run();
}

}  // namespace footprint
