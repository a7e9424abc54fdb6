// What the API server knows about each kind: its resource name, scope and subresources.
// Built-in kinds come from builtin_resources.tsv (Kubernetes 1.34); custom kinds from CRDs.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace footprint {

enum class Scope : uint8_t { kNamespaced, kCluster, kUnknown };

std::string_view scope_name(Scope scope);

struct GroupVersion {
  std::string group;  // "" for the core group
  std::string version;
};

// Splits "apps/v1" into {"apps", "v1"} and "v1" into {"", "v1"}.
GroupVersion split_api_version(std::string_view api_version);

struct ResourceInfo {
  std::string group;
  std::vector<std::string> versions;  // served versions; for built-ins preferred first
  // Built-in versions a 1.34 API server serves only when enabled with --runtime-config.
  std::vector<std::string> off_by_default;
  std::string kind;
  std::string resource;  // plural, as used in RBAC and webhook rules
  Scope scope = Scope::kUnknown;
  std::vector<std::string> subresources;
  bool builtin = false;
  uint32_t defining_object = UINT32_MAX;  // the CRD's object index, for custom kinds
};

struct RemovedVersion {
  std::string group;
  std::string version;
  std::string kind;
  std::string removed_in;  // e.g. "1.22"
};

class ResourceTable {
 public:
  // The built-in resources of Kubernetes 1.34.
  static const ResourceTable& builtin();

  const ResourceInfo* find_kind(std::string_view group, std::string_view kind) const;
  const ResourceInfo* find_resource(std::string_view group, std::string_view resource) const;
  // Built-in kinds whose version is no longer served, e.g. extensions/v1beta1 Ingress.
  const RemovedVersion* find_removed(std::string_view group, std::string_view version,
                                     std::string_view kind) const;
  // A group the API server defines itself, including groups whose versions were all removed.
  bool is_builtin_group(std::string_view group) const;

  // Adds a custom resource; a later CRD for the same group and kind replaces the earlier one,
  // as applying the bundle in order does. Built-in kinds are never replaced.
  void add(ResourceInfo info);

  void add_removed(RemovedVersion removed);

  const std::vector<ResourceInfo>& all() const { return resources_; }

 private:
  std::vector<ResourceInfo> resources_;
  // Keyed by "group/kind" and "group/resource".
  std::map<std::string, size_t, std::less<>> by_kind_;
  std::map<std::string, size_t, std::less<>> by_resource_;
  std::vector<RemovedVersion> removed_;
};

// Parses the TSV format of builtin_resources.tsv; exposed for its test.
ResourceTable parse_resource_table(std::string_view tsv);

}  // namespace footprint
