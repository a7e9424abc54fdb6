// A custom resource's metadata as the API server checks it on create: apiextensions-apiserver's
// customResourceValidator runs apimachinery's ValidateObjectMetaAccessor with
// NameIsDNSSubdomain (registry/customresource/validator.go). For custom_resources.cc.
#pragma once

#include <vector>

#include "analysis/models/crd_schema.h"
#include "load/yaml.h"

namespace footprint {

// The violations of `object`'s metadata.name, generateName and namespace, at the field:
// - a name must be a DNS subdomain; without a name, generateName is required, and must be a
//   subdomain once a trailing '-' reads as a letter (maskTrailingDash). The name generated from
//   it (generateName and five letters or digits) is valid whenever generateName is, so only
//   generateName's errors are reported;
// - a namespaced resource's namespace must be a DNS label. A missing one is filled in from the
//   request (kubectl -n, the Helm release namespace), and a cluster-scoped resource's namespace
//   is dropped (rest.EnsureObjectNamespaceMatchesRequestNamespace): neither is an error.
// Names kubectl cannot put in a URL ('/', '%', "." and "..") are the loader's (object_names.h).
// Labels, annotations, finalizers and owner references are not checked.
std::vector<SchemaViolation> object_meta_violations(const yaml::Node& object, bool namespaced);

}  // namespace footprint
