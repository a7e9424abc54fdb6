// Workloads as the pods they create: the pod templates of workload objects, the ServiceAccount
// their pods run as, and their containers.
#pragma once

#include <string_view>
#include <vector>

#include "model/object.h"

namespace footprint {

// Pod templates of workload objects: Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet,
// ReplicationController, Job, CronJob (spec.jobTemplate.spec.template).
struct PodTemplate {
  const Object* owner;
  yaml::Node metadata;  // the template's metadata (labels)
  yaml::Node spec;      // the pod spec
};
// In input order, whatever the kind.
std::vector<PodTemplate> pod_templates(const Bundle& bundle);

// The ServiceAccount the pods run as: serviceAccountName, else the deprecated serviceAccount
// when serviceAccountName is empty (pkg/apis/core/v1/conversion.go), else "default", which the
// ServiceAccount admission plugin fills in.
std::string_view service_account_of(const yaml::Node& pod_spec);
// The field service_account_of reads the name from; a null node when it is "default" by absence.
yaml::Node service_account_field(const yaml::Node& pod_spec);

// Calls visit(container) for each container of a pod spec, in the order of the pod spec's
// lists: initContainers, containers, ephemeralContainers. Entries that are not mappings are
// skipped.
template <typename Visit>
void for_each_container(const yaml::Node& pod_spec, Visit&& visit) {
  for (std::string_view key : {"initContainers", "containers", "ephemeralContainers"}) {
    yaml::Node list = pod_spec.get(key);
    for (size_t i = 0; list.is_sequence() && i < list.size(); ++i) {
      if (list.item(i).is_mapping()) visit(list.item(i));
    }
  }
}

}  // namespace footprint
