#include "model/resources.h"

#include <fmt/format.h>

namespace footprint {

extern const std::string_view kBuiltinResourcesTsv;

std::string_view scope_name(Scope scope) {
  switch (scope) {
    case Scope::kNamespaced:
      return "Namespaced";
    case Scope::kCluster:
      return "Cluster";
    case Scope::kUnknown:
      break;
  }
  return "Unknown";
}

GroupVersion split_api_version(std::string_view api_version) {
  size_t slash = api_version.find('/');
  if (slash == std::string_view::npos) return {"", std::string(api_version)};
  return {std::string(api_version.substr(0, slash)), std::string(api_version.substr(slash + 1))};
}

namespace {

std::string key_of(std::string_view group, std::string_view name) {
  std::string key;
  key.reserve(group.size() + name.size() + 1);
  key.append(group).append("/").append(name);
  return key;
}

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> parts;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t next = text.find(sep, pos);
    if (next == std::string_view::npos) next = text.size();
    parts.emplace_back(text.substr(pos, next - pos));
    pos = next + 1;
  }
  return parts;
}

// "# removed: extensions/v1beta1 Ingress (removed in 1.22)"
void parse_removed_line(std::string_view line, std::vector<RemovedVersion>& out) {
  constexpr std::string_view kPrefix = "# removed: ";
  if (!line.starts_with(kPrefix)) return;
  line.remove_prefix(kPrefix.size());
  size_t space = line.find(' ');
  size_t paren = line.find(" (removed in ");
  if (space == std::string_view::npos || paren == std::string_view::npos) return;
  GroupVersion gv = split_api_version(line.substr(0, space));
  std::string kind(line.substr(space + 1, paren - space - 1));
  std::string_view release = line.substr(paren + 13);
  release = release.substr(0, release.find(')'));
  out.push_back(RemovedVersion{gv.group, gv.version, kind, std::string(release)});
}

}  // namespace

ResourceTable parse_resource_table(std::string_view tsv) {
  ResourceTable table;
  std::vector<RemovedVersion> removed;
  bool header_seen = false;
  for (const std::string& line : split(tsv, '\n')) {
    if (line.empty()) continue;
    if (line.starts_with("#")) {
      parse_removed_line(line, removed);
      continue;
    }
    if (!header_seen) {  // the column header
      header_seen = true;
      continue;
    }
    std::vector<std::string> f = split(line, '\t');
    if (f.size() != 6) continue;
    ResourceInfo info;
    info.group = f[0] == "core" ? "" : f[0];
    for (std::string& v : split(f[1], ',')) {
      if (!v.empty() && v.back() == '*') {
        v.pop_back();
        info.off_by_default.push_back(v);
      }
      info.versions.push_back(v);
    }
    info.kind = f[2];
    info.resource = f[3];
    info.scope = f[4] == "Cluster" ? Scope::kCluster : Scope::kNamespaced;
    if (f[5] != "-") info.subresources = split(f[5], ',');
    info.builtin = true;
    table.add(std::move(info));
  }
  for (RemovedVersion& r : removed)
    table.add_removed(std::move(r));
  return table;
}

const ResourceTable& ResourceTable::builtin() {
  static const ResourceTable kTable = parse_resource_table(kBuiltinResourcesTsv);
  return kTable;
}

void ResourceTable::add(ResourceInfo info) {
  std::string kind_key = key_of(info.group, info.kind);
  if (auto it = by_kind_.find(kind_key); it != by_kind_.end()) {
    // A later CRD for the same kind replaces the earlier one, as applying the bundle does.
    ResourceInfo& existing = resources_[it->second];
    if (existing.builtin) return;
    by_resource_.erase(key_of(existing.group, existing.resource));
    by_resource_.emplace(key_of(info.group, info.resource), it->second);
    existing = std::move(info);
    return;
  }
  size_t index = resources_.size();
  by_kind_.emplace(std::move(kind_key), index);
  by_resource_.emplace(key_of(info.group, info.resource), index);
  resources_.push_back(std::move(info));
}

void ResourceTable::add_removed(RemovedVersion removed) {
  removed_.push_back(std::move(removed));
}

const ResourceInfo* ResourceTable::find_kind(std::string_view group, std::string_view kind) const {
  auto it = by_kind_.find(key_of(group, kind));
  return it == by_kind_.end() ? nullptr : &resources_[it->second];
}

const ResourceInfo* ResourceTable::find_resource(std::string_view group,
                                                 std::string_view resource) const {
  auto it = by_resource_.find(key_of(group, resource));
  return it == by_resource_.end() ? nullptr : &resources_[it->second];
}

const RemovedVersion* ResourceTable::find_removed(std::string_view group, std::string_view version,
                                                  std::string_view kind) const {
  for (const RemovedVersion& r : removed_) {
    if (r.group == group && r.version == version && r.kind == kind) return &r;
  }
  return nullptr;
}

bool ResourceTable::is_builtin_group(std::string_view group) const {
  for (const ResourceInfo& r : resources_) {
    if (r.builtin && r.group == group) return true;
  }
  for (const RemovedVersion& r : removed_) {  // e.g. extensions, whose kinds all moved
    if (r.group == group) return true;
  }
  return false;
}

}  // namespace footprint
