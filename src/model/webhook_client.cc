#include "model/webhook_client.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "model/names.h"

namespace footprint {

namespace {

std::optional<int32_t> read_int(const yaml::Node& node) {
  std::string_view text = node.str();
  int32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool labels_match(const yaml::Node& selector, const yaml::Node& labels) {
  for (size_t i = 0; i < selector.size(); ++i) {
    yaml::Node value = labels.get(selector.key(i).text());
    if (!value || value.str() != selector.value(i).str()) return false;
  }
  return true;
}

}  // namespace

WebhookClient read_webhook_client(const yaml::Node& client_config) {
  WebhookClient c;
  c.node = client_config;
  yaml::Node service = client_config.get("service");
  if (service.is_mapping()) {
    c.is_service = true;
    c.service_namespace = std::string(service.get("namespace").str());
    c.service_name = std::string(service.get("name").str());
    c.path = std::string(service.get("path").str());
    if (auto port = read_int(service.get("port"))) {
      c.port = *port;
      c.port_written = true;
    }
  }
  c.url = std::string(client_config.get("url").str());
  c.has_ca_bundle = !client_config.get("caBundle").str().empty();
  return c;
}

ServiceBackend resolve_service(const Bundle& bundle, std::span<const PodTemplate> pods,
                               const WebhookClient& client) {
  ServiceBackend b;
  if (!client.is_service) return b;
  b.service = bundle.find("", "Service", client.service_namespace, client.service_name);
  if (!b.service) return b;
  yaml::Node ports = b.service->node.at({"spec", "ports"});
  for (size_t i = 0; i < ports.size(); ++i) {
    if (auto port = read_int(ports.item(i).get("port"))) b.ports.push_back(*port);
  }
  b.port_found = std::find(b.ports.begin(), b.ports.end(), client.port) != b.ports.end();
  yaml::Node selector = b.service->node.at({"spec", "selector"});
  b.has_selector = selector.is_mapping() && selector.size() > 0;
  if (!b.has_selector) return b;
  for (const PodTemplate& t : pods) {
    if (t.owner->namespace_ == b.service->namespace_ &&
        labels_match(selector, t.metadata.get("labels"))) {
      b.backends.push_back(t.owner);
    }
  }
  return b;
}

std::vector<const Object*> similar_services(const Bundle& bundle, std::string_view name) {
  std::vector<std::pair<size_t, const Object*>> ranked;
  for (uint32_t index : bundle.of_kind("", "Service")) {
    const Object& svc = bundle.objects[index];
    // "<release>-<name>" is the usual rename of a hard-coded Service name by a chart.
    size_t rank =
        std::string_view(svc.name).ends_with(name) ? 0 : 1 + edit_distance(svc.name, name);
    ranked.emplace_back(rank, &svc);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<const Object*> out;
  out.reserve(ranked.size());
  for (const auto& [rank, svc] : ranked)
    out.push_back(svc);
  return out;
}

std::vector<std::string> ca_injectors(const Object& target, const RbacPolicy& policy) {
  std::vector<std::string> out;
  if (std::string_view from = target.annotation("cert-manager.io/inject-ca-from"); !from.empty()) {
    out.push_back(fmt::format("cert-manager's CA injector, from Certificate {}", from));
  }
  if (std::string_view from = target.annotation("cert-manager.io/inject-ca-from-secret");
      !from.empty()) {
    out.push_back(fmt::format("cert-manager's CA injector, from Secret {}", from));
  }
  if (target.annotation("cert-manager.io/inject-apiserver-ca") == "true") {
    out.emplace_back("cert-manager's CA injector, with the API server's CA");
  }
  if (target.annotation("service.beta.openshift.io/inject-cabundle") == "true") {
    out.emplace_back("OpenShift's service CA operator");
  }
  const ResourceInfo* info = ResourceTable::builtin().find_kind(target.group, target.kind);
  if (!info) return out;
  for (const char* verb : {"patch", "update"}) {
    Request request;
    request.verb = verb;
    request.api_group = info->group;
    request.resource = info->resource;
    request.name = target.name;
    for (const RbacPolicy::Grant& g : policy.who_can(request)) {
      if (g.binding->builtin()) continue;
      std::string who = fmt::format("{} (may {} it, through {})", g.subject.display(), verb,
                                    g.binding->display());
      bool known = std::any_of(out.begin(), out.end(), [&](const std::string& s) {
        return s.starts_with(g.subject.display() + " ");
      });
      if (!known) out.push_back(std::move(who));
    }
  }
  return out;
}

}  // namespace footprint
