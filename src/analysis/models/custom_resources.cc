#include "analysis/models/custom_resources.h"

#include <iterator>

#include "analysis/models/cr_object_meta.h"
#include "model/kubectl_json.h"

namespace footprint {

namespace {

// The version entry of an apiextensions.k8s.io/v1 CRD, or of a v1beta1 one (whose schema and
// subresources may sit in spec for every version).
struct VersionEntry {
  yaml::Node entry;
  yaml::Node schema;
  bool served = false;
  bool status_subresource = false;
};

VersionEntry find_version(const Object& crd, std::string_view name,
                          std::vector<std::string>& served) {
  yaml::Node spec = crd.node.get("spec");
  VersionEntry found;
  yaml::Node versions = spec.get("versions");
  for (size_t i = 0; i < versions.size(); ++i) {
    yaml::Node v = versions.item(i);
    bool is_served = kubectl_bool(v.get("served")).value_or(false);
    if (is_served) served.emplace_back(v.get("name").str());
    if (v.get("name").str() != name) continue;
    found.entry = v;
    found.served = is_served;
    found.schema = v.at({"schema", "openAPIV3Schema"});
    found.status_subresource = static_cast<bool>(v.at({"subresources", "status"}));
  }
  // v1beta1: a single spec.version, and a schema and subresources shared by every version.
  if (versions.size() == 0 && spec.get("version").str() == name) {
    found.entry = spec.get("version");
    found.served = true;
    served.emplace_back(name);
  }
  if (!found.schema) found.schema = spec.at({"validation", "openAPIV3Schema"});
  if (!found.status_subresource) {
    found.status_subresource = static_cast<bool>(spec.at({"subresources", "status"}));
  }
  return found;
}

}  // namespace

std::vector<CustomResourceCheck> check_custom_resources(const Bundle& bundle,
                                                        const Cluster* cluster) {
  std::vector<CustomResourceCheck> out;
  SchemaValidator validator;
  for (const Object& object : bundle.objects) {
    if (object.replaced() || object.group.empty()) continue;
    CustomResourceCheck check;
    check.object = &object;
    check.crd = bundle.crd_for(object.group, object.kind);
    if (!check.crd && cluster) {
      check.crd = cluster->crd_for(object.group, object.kind);
      check.crd_from_cluster = check.crd != nullptr;
    }
    if (!check.crd) continue;
    VersionEntry version = find_version(*check.crd, object.version, check.served);
    if (!version.entry) {
      check.version = CustomResourceCheck::Version::kMissing;
    } else if (!version.served) {
      check.version = CustomResourceCheck::Version::kNotServed;
    } else {
      if (version.schema.is_mapping()) {
        check.has_schema = true;
        check.schema = validator.validate(version.schema, object.node, version.status_subresource);
      }
      // ObjectMeta is validated before the schema, so its errors come first.
      bool namespaced = check.crd->node.at({"spec", "scope"}).str() == "Namespaced";
      std::vector<SchemaViolation> meta = object_meta_violations(object.node, namespaced);
      check.schema.violations.insert(check.schema.violations.begin(),
                                     std::make_move_iterator(meta.begin()),
                                     std::make_move_iterator(meta.end()));
    }
    out.push_back(std::move(check));
  }
  return out;
}

}  // namespace footprint
