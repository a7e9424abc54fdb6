// Which custom API groups are the install's own. A webhook or a grant on the operator's own
// resources concerns only its users; on another project's resources it reaches other teams.
// CRDs are not always in the input (a namespace-restricted install has them applied
// separately), so ownership is inferred from several signals.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

#include "analysis/models/crd_models.h"
#include "model/admission.h"
#include "model/object.h"
#include "model/rbac.h"

namespace footprint {

struct OwnApis {
  // Group -> why it is the install's own, in words ("the bundle's CRDs define it").
  std::map<std::string, std::string, std::less<>> groups;

  // Groups owned only because they share a domain with another owned group: weaker evidence.
  std::set<std::string, std::less<>> by_domain_only;

  bool owns(std::string_view group) const { return groups.find(group) != groups.end(); }
};

// A custom group is the install's own when:
// - a CustomResourceDefinition of the bundle defines it;
// - a container of the bundle installs its CRDs at run time (file names such as
//   group_plural.yaml), or a role of the bundle names its CRDs for update;
// - the bundle ships no CRD at all and its roles hold <resource>/status or
//   <resource>/finalizers in it: controllers write the status of the resources they own. When the
//   bundle does ship CRDs, this signal is ignored, because operators such as kueue also write the
//   status of other projects' resources (ray.io, jobset.x-k8s.io);
// - it shares its domain (the last two labels) with a group owned by the rules above, as
//   networking.internal.knative.dev with serving.knative.dev; the domains many projects share
//   (k8s.io, x-k8s.io) do not count.
OwnApis own_api_groups(const Bundle& bundle, const RbacPolicy& policy, const Admission& admission,
                       const HiddenFootprint& hidden);

}  // namespace footprint
