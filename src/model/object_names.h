// Object names and namespaces that kubectl or the API server refuses: such an object is an
// invalid document, like one with a field of the wrong type, and no check reads it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "load/yaml.h"
#include "model/field_types.h"

namespace footprint {

// The errors for `object`'s metadata.name and metadata.namespace, each quoting the refusal:
// - any kind: a name kubectl cannot put in a URL path ('/', '%', "." or ".."; client-go's
//   rest/request.go refuses it before sending);
// - the built-in kinds whose name rule is known (apimachinery's NameIsDNSSubdomain for most,
//   NameIsDNS1035Label for Services, a DNS label for Namespaces) and CRDs (also
//   `<spec.names.plural>.<spec.group>`);
// - the namespace of a built-in namespaced kind, which must be a DNS label
//   (ValidateObjectMeta); a cluster-scoped object's namespace is dropped, never checked.
// A generateName-only object and custom resources' namespaces are not checked.
std::vector<FieldTypeError> refused_names(const yaml::Node& object);

// apimachinery's IsDNS1123Subdomain and IsDNS1123Label: the API server's messages for `name`,
// none when it is valid.
std::vector<std::string> dns1123_subdomain_errors(std::string_view name);
std::vector<std::string> dns1123_label_errors(std::string_view name);
std::vector<std::string> dns1035_label_errors(std::string_view name);
// apimachinery's ValidatePathSegmentName: a name may not be "." or ".." nor contain '/' or '%';
// a prefix (generateName) only may not contain them.
std::vector<std::string> path_segment_errors(std::string_view name, bool prefix = false);

}  // namespace footprint
