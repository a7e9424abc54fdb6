#include <fmt/format.h>

#include <algorithm>

#include "model/units.h"
#include "report/labels.h"
#include "report/report.h"
#include "util/strings.h"

namespace footprint {

namespace {

std::string kind_and_name(const Object& obj) {
  return fmt::format("{} {}", obj.kind, obj.qualified_name());
}

Json use_json(const Bundle& bundle, const ImageUse& use) {
  const Object& obj = bundle.objects[use.object];
  Json j = {{"object", object_json(obj)}, {"file", bundle.file_of(obj)},
            {"line", use.position.line},  {"path", use.path},
            {"source", use.source},       {"confidence", confidence_name(use.confidence)},
            {"written", use.written}};
  if (!obj.helm_source.empty()) j["helmTemplate"] = obj.helm_source;
  if (!use.disabled_by.empty()) j["disabledBy"] = use.disabled_by;
  if (!use.ref) j["error"] = use.error;
  return j;
}

// The objects that use an image; paths are in the JSON and in the findings.
std::string used_by(const Bundle& bundle, const ImageInventory& inv, const Image& image) {
  std::vector<uint32_t> objects;
  for (size_t u : image.uses) {
    uint32_t o = inv.uses[u].object;
    if (std::find(objects.begin(), objects.end(), o) == objects.end()) objects.push_back(o);
  }
  std::string out = kind_and_name(bundle.objects[objects.front()]);
  if (objects.size() > 1) out += fmt::format(" (+{} more)", objects.size() - 1);
  return out;
}

// Digests are 64 hex digits; 12 identify one in a table, as `docker images` shows them.
std::string short_reference(const ImageRef& ref) {
  std::string out = ref.normalized();
  size_t at = out.find('@');
  if (at != std::string::npos && out.size() > at + 20) out = out.substr(0, at + 20) + "...";
  return out;
}

}  // namespace

Json image_json(const Bundle& bundle, const ImageInventory& inv, const Image& image) {
  Json uses = Json::array();
  for (size_t u : image.uses)
    uses.push_back(use_json(bundle, inv.uses[u]));
  Json j = {{"image", image.written},       {"reference", image.ref.normalized()},
            {"registry", image.ref.domain}, {"repository", image.ref.path},
            {"tag", image.ref.tag},         {"digest", image.ref.digest},
            {"pinned", image.ref.pinned()}, {"confidence", confidence_name(image.confidence)},
            {"needed", image.needed()}};
  if (!image.needed()) j["disabledBy"] = image.disabled_by;
  j["uses"] = uses;
  return j;
}

Json model_json(const Bundle& bundle, const ModelUse& m) {
  const Object& obj = bundle.objects[m.object];
  Json j = {{"id", m.id},
            {"revision", m.revision},
            {"pinned", m.pinned()},
            {"object", object_json(obj)},
            {"file", bundle.file_of(obj)},
            {"line", m.position.line},
            {"path", m.path}};
  if (!m.revision_path.empty()) j["revisionPath"] = m.revision_path;
  return j;
}

Section images_section(const Bundle& bundle, const ImageInventory& inv, bool include_possible,
                       const ImageSizes* sizes) {
  Section s;
  s.id = "images";
  s.title = "Images";
  size_t shown = 0, pinned = 0, possible = 0;
  Table table;
  bool sized = sizes != nullptr && sizes->sized;
  bool pinning = sizes != nullptr && sizes->pinned;
  table.header = {"IMAGE", "DIGEST", "FOUND", "USED BY"};
  if (sized) {
    table.header.insert(table.header.begin() + 2, "SIZE");
    table.right_aligned = {false, false, true};
  }
  Json images = Json::array();
  for (const Image& image : inv.images) {
    if (image.confidence == Confidence::kPossible && !include_possible) {
      ++possible;
      continue;
    }
    ++shown;
    if (image.ref.pinned()) ++pinned;
    const ImageUse& first = inv.uses[image.uses.front()];
    std::string found = fmt::format("{}, {}", confidence_name(image.confidence), first.source);
    if (!image.needed()) found += ", disabled";
    std::string reference = image.ref.normalized();
    const RegistryImage* answer = sizes != nullptr ? sizes->find(reference) : nullptr;
    std::string digest = image.ref.pinned() ? "pinned" : "tag only";
    // With --pin, the digest the tag resolves to, shortened as `docker images` shows it.
    if (pinning && answer != nullptr && answer->ok() && !image.ref.pinned())
      digest = answer->digest.substr(0, 19);
    std::vector<std::string> row = {short_reference(image.ref), digest, found,
                                    used_by(bundle, inv, image)};
    if (sized) {
      std::string size = "unknown";
      if (answer != nullptr) size = answer->ok() ? human_bytes(answer->bytes) : "error";
      row.insert(row.begin() + 2, size);
    }
    table.rows.push_back(std::move(row));
    Json j = image_json(bundle, inv, image);
    if (sizes != nullptr) add_registry_json(j, *sizes, reference);
    images.push_back(std::move(j));
  }
  Block list;
  list.lines.push_back(fmt::format("{}, {} pinned by digest, found in {}.",
                                   count_of(shown, "image"), pinned,
                                   count_of(inv.uses.size(), "place")));
  if (possible) {
    list.lines.push_back(
        fmt::format("{} more {} only look like images (a registry domain but no tag, under a name "
                    "that does not say image); --include-possible lists them.",
                    possible, possible == 1 ? "string does" : "strings"));
  }
  if (!table.rows.empty()) list.table = std::move(table);
  s.blocks.push_back(std::move(list));
  if (sizes != nullptr) {
    for (Block& b : registry_blocks(*sizes))
      s.blocks.push_back(std::move(b));
  }

  Table invalid;
  invalid.header = {"NOT AN IMAGE REFERENCE", "WHY", "USED BY"};
  Json invalid_json = Json::array();
  for (const ImageUse& use : inv.uses) {
    if (use.ref) continue;
    invalid.rows.push_back(
        {quoted_if_blank_edges(use.written), use.error,
         fmt::format("{} {}", kind_and_name(bundle.objects[use.object]), use.path)});
    invalid_json.push_back(use_json(bundle, use));
  }
  if (!invalid.rows.empty()) {
    Block block;
    block.lines.push_back(fmt::format(
        "{} no valid reference: the kubelet rejects {} with InvalidImageName. Unrendered "
        "placeholders (ko://, {{{{ }}}}) are the usual cause.",
        invalid.rows.size() == 1 ? "1 image field holds"
                                 : fmt::format("{} image fields hold", invalid.rows.size()),
        invalid.rows.size() == 1 ? "it" : "them"));
    block.table = std::move(invalid);
    s.blocks.push_back(std::move(block));
  }

  Table models;
  models.header = {"MODEL", "REVISION", "USED BY"};
  Json models_json = Json::array();
  for (const ModelUse& m : inv.models) {
    models.rows.push_back({m.id, m.revision.empty() ? "none" : m.revision,
                           fmt::format("{} {}", kind_and_name(bundle.objects[m.object]), m.path)});
    models_json.push_back(model_json(bundle, m));
  }
  if (!models.rows.empty()) s.blocks.push_back(Block{{}, std::move(models)});
  s.json = {{"images", images}, {"invalid", invalid_json}, {"models", models_json}};
  if (sized) {
    s.json["platform"] = sizes->platform;
    s.json["totalBytes"] = total_bytes_json(*sizes);
  }
  return s;
}

}  // namespace footprint
