#include "model/object.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "load/parallel.h"
#include "model/field_types.h"

namespace footprint {

std::string Object::qualified_name() const {
  return namespace_.empty() ? name : namespace_ + "/" + name;
}

std::string Object::display() const {
  return kind + " " + qualified_name();
}

namespace {

// "group/kind/ns/name", built by hand: one per object when the bundle is built.
std::string identity_key(std::string_view group, std::string_view kind, std::string_view ns,
                         std::string_view name) {
  std::string key;
  key.reserve(group.size() + kind.size() + ns.size() + name.size() + 3);
  for (std::string_view part : {group, kind, ns})
    (key += part) += '/';
  key += name;
  return key;
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

Object make_object(const RawObject& raw, uint32_t index, const ResourceTable& resources,
                   const BundleOptions& options) {
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
      obj.namespace_ = options.default_namespace;
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

// An object with a field of the wrong type is an invalid document: the API server refuses it
// whole, and the checks must not read the field as absent.
void set_aside_wrong_field_types(LoadedInput& input) {
  size_t before = input.invalid_documents.size();
  // Ranges of objects are checked at once (every field of every object is read), then set aside
  // in order. Ranges, not single objects: neighbours' results share cache lines.
  constexpr size_t kRange = 1024;
  std::vector<std::vector<FieldTypeError>> wrong(input.objects.size());
  parallel_for((wrong.size() + kRange - 1) / kRange, input.jobs, [&](size_t r) {
    for (size_t i = r * kRange; i < std::min(wrong.size(), (r + 1) * kRange); ++i)
      wrong[i] = wrong_field_types(input.objects[i].node);
  });
  size_t kept = 0;
  for (size_t i = 0; i < input.objects.size(); ++i) {
    for (FieldTypeError& e : wrong[i]) {
      input.invalid_documents.push_back(
          LoadError{input.files[input.objects[i].file], e.position, std::move(e.message)});
    }
    if (!wrong[i].empty()) continue;
    if (kept != i) input.objects[kept] = std::move(input.objects[i]);
    ++kept;
  }
  input.objects.resize(kept);
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

}  // namespace

const Object* Bundle::find(std::string_view group, std::string_view kind, std::string_view ns,
                           std::string_view name) const {
  auto it = by_identity_.find(identity_key(group, kind, ns, name));
  return it == by_identity_.end() ? nullptr : &objects[it->second];
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
  set_aside_wrong_field_types(input);
  Bundle bundle;
  bundle.default_namespace = options.default_namespace;
  bundle.resources = ResourceTable::builtin();
  const std::vector<RawObject>& raws = input.objects;
  for (uint32_t i = 0; i < raws.size(); ++i) {
    if (is_crd(raws[i])) bundle.resources.add(resource_of_crd(raws[i], i));
  }

  // Each object is made from its document alone, so ranges of them are made at once with their
  // identity keys; the indexes are built after, in input order.
  constexpr size_t kRange = 1024;
  bundle.objects.resize(raws.size());
  std::vector<std::string> identities(raws.size());
  parallel_for((raws.size() + kRange - 1) / kRange, input.jobs, [&](size_t r) {
    for (size_t i = r * kRange; i < std::min(raws.size(), (r + 1) * kRange); ++i) {
      Object& obj = bundle.objects[i];
      obj = make_object(raws[i], static_cast<uint32_t>(i), bundle.resources, options);
      identities[i] = identity_key(obj.group, obj.kind, obj.namespace_, obj.name);
    }
  });
  // Reserved: growing the index would hash and relink every key again, several times over.
  bundle.by_identity_.reserve(raws.size());
  std::vector<uint32_t>* of_kind = nullptr;  // objects of one kind come in runs
  for (uint32_t i = 0; i < raws.size(); ++i) {
    const Object& obj = bundle.objects[i];
    if (i == 0 || obj.kind != bundle.objects[i - 1].kind ||
        obj.group != bundle.objects[i - 1].group) {
      of_kind = &bundle.by_kind_[kind_key(obj.group, obj.kind)];
    }
    auto [it, fresh] = bundle.by_identity_.try_emplace(std::move(identities[i]), i);
    if (!fresh) {
      bundle.objects[it->second].replaced_by = i;
      of_kind->erase(std::find(of_kind->begin(), of_kind->end(), it->second));
      it->second = i;
    }
    of_kind->push_back(i);
  }
  bundle.input = std::move(input);
  return bundle;
}

}  // namespace footprint
