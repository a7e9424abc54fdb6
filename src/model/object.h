// Kubernetes objects as the API server will see them: identity, scope, effective namespace,
// labels and annotations, plus where each was written.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "load/loader.h"
#include "model/resources.h"
#include "model/selector.h"

namespace footprint {

struct ObjectId {
  std::string api_version;
  std::string kind;
  std::string namespace_;  // empty for cluster-scoped objects
  std::string name;
};

struct Object {
  uint32_t index = 0;  // position in Bundle::objects, which is input order
  std::string api_version;
  std::string group;
  std::string version;
  std::string kind;
  std::string name;  // metadata.name, or generateName followed by "*"
  // The namespace the object lands in: metadata.namespace, or the default namespace for a
  // namespaced object without one (as helm and kubectl do). Empty for cluster-scoped objects.
  std::string namespace_;
  bool namespace_defaulted = false;
  std::string written_namespace;  // metadata.namespace exactly as written, possibly empty
  Scope scope = Scope::kUnknown;
  yaml::Node node;  // the whole object
  yaml::Node metadata;
  uint32_t file = 0;
  yaml::Position position;
  std::string helm_source;
  uint32_t yaml_bytes = 0;
  // The index of a later object with the same group, kind, namespace and name, which replaces
  // this one when the bundle is applied in order (kubectl apply and Helm both keep the last).
  // Models use only objects that are not replaced.
  uint32_t replaced_by = UINT32_MAX;

  bool replaced() const { return replaced_by != UINT32_MAX; }

  ObjectId id() const { return {api_version, kind, namespace_, name}; }
  // metadata.labels and metadata.annotations, read from the tree on demand.
  Labels labels() const { return read_labels(metadata.get("labels")); }
  Labels annotations() const { return read_labels(metadata.get("annotations")); }
  // One annotation's value, or an empty view when it is absent.
  std::string_view annotation(std::string_view key) const {
    return metadata.get("annotations").get(key).str();
  }
  // "ns/name" or "name".
  std::string qualified_name() const;
  // "Role ns/name".
  std::string display() const;
};

struct BundleOptions {
  std::string default_namespace = "default";
};

// Every object of one install, with lookups. Immutable once built.
class Bundle {
 public:
  LoadedInput input;  // owns the YAML trees that objects point into
  std::vector<Object> objects;
  ResourceTable resources;  // built-in kinds plus the custom kinds of CRDs in the bundle
  std::string default_namespace;
  // Namespaces the user declares the operator's (--own-namespace), beyond those the bundle
  // shows, as `fix webhooks --scope own --own-namespace` narrows webhooks to them. Set by the
  // command right after build_bundle.
  std::vector<std::string> own_namespaces;

  const std::string& file_of(const Object& object) const { return input.files[object.file]; }
  // The object with this group, kind, namespace and name that ends up in the cluster (the last
  // definition), or nullptr.
  const Object* find(std::string_view group, std::string_view kind, std::string_view ns,
                     std::string_view name) const;
  // All objects of a kind that end up in the cluster, in input order.
  const std::vector<uint32_t>& of_kind(std::string_view group, std::string_view kind) const;
  // True when the bundle creates the Namespace object `name`.
  bool creates_namespace(std::string_view name) const;
  // The bundle's own CustomResourceDefinition for a custom kind, or nullptr.
  const Object* crd_for(std::string_view group, std::string_view kind) const;

 private:
  friend Bundle build_bundle(LoadedInput input, const BundleOptions& options);
  // Open addressing by group, kind, namespace and name over object indices (not pointers or
  // views, so a copied Bundle stays right): a table of 8-byte slots instead of a node and a
  // key string per object.
  struct IdentitySlot {
    uint32_t hash = 0;  // the low bits of the identity's hash, to skip most other objects
    uint32_t object = UINT32_MAX;
  };
  std::vector<IdentitySlot> by_identity_;  // a power of two of slots, at most half full
  std::unordered_map<std::string, std::vector<uint32_t>> by_kind_;

  // The slot holding this identity, or the empty slot where it would go.
  size_t identity_slot(uint64_t hash, std::string_view group, std::string_view kind,
                       std::string_view ns, std::string_view name) const;
};

Bundle build_bundle(LoadedInput input, const BundleOptions& options);

}  // namespace footprint
