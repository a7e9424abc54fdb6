#include "model/object.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <functional>
#include <iterator>
#include <tuple>
#include <utility>

#include "load/parallel.h"
#include "model/field_types.h"
#include "model/object_names.h"
#include "model/secrets.h"
#include "util/memory.h"

namespace footprint {

std::string Object::qualified_name() const {
  return namespace_.empty() ? name : namespace_ + "/" + name;
}

std::string Object::display() const {
  return kind + " " + qualified_name();
}

namespace {

uint64_t identity_hash(std::string_view group, std::string_view kind, std::string_view ns,
                       std::string_view name) {
  std::hash<std::string_view> hash;
  uint64_t h = hash(group);
  for (std::string_view part : {kind, ns, name})
    h ^= hash(part) + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2);  // boost::hash_combine
  return h;
}

std::string kind_key(std::string_view group, std::string_view kind) {
  return fmt::format("{}/{}", group, kind);
}

bool is_crd(const RawObject& raw) {
  return raw.node.get("kind").text() == "CustomResourceDefinition" &&
         split_api_version(raw.node.get("apiVersion").text()).group == "apiextensions.k8s.io";
}

void add_subresources(const yaml::Node& subresources, ResourceInfo& info) {
  for (size_t i = 0; i < subresources.size(); ++i) {
    std::string name(subresources.key(i).text());
    if (std::find(info.subresources.begin(), info.subresources.end(), name) ==
        info.subresources.end()) {
      info.subresources.push_back(name);
    }
  }
}

// The custom kind a CRD defines (apiextensions v1, or the legacy v1beta1 layout).
ResourceInfo resource_of_crd(const RawObject& raw, uint32_t index) {
  yaml::Node spec = raw.node.get("spec");
  ResourceInfo info;
  info.group = std::string(spec.get("group").str());
  info.kind = std::string(spec.at({"names", "kind"}).str());
  info.resource = std::string(spec.at({"names", "plural"}).str());
  std::string_view scope = spec.get("scope").str();
  info.scope = scope == "Cluster" ? Scope::kCluster : Scope::kNamespaced;  // API default
  yaml::Node versions = spec.get("versions");
  for (size_t i = 0; i < versions.size(); ++i) {
    yaml::Node v = versions.item(i);
    if (v.get("served").str() != "false") info.versions.emplace_back(v.get("name").str());
    add_subresources(v.get("subresources"), info);
  }
  if (versions.size() == 0 && spec.get("version"))
    info.versions.emplace_back(spec.get("version").str());
  add_subresources(spec.get("subresources"), info);
  std::sort(info.subresources.begin(), info.subresources.end());
  info.defining_object = index;
  return info;
}

// Work per object runs on all cores in blocks of this many objects.
constexpr size_t kBlock = 1024;

// The objects of one block that have fields of the wrong type (few do), by index.
using WrongInBlock = std::vector<std::pair<uint32_t, std::vector<FieldTypeError>>>;

// An object with a field of the wrong type, or a misspelled Secret kind, is an invalid document:
// the API server refuses it whole, and the checks must not read the field as absent. `crd` (a flag
// per object) loses the same objects.
void set_aside_wrong_field_types(LoadedInput& input, std::vector<WrongInBlock>& wrong,
                                 std::vector<char>& crd) {
  std::vector<RawObject>& objects = input.objects;
  size_t before = input.invalid_documents.size();
  size_t kept = 0;
  size_t at = 0;  // the next entry of the block's list
  for (size_t i = 0; i < objects.size(); ++i) {
    if (i % kBlock == 0) at = 0;
    WrongInBlock& in_block = wrong[i / kBlock];
    if (at == in_block.size() || in_block[at].first != i) {
      if (kept != i) {
        objects[kept] = std::move(objects[i]);
        crd[kept] = crd[i];
      }
      ++kept;
      continue;
    }
    for (FieldTypeError& e : in_block[at++].second) {
      input.invalid_documents.push_back(LoadError{input.files[objects[i].file], e.position,
                                                  std::move(e.message), objects[i].position});
    }
  }
  objects.erase(objects.begin() + static_cast<ptrdiff_t>(kept), objects.end());
  crd.resize(kept);
  if (input.invalid_documents.size() == before) return;
  auto file_index = [&](const std::string& name) {
    return std::find(input.files.begin(), input.files.end(), name) - input.files.begin();
  };
  std::stable_sort(input.invalid_documents.begin(), input.invalid_documents.end(),
                   [&](const LoadError& a, const LoadError& b) {
                     return std::tuple(file_index(a.file), a.position.line, a.position.column) <
                            std::tuple(file_index(b.file), b.position.line, b.position.column);
                   });
}

Object make_object(const RawObject& raw, uint32_t index, const ResourceTable& resources,
                   const std::string& default_namespace) {
  Object obj;
  obj.index = index;
  obj.node = raw.node;
  obj.api_version = std::string(raw.node.get("apiVersion").text());
  GroupVersion gv = split_api_version(obj.api_version);
  obj.group = std::move(gv.group);
  obj.version = std::move(gv.version);
  obj.kind = std::string(raw.node.get("kind").text());
  yaml::Node metadata = raw.node.get("metadata");
  obj.name = std::string(metadata.get("name").str());
  if (obj.name.empty()) {
    std::string_view generate = metadata.get("generateName").str();
    if (!generate.empty()) obj.name = std::string(generate) + "*";
  }
  obj.written_namespace = std::string(metadata.get("namespace").str());
  obj.metadata = metadata;
  const ResourceInfo* info = resources.find_kind(obj.group, obj.kind);
  obj.scope = info ? info->scope : Scope::kUnknown;
  if (obj.scope == Scope::kNamespaced) {
    obj.namespace_ = obj.written_namespace;
    if (obj.namespace_.empty()) {
      obj.namespace_ = default_namespace;
      obj.namespace_defaulted = true;
    }
  } else if (obj.scope == Scope::kUnknown) {
    obj.namespace_ = obj.written_namespace;
  }
  obj.file = raw.file;
  obj.position = raw.position;
  obj.helm_source = raw.helm_source;
  obj.yaml_bytes = raw.end_offset - raw.begin_offset;
  return obj;
}

}  // namespace

size_t Bundle::identity_slot(uint64_t hash, std::string_view group, std::string_view kind,
                             std::string_view ns, std::string_view name) const {
  size_t mask = by_identity_.size() - 1;
  auto tag = static_cast<uint32_t>(hash);
  for (size_t slot = (hash >> 32) & mask;; slot = (slot + 1) & mask) {
    const IdentitySlot& s = by_identity_[slot];
    if (s.object == UINT32_MAX) return slot;
    if (s.hash != tag) continue;
    const Object& o = objects[s.object];
    if (o.name == name && o.namespace_ == ns && o.kind == kind && o.group == group) return slot;
  }
}

const Object* Bundle::find(std::string_view group, std::string_view kind, std::string_view ns,
                           std::string_view name) const {
  if (by_identity_.empty()) return nullptr;  // not built by build_bundle
  const IdentitySlot& slot =
      by_identity_[identity_slot(identity_hash(group, kind, ns, name), group, kind, ns, name)];
  return slot.object == UINT32_MAX ? nullptr : &objects[slot.object];
}

const std::vector<uint32_t>& Bundle::of_kind(std::string_view group, std::string_view kind) const {
  static const std::vector<uint32_t> kNone;
  auto it = by_kind_.find(kind_key(group, kind));
  return it == by_kind_.end() ? kNone : it->second;
}

bool Bundle::creates_namespace(std::string_view name) const {
  return find("", "Namespace", "", name) != nullptr;
}

const Object* Bundle::crd_for(std::string_view group, std::string_view kind) const {
  const ResourceInfo* info = resources.find_kind(group, kind);
  if (!info || info->builtin || info->defining_object == UINT32_MAX) return nullptr;
  return &objects[info->defining_object];
}

Bundle build_bundle(LoadedInput input, const BundleOptions& options) {
  Bundle bundle;
  // Default-constructing the objects faults in their pages, a serial step as long as the field
  // type checks on all cores: it runs as one task among them. While each tree is read for the
  // field types, whether the object is a CRD is noted too.
  size_t blocks = (input.objects.size() + kBlock - 1) / kBlock;
  std::vector<WrongInBlock> wrong(blocks);
  std::vector<char> crd(input.objects.size());
  parallel_for(1 + blocks, input.jobs, [&](size_t task) {
    if (task == 0) {
      reserve_huge(bundle.objects, input.objects.size());
      bundle.objects.resize(input.objects.size());
      return;
    }
    for (size_t i = (task - 1) * kBlock, end = std::min(input.objects.size(), i + kBlock); i < end;
         ++i) {
      std::vector<FieldTypeError> found = wrong_field_types(input.objects[i].node);
      std::vector<FieldTypeError> names = refused_names(input.objects[i].node);
      found.insert(found.end(), std::make_move_iterator(names.begin()),
                   std::make_move_iterator(names.end()));
      if (auto kind = misspelled_secret_kind(input.objects[i].node))
        found.insert(found.begin(), std::move(*kind));
      if (!found.empty()) wrong[task - 1].emplace_back(i, std::move(found));
      crd[i] = is_crd(input.objects[i]);
    }
  });
  set_aside_wrong_field_types(input, wrong, crd);
  bundle.default_namespace = options.default_namespace;
  bundle.resources = ResourceTable::builtin();
  const std::vector<RawObject>& raws = input.objects;
  for (uint32_t i = 0; i < raws.size(); ++i) {
    if (crd[i]) bundle.resources.add(resource_of_crd(raws[i], i));
  }

  // Each object on its own, on all cores; then what relates objects, in input order.
  bundle.objects.resize(raws.size());  // less the objects set aside
  std::vector<uint64_t> hashes(raws.size());
  parallel_for_blocks(raws.size(), kBlock, input.jobs, [&](size_t i) {
    Object& obj = bundle.objects[i];
    const std::string& file_namespace =
        raws[i].file < input.namespaces.size() ? input.namespaces[raws[i].file] : "";
    obj = make_object(raws[i], static_cast<uint32_t>(i), bundle.resources,
                      file_namespace.empty() ? options.default_namespace : file_namespace);
    hashes[i] = identity_hash(obj.group, obj.kind, obj.namespace_, obj.name);
  });
  bundle.by_identity_.resize(std::bit_ceil(std::max<size_t>(1, 2 * raws.size())));
  for (uint32_t i = 0; i < raws.size(); ++i) {
    const Object& obj = bundle.objects[i];
    Bundle::IdentitySlot& slot = bundle.by_identity_[bundle.identity_slot(
        hashes[i], obj.group, obj.kind, obj.namespace_, obj.name)];
    if (slot.object != UINT32_MAX) bundle.objects[slot.object].replaced_by = i;
    slot = {static_cast<uint32_t>(hashes[i]), i};
  }
  // Consecutive objects are mostly of one kind: its list is looked up again only on a change.
  std::vector<uint32_t>* same_kind = nullptr;
  const Object* previous = nullptr;
  for (const Object& obj : bundle.objects) {
    if (obj.replaced()) continue;
    if (!previous || obj.kind != previous->kind || obj.group != previous->group)
      same_kind = &bundle.by_kind_[kind_key(obj.group, obj.kind)];
    same_kind->push_back(obj.index);
    previous = &obj;
  }
  bundle.input = std::move(input);
  return bundle;
}

}  // namespace footprint
