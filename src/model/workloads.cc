#include "model/workloads.h"

#include <algorithm>
#include <initializer_list>

namespace footprint {

std::vector<PodTemplate> pod_templates(const Bundle& bundle) {
  struct Shape {
    const char* group;
    const char* kind;
    std::initializer_list<std::string_view> path;  // to the pod template; empty: the object
  };
  static const Shape kShapes[] = {
      {"", "Pod", {}},
      {"apps", "Deployment", {"spec", "template"}},
      {"apps", "StatefulSet", {"spec", "template"}},
      {"apps", "DaemonSet", {"spec", "template"}},
      {"apps", "ReplicaSet", {"spec", "template"}},
      {"", "ReplicationController", {"spec", "template"}},
      {"batch", "Job", {"spec", "template"}},
      {"batch", "CronJob", {"spec", "jobTemplate", "spec", "template"}},
  };
  std::vector<PodTemplate> out;
  for (const Shape& shape : kShapes) {
    for (uint32_t index : bundle.of_kind(shape.group, shape.kind)) {
      const Object& obj = bundle.objects[index];
      yaml::Node tmpl = shape.path.size() == 0 ? obj.node : obj.node.at(shape.path);
      if (tmpl.is_mapping()) {
        out.push_back(PodTemplate{&obj, tmpl.get("metadata"), tmpl.get("spec")});
      }
    }
  }
  // Input order, whatever the kind.
  std::sort(out.begin(), out.end(), [](const PodTemplate& a, const PodTemplate& b) {
    return a.owner->index < b.owner->index;
  });
  return out;
}

yaml::Node service_account_field(const yaml::Node& pod_spec) {
  for (const char* field : {"serviceAccountName", "serviceAccount"}) {
    yaml::Node name = pod_spec.get(field);
    if (name.is_scalar() && !name.str().empty()) return name;
  }
  return {};
}

std::string_view service_account_of(const yaml::Node& pod_spec) {
  yaml::Node field = service_account_field(pod_spec);
  return field ? field.str() : "default";
}

}  // namespace footprint
