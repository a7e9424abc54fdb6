#include "model/tolerations.h"

#include <algorithm>

namespace footprint {

std::vector<Toleration> read_tolerations(const yaml::Node& pod_spec) {
  std::vector<Toleration> out;
  yaml::Node list = pod_spec.get("tolerations");
  for (size_t i = 0; list.is_sequence() && i < list.size(); ++i) {
    yaml::Node t = list.item(i);
    if (!t.is_mapping()) continue;
    out.push_back(Toleration{std::string(t.get("key").str()), std::string(t.get("operator").str()),
                             std::string(t.get("value").str()),
                             std::string(t.get("effect").str())});
  }
  return out;
}

bool tolerates(const Toleration& t, const Taint& taint) {
  if (!t.effect.empty() && t.effect != taint.effect) return false;
  if (!t.key.empty() && t.key != taint.key) return false;
  if (t.op.empty() || t.op == "Equal") return t.value == taint.value;
  return t.op == "Exists";
}

bool tolerates(const std::vector<Toleration>& tolerations, const Taint& taint) {
  return std::any_of(tolerations.begin(), tolerations.end(),
                     [&](const Toleration& t) { return tolerates(t, taint); });
}

bool tolerates_every_taint(const std::vector<Toleration>& tolerations) {
  // A taint no one could guess: only a wildcard toleration matches it.
  auto wildcard = [&](const char* effect) {
    return tolerates(tolerations, Taint{"footprint.invalid/any-taint", "any-value", effect});
  };
  return wildcard("NoSchedule") && wildcard("NoExecute");
}

const std::vector<Taint>& control_plane_taints() {
  static const std::vector<Taint> kTaints = {
      {"node-role.kubernetes.io/control-plane", "", "NoSchedule"},
      {"node-role.kubernetes.io/master", "", "NoSchedule"},
  };
  return kTaints;
}

}  // namespace footprint
