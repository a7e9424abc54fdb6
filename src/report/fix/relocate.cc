#include "report/fix/relocate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

#include "model/secrets.h"

namespace footprint {

namespace {

struct Edit {
  uint32_t file = 0;
  size_t begin = 0;
  size_t end = 0;
  std::string text;
};

// Characters that continue a reference: an occurrence next to one is part of a longer string.
bool continues_reference(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == ':' ||
         c == '/' || c == '@' || c == '-' || c == '+';
}

// Replaces each occurrence of `from` in text[begin, end) that stands on its own.
bool replace_in_range(std::string_view text, uint32_t file, size_t begin, size_t end,
                      std::string_view from, const std::string& to, std::vector<Edit>& edits) {
  bool found = false;
  for (size_t pos = text.find(from, begin);
       pos != std::string_view::npos && pos + from.size() <= end; pos = text.find(from, pos + 1)) {
    size_t after = pos + from.size();
    bool alone = (pos == begin || !continues_reference(text[pos - 1])) &&
                 (after == end || !continues_reference(text[after]));
    if (!alone) continue;
    edits.push_back({file, pos, after, to});
    found = true;
  }
  return found;
}

std::string where(const Bundle& bundle, const Object& obj, const yaml::Node& at) {
  return fmt::format("{}:{}", bundle.file_of(obj), at ? at.position().line : obj.position.line);
}

// New values for a field group, so that it composes to the relocated name. The fields are
// rewritten in their own scalars, or inside the embedded document's outer scalar.
tl::expected<void, std::string> field_edits(const Bundle& bundle, const ImageUse& use,
                                            const ImageFields& f, const ImageRef& ref,
                                            const RegistryPrefix& registry,
                                            std::vector<Edit>& edits) {
  const Object& obj = bundle.objects[use.object];
  std::string_view text = bundle.input.texts[obj.file];
  std::string repository = ref.path;  // what registry/repository[/image] must spell
  if (!f.image.empty()) {
    std::string suffix = fmt::format("/{}", f.image);
    if (!repository.ends_with(suffix)) {
      return tl::unexpected(fmt::format("{}:{}: cannot split {} into repository and image fields",
                                        bundle.file_of(obj), use.position.line, use.written));
    }
    repository.resize(repository.size() - suffix.size());
  }
  auto set = [&](const yaml::Node& node, const std::string& old_value,
                 const std::string& value) -> tl::expected<void, std::string> {
    if (old_value == value) return {};
    const yaml::Node& range = node ? node : use.scalar;
    if (!replace_in_range(text, obj.file, range.begin_offset(), range.end_offset(), old_value,
                          value, edits)) {
      return tl::unexpected(fmt::format("{}: cannot find \"{}\" verbatim to rewrite it",
                                        where(bundle, obj, range), old_value));
    }
    return {};
  };
  if (!f.registry.empty()) {
    std::string host = registry.prefix.empty()
                           ? registry.domain
                           : fmt::format("{}/{}", registry.domain, registry.prefix);
    if (auto r = set(f.registry_node, f.registry, host); !r) return r;
    return set(f.repository_node, f.repository, repository);
  }
  return set(f.repository_node, f.repository, registry.join(repository));
}

// An object that may hold Secret values is replaced by a comment; inside a block List its "- " goes
// too.
tl::expected<Edit, std::string> secret_edit(const Bundle& bundle, const Object& obj) {
  std::string_view text = bundle.input.texts[obj.file];
  size_t begin = obj.node.begin_offset();
  size_t end = obj.node.end_offset();
  // A block mapping's range runs to the next token; keep the line break and the `---`.
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])))
    --end;
  if (bundle.input.objects[obj.index].list_index >= 0) {
    size_t dash = begin;
    while (dash > 0 && (text[dash - 1] == ' ' || text[dash - 1] == '\t'))
      --dash;
    if (dash == 0 || text[dash - 1] != '-') {
      return tl::unexpected(
          fmt::format("{}: {} sits in a flow-style List; split it out of the List to relocate",
                      where(bundle, obj, obj.node), obj.display()));
    }
    begin = dash - 1;
  }
  return Edit{obj.file, begin, end,
              fmt::format("# {} left out by footprint images relocate: apply it from the "
                          "original manifests.",
                          obj.display())};
}

// A List whose items are all left out must stay a List: `items:` with nothing under it is null,
// not the array a List holds. Its items' edits become one: `items: []`, then their comments.
tl::expected<void, std::string> empty_lists(const Bundle& bundle,
                                            std::map<uint32_t, Edit>& secret_edits) {
  const std::vector<RawObject>& raw = bundle.input.objects;
  for (size_t first = 0; first < raw.size();) {
    size_t end = first + 1;
    if (raw[first].list_index == 0) {
      while (end < raw.size() && raw[end].list_index > 0 && raw[end].file == raw[first].file)
        ++end;
    }
    bool all_left_out = raw[first].list_index == 0;
    for (size_t i = first; i < end && all_left_out; ++i)
      all_left_out = secret_edits.contains(static_cast<uint32_t>(i));
    if (!all_left_out) {
      first = end;
      continue;
    }
    Edit& head = secret_edits.at(static_cast<uint32_t>(first));
    std::string_view text = bundle.input.texts[head.file];
    size_t colon = head.begin;  // the first item's "-"; `items:` ends before it
    while (colon > 0 && std::isspace(static_cast<unsigned char>(text[colon - 1])))
      --colon;
    if (colon == 0 || text[colon - 1] != ':') {
      return tl::unexpected(fmt::format(
          "{}: the List's items are all left out, and its items: key is not right before them; "
          "write the Secrets in their own documents to relocate",
          where(bundle, bundle.objects[first], bundle.objects[first].node)));
    }
    Edit merged{head.file, colon, head.end, " []"};
    for (size_t i = first; i < end; ++i) {
      Edit& item = secret_edits.at(static_cast<uint32_t>(i));
      merged.text += "\n" + item.text;
      merged.end = item.end;
      secret_edits.erase(static_cast<uint32_t>(i));
    }
    secret_edits.emplace(static_cast<uint32_t>(first), std::move(merged));
    first = end;
  }
  return {};
}

// Reads the rewritten text back and makes sure every reference that was to move now points at
// the mirror, so the manifests and the copy plan cannot drift apart.
tl::expected<void, std::string> check_relocation(const Bundle& bundle, const Relocation& result,
                                                 const RelocateOptions& options) {
  std::vector<NamedText> texts;
  for (size_t f = 0; f < result.texts.size(); ++f) {
    bool has_objects =
        std::any_of(bundle.objects.begin(), bundle.objects.end(),
                    [&](const Object& o) { return o.file == f && !may_hold_secret_values(o); });
    if (has_objects) texts.push_back({bundle.input.files[f], result.texts[f]});
  }
  if (texts.empty()) return {};
  auto loaded = load_texts(std::move(texts), LoadOptions{});
  if (!loaded) {
    return tl::unexpected(
        fmt::format("the relocated manifests do not load: {}", loaded.error().front().to_string()));
  }
  Bundle again = build_bundle(std::move(*loaded), BundleOptions{bundle.default_namespace});
  ImageInventory found = discover_images(again);
  for (const ImageUse& use : found.uses) {
    if (!use.ref || use.source == "injector") continue;
    if (!moves_by_default(use) && !options.include_possible) continue;
    if (!options.registry.holds(*use.ref)) {
      const Object& obj = again.objects[use.object];
      return tl::unexpected(fmt::format("{}:{}: {} at {} was not rewritten", again.file_of(obj),
                                        use.position.line, use.written, use.path));
    }
  }
  return {};
}

}  // namespace

bool moves_by_default(const ImageUse& use) {
  return use.confidence != Confidence::kPossible;
}

std::string relocated_reference(const ImageRef& ref, const RegistryPrefix& registry) {
  std::string out = registry.join(ref.path);
  if (!ref.tag.empty()) out += ":" + ref.tag;
  if (!ref.digest.empty()) out += "@" + ref.digest;
  return out;
}

tl::expected<Relocation, std::string> relocate(const Bundle& bundle, const ImageInventory& images,
                                               const RelocateOptions& options) {
  Relocation out;
  std::vector<Edit> edits;
  std::vector<bool> relocated_image(images.images.size(), false);
  std::vector<size_t> image_of_use(images.uses.size(), 0);
  for (size_t i = 0; i < images.images.size(); ++i) {
    for (size_t u : images.images[i].uses)
      image_of_use[u] = i;
  }
  // A reference still holding a Helm template cannot be relocated, and the manifests would pull
  // it from wherever the template renders to.
  std::vector<std::string> unrendered;
  for (const ImageUse& use : images.uses) {
    if (use.written.find("{{") == std::string::npos) continue;
    const Object& obj = bundle.objects[use.object];
    unrendered.push_back(
        fmt::format("{}: {}: {}", where(bundle, obj, use.scalar), use.path, use.written));
  }
  if (!unrendered.empty()) {
    bool one = unrendered.size() == 1;
    return tl::unexpected(fmt::format(
        "{} image reference{} still {} a Helm template ({{{{ }}}}) and cannot be relocated; give "
        "footprint the chart folder, or helm template's output:\n  {}",
        unrendered.size(), one ? "" : "s", one ? "holds" : "hold", fmt::join(unrendered, "\n  ")));
  }
  // Neither can a reference the grammar refuses (" nginx:1.25", UPPER/Case:1): the kubelet
  // refuses it too (InvalidImageName), and copying it unchanged would hide that.
  std::vector<std::string> invalid;
  for (const ImageUse& use : images.uses) {
    if (use.ref || (!moves_by_default(use) && !options.include_possible)) continue;
    const Object& obj = bundle.objects[use.object];
    invalid.push_back(fmt::format("{}: {}: \"{}\": {}", where(bundle, obj, use.scalar), use.path,
                                  use.written, use.error));
  }
  if (!invalid.empty()) {
    bool one = invalid.size() == 1;
    return tl::unexpected(fmt::format(
        "{} image reference{} not valid and cannot be relocated; correct {} in the input:\n  {}",
        invalid.size(), one ? " is" : "s are", one ? "it" : "them", fmt::join(invalid, "\n  ")));
  }
  for (size_t u = 0; u < images.uses.size(); ++u) {
    const ImageUse& use = images.uses[u];
    if (!use.ref) continue;
    const Object& obj = bundle.objects[use.object];
    if (use.source == "injector") {
      // Composed by the mesh from global.hub and a name: moving it means setting global.hub.
      out.left_unchanged.push_back(
          fmt::format("{}: {}: {} (a mesh injector's proxy: set its global.hub to the mirror)",
                      where(bundle, obj, use.scalar), use.path, use.written));
      continue;
    }
    if (!moves_by_default(use) && !options.include_possible) {
      out.left_unchanged.push_back(
          fmt::format("{}: {}: {}", where(bundle, obj, use.scalar), use.path, use.written));
      continue;
    }
    // Already relocated (a second run, or a chart given the mirror as its registry): prefixing it
    // again would name a repository the plan copies the mirror into.
    if (options.registry.holds(*use.ref)) {
      out.already_on_mirror.push_back(
          fmt::format("{}: {}: {}", where(bundle, obj, use.scalar), use.path, use.written));
      continue;
    }
    if (!use.fields) {
      std::string_view text = bundle.input.texts[obj.file];
      if (!replace_in_range(text, obj.file, use.scalar.begin_offset(), use.scalar.end_offset(),
                            use.written, relocated_reference(*use.ref, options.registry), edits)) {
        return tl::unexpected(
            fmt::format("{}: cannot find {} verbatim in its scalar (escaped characters?); "
                        "rewrite it by hand",
                        where(bundle, obj, use.scalar), use.written));
      }
    } else if (auto r = field_edits(bundle, use, *use.fields, *use.ref, options.registry, edits);
               !r) {
      return tl::unexpected(r.error());
    }
    ++out.rewritten;
    relocated_image[image_of_use[u]] = true;
  }

  // Two source repositories must not land on one mirror repository.
  std::map<std::string, std::string> source_of;
  for (size_t i = 0; i < images.images.size(); ++i) {
    if (!relocated_image[i]) continue;
    const ImageRef& ref = images.images[i].ref;
    std::string target = options.registry.join(ref.path);
    auto [it, added] = source_of.emplace(target, ref.name());
    if (!added && it->second != ref.name()) {
      return tl::unexpected(fmt::format(
          "{} and {} would both become {}; relocate them with different --registry prefixes",
          it->second, ref.name(), target));
    }
    ImageCopy copy;
    copy.source = ref.pinned() ? fmt::format("{}@{}", ref.name(), ref.digest) : ref.normalized();
    copy.destination =
        target + (ref.pinned() && ref.tag.empty() ? "@" + ref.digest
                                                  : ":" + std::string(ref.effective_tag()));
    bool seen = std::any_of(out.copies.begin(), out.copies.end(), [&](const ImageCopy& c) {
      return c.source == copy.source && c.destination == copy.destination;
    });
    if (!seen) out.copies.push_back(std::move(copy));
  }

  std::map<uint32_t, Edit> secret_edits;  // by object index
  for (const Object& obj : bundle.objects) {
    if (!may_hold_secret_values(obj)) continue;
    auto edit = secret_edit(bundle, obj);
    if (!edit) return tl::unexpected(edit.error());
    secret_edits.emplace(obj.index, std::move(*edit));
    out.omitted_secrets.push_back(
        fmt::format("{} ({})", obj.display(), where(bundle, obj, obj.node)));
  }
  if (auto merged = empty_lists(bundle, secret_edits); !merged) {
    return tl::unexpected(merged.error());
  }
  for (auto& [index, edit] : secret_edits)
    edits.push_back(std::move(edit));

  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    return std::tie(a.file, a.begin, a.end) < std::tie(b.file, b.begin, b.end);
  });
  edits.erase(std::unique(edits.begin(), edits.end(),
                          [](const Edit& a, const Edit& b) {
                            return a.file == b.file && a.begin == b.begin && a.end == b.end &&
                                   a.text == b.text;
                          }),
              edits.end());
  out.texts.resize(bundle.input.texts.size());
  size_t e = 0;
  for (uint32_t f = 0; f < bundle.input.texts.size(); ++f) {
    std::string_view text = bundle.input.texts[f];
    std::string& result = out.texts[f];
    size_t copied = 0;
    for (; e < edits.size() && edits[e].file == f; ++e) {
      if (edits[e].begin < copied) {
        return tl::unexpected(fmt::format("{}: two rewrites overlap at byte {}",
                                          bundle.input.files[f], edits[e].begin));
      }
      result.append(text.substr(copied, edits[e].begin - copied));
      result += edits[e].text;
      copied = edits[e].end;
    }
    result.append(text.substr(copied));
  }
  if (auto checked = check_relocation(bundle, out, options); !checked) {
    return tl::unexpected(checked.error());
  }
  return out;
}

std::string copy_plan_script(const std::vector<ImageCopy>& copies) {
  std::string out =
      "#!/bin/sh\n"
      "# Written by footprint images relocate: copies every image the relocated manifests use.\n"
      "set -eu\n";
  for (const ImageCopy& c : copies) {
    out += fmt::format("skopeo copy --all docker://{} docker://{}\n", c.source, c.destination);
  }
  return out;
}

}  // namespace footprint
