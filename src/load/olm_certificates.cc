// The webhook serving certificates OLM supplies, as OLM v1's renderer mounts them
// (operator-controller, rukpak/render/registryv1/generators/generators.go,
// addCertVolumesToDeployment).
#include <algorithm>
#include <set>
#include <string>

#include "load/olm_render_parts.h"

namespace footprint {

using yaml::Value;

namespace {
constexpr std::string_view kCertMountPath = "/tmp/k8s-webhook-server/serving-certs";
}  // namespace

// OLM v0's ServiceName: dots are not allowed in a Service name.
std::string service_name(std::string_view deployment) {
  std::string name(deployment);
  std::replace(name.begin(), name.end(), '.', '-');
  return name + "-service";
}

// The serving certificate's Secret, mounted where controller-runtime looks for it in every
// container, replacing what was mounted there.
void add_webhook_cert_volume(Value& tmpl, const std::string& deployment) {
  Value* pod = tmpl.find("spec");
  if (pod == nullptr) return;
  std::set<std::string> replaced = {"webhook-cert"};
  // Looked up at each use: adding volumes to the pod spec moves its entries.
  auto each_container = [&](auto fn) {
    Value* containers = pod->find("containers");
    if (containers == nullptr) return;
    for (Value& c : containers->items())
      fn(c);
  };
  each_container([&](Value& c) {
    if (const Value* mounts = c.find("volumeMounts")) {
      for (const Value& m : mounts->items()) {
        if (m.text_at("mountPath") == kCertMountPath) replaced.emplace(m.text_at("name"));
      }
    }
  });
  auto keep_unreplaced = [&](Value& list) {
    std::erase_if(list.items(), [&](const Value& v) {
      return replaced.count(std::string(v.text_at("name"))) > 0;
    });
  };
  Value* volumes = pod->find("volumes");
  if (volumes == nullptr || volumes->type() != Value::Type::kSeq)
    volumes = &pod->set("volumes", Value::seq());
  keep_unreplaced(*volumes);
  Value items = Value::seq();
  for (const char* file : {"tls.crt", "tls.key"}) {
    Value item = Value::map();
    item.set("key", Value::str(file));
    item.set("path", Value::str(file));
    items.push(std::move(item));
  }
  Value secret = Value::map();
  secret.set("secretName", Value::str(service_name(deployment) + "-cert"));
  secret.set("items", std::move(items));
  Value volume = Value::map();
  volume.set("name", Value::str("webhook-cert"));
  volume.set("secret", std::move(secret));
  volumes->push(std::move(volume));
  each_container([&](Value& c) {
    Value* mounts = c.find("volumeMounts");
    if (mounts == nullptr || mounts->type() != Value::Type::kSeq)
      mounts = &c.set("volumeMounts", Value::seq());
    keep_unreplaced(*mounts);
    Value mount = Value::map();
    mount.set("name", Value::str("webhook-cert"));
    mount.set("mountPath", Value::str(std::string(kCertMountPath)));
    mounts->push(std::move(mount));
  });
}

}  // namespace footprint
