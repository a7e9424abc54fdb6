#include "analysis/commands/airgap.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "load/olm_bundle.h"

namespace footprint {

namespace {

// The spec.relatedImages of each OLM bundle among the inputs (the streams rendered by "olm" are
// named after their bundle folder).
std::vector<RelatedImage> olm_related_images(const LoadedInput& input) {
  std::vector<RelatedImage> out;
  for (size_t i = 0; i < input.files.size(); ++i) {
    if (input.renderer_of(input.files[i]) != "olm") continue;
    auto bundle = read_olm_bundle(input.files[i]);
    if (!bundle) continue;
    std::vector<RelatedImage> related = related_images(*bundle);
    out.insert(out.end(), related.begin(), related.end());
  }
  return out;
}

std::string object_list(const Bundle& bundle, const ImageInventory& inv, const Image& image) {
  std::vector<uint32_t> objects;
  for (size_t u : image.uses) {
    uint32_t o = inv.uses[u].object;
    if (std::find(objects.begin(), objects.end(), o) == objects.end()) objects.push_back(o);
  }
  const ImageUse& first = inv.uses[image.uses.front()];
  std::string out = first.configmap_key.empty()
                        ? "used by " + bundle.objects[objects.front()].display()
                        : fmt::format("named in {} key {}", bundle.objects[first.object].display(),
                                      first.configmap_key);
  if (objects.size() > 1) out += fmt::format(" (+{} more)", objects.size() - 1);
  return out;
}

// A chart inside the archive: its directory ("dynamo/", "dynamo/charts/nats/") and parsed files.
struct Chart {
  std::string dir;
  yaml::Node chart;   // Chart.yaml's root
  yaml::Node values;  // values.yaml's root; absent when the chart has none
};

std::string dir_of(const std::string& path) {
  return path.substr(0, path.rfind('/') + 1);
}

bool is_off(const yaml::Node& node) {
  if (!node.is_scalar()) return false;
  std::string_view v = node.text();
  return v == "false" || v == "False" || v == "FALSE" || v == "no" || v == "off";
}

yaml::Node lookup(const yaml::Node& values, std::string_view dotted) {
  yaml::Node node = values;
  size_t pos = 0;
  while (node && pos <= dotted.size()) {
    size_t dot = dotted.find('.', pos);
    if (dot == std::string_view::npos) dot = dotted.size();
    node = node.get(dotted.substr(pos, dot - pos));
    pos = dot + 1;
  }
  return node;
}

// Helm's condition: comma-separated value paths; the first one present decides.
std::optional<std::string> disabled_by_condition(const Chart& chart, std::string_view condition) {
  size_t pos = 0;
  while (pos <= condition.size()) {
    size_t comma = condition.find(',', pos);
    if (comma == std::string_view::npos) comma = condition.size();
    std::string path(condition.substr(pos, comma - pos));
    path.erase(std::remove(path.begin(), path.end(), ' '), path.end());
    yaml::Node v = lookup(chart.values, path);
    if (v && v.is_scalar()) {
      if (is_off(v)) return fmt::format("{} is {} in {}values.yaml", path, v.text(), chart.dir);
      return std::nullopt;
    }
    pos = comma + 1;
  }
  return std::nullopt;
}

// The dependency entry of `parent` for a subchart named `name`.
yaml::Node dependency(const Chart& parent, std::string_view name) {
  yaml::Node deps = parent.chart.get("dependencies");
  for (size_t i = 0; i < deps.size() && deps.is_sequence(); ++i) {
    yaml::Node d = deps.item(i);
    if (d.get("name").str() == name || d.get("alias").str() == name) return d;
  }
  return {};
}

}  // namespace

tl::expected<std::vector<ExtraImage>, std::string> parse_extra_images(const std::string& file,
                                                                      std::string_view text) {
  std::vector<ExtraImage> out;
  size_t pos = 0;
  uint32_t line = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view l = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++line;
    size_t start = l.find_first_not_of(" \t\r");
    if (start == std::string_view::npos || l[start] == '#') continue;
    size_t end = l.find_first_of(" \t\r#", start);
    std::string_view ref = l.substr(start, end == std::string_view::npos ? end : end - start);
    // After the reference only a # comment may follow: "not a ref!!" is not the image "not".
    size_t rest = end == std::string_view::npos ? end : l.find_first_not_of(" \t\r", end);
    if (rest != std::string_view::npos && l[rest] != '#') {
      return tl::unexpected(fmt::format(
          "{}:{}:{}: \"{}\" is not one image reference: expected one per line, with an optional "
          "# comment after it",
          file, line, start + 1, l.substr(start, l.find_last_not_of(" \t\r") + 1 - start)));
    }
    if (auto parsed = parse_image_ref(ref); !parsed) {
      return tl::unexpected(
          fmt::format("{}:{}:{}: {}: {}", file, line, start + 1, ref, parsed.error()));
    }
    out.push_back({std::string(ref), fmt::format("{}:{}", file, line)});
  }
  return out;
}

std::vector<AirgapItem> airgap_items(const Bundle& bundle, const ImageInventory& inv,
                                     const AirgapInputs& inputs) {
  std::vector<AirgapItem> out;
  std::map<std::string, size_t> row_of;  // normalised reference -> row
  auto size_of = [&](const std::string& reference) -> std::optional<uint64_t> {
    if (!inputs.sizes) return std::nullopt;
    auto it = inputs.sizes->bytes.find(reference);
    if (it == inputs.sizes->bytes.end()) return std::nullopt;
    return it->second;
  };
  auto add_image = [&](const std::string& reference, AirgapItem item) {
    if (row_of.count(reference)) return false;
    item.item = "image";
    item.name = reference;
    item.bytes = size_of(reference);
    row_of[reference] = out.size();
    out.push_back(std::move(item));
    return true;
  };
  // Repositories the operator completes at run time come last, under their likely tag, so that
  // a row for that reference names where it is used as written first.
  std::vector<std::pair<const Image*, const Image*>> completed;
  for (const Image& image : inv.images) {
    // Beside the operator's own image, a name that only reads as a reference is one.
    if (const Image* own = completed_from(inv, image)) {
      completed.emplace_back(&image, own);
      continue;
    }
    if (image.confidence == Confidence::kPossible && !inputs.include_possible) continue;
    AirgapItem item;
    item.needed = image.needed();
    item.note = image.needed() ? object_list(bundle, inv, image)
                               : fmt::format("off: {} is false", image.disabled_by);
    if (image.ref.digest.empty() && is_placeholder_tag(image.ref.tag)) {
      item.note += fmt::format(
          "; the tag :{} is a placeholder no registry has: mirror the released version instead",
          image.ref.tag);
    }
    item.source = "manifests";
    add_image(image.ref.normalized(), std::move(item));
  }
  for (const auto& [image, own] : completed) {
    ImageRef likely = image->ref;
    likely.tag = own->ref.tag;
    std::string reference = likely.normalized();
    std::string note = fmt::format(
        "{} without a tag, which the operator completes at run time: :{} is the likely tag, that "
        "of {}",
        object_list(bundle, inv, *image), own->ref.tag, own->written);
    if (row_of.count(reference)) {
      out[row_of[reference]].note += "; also " + note;
      continue;
    }
    AirgapItem item;
    item.needed = image->needed();
    item.note = std::move(note);
    item.source = "manifests";
    add_image(reference, std::move(item));
  }

  // Charts in the archive, and which of them are switched off by their parent's values.
  std::vector<Chart> charts;
  std::vector<std::vector<yaml::Document>> documents;
  if (inputs.chart) {
    for (const ChartFile& f : inputs.chart->files) {
      auto docs = yaml::parse(f.text);
      if (!docs || docs->empty()) continue;
      std::string dir = dir_of(f.path);
      auto it =
          std::find_if(charts.begin(), charts.end(), [&](const Chart& c) { return c.dir == dir; });
      if (it == charts.end()) {
        charts.push_back({dir, {}, {}});
        it = charts.end() - 1;
      }
      (f.path.ends_with("/Chart.yaml") ? it->chart : it->values) = (*docs)[0].root;
      documents.push_back(std::move(*docs));
    }
  }
  auto parent_of = [&](const Chart& c) -> const Chart* {
    // "p/charts/sub/" -> "p/"
    std::string dir = c.dir.substr(0, c.dir.size() - 1);
    size_t charts_at = dir.rfind("/charts/");
    if (charts_at == std::string::npos) return nullptr;
    std::string parent = dir.substr(0, charts_at + 1);
    auto it =
        std::find_if(charts.begin(), charts.end(), [&](const Chart& p) { return p.dir == parent; });
    return it == charts.end() ? nullptr : &*it;
  };
  // Why a chart is off: its dependency condition in any ancestor, evaluated there.
  auto chart_off = [&](const Chart& c) -> std::optional<std::string> {
    const Chart* child = &c;
    for (const Chart* parent = parent_of(c); parent; child = parent, parent = parent_of(*parent)) {
      yaml::Node dep = dependency(*parent, child->chart.get("name").str());
      if (auto why = disabled_by_condition(*parent, dep.get("condition").str())) return why;
    }
    return std::nullopt;
  };

  for (const Chart& c : charts) {
    std::optional<std::string> off = chart_off(c);
    for (std::string_view key : {"helm.sh/images", "artifacthub.io/images"}) {
      yaml::Node annotation = c.chart.at({"annotations", key});
      if (!annotation.is_scalar()) continue;
      auto list = yaml::parse(annotation.str());
      if (!list || list->empty()) continue;
      yaml::Node items = (*list)[0].root;
      for (size_t i = 0; i < items.size() && items.is_sequence(); ++i) {
        yaml::Node entry = items.item(i);
        auto ref = parse_image_ref(entry.get("image").str());
        if (!ref) continue;
        std::string reference = ref->normalized();
        std::string where = fmt::format("listed in {}Chart.yaml {}", c.dir, key);
        if (row_of.count(reference)) {
          AirgapItem& row = out[row_of[reference]];
          row.note += fmt::format("; {}", where);
          continue;
        }
        std::optional<std::string> why = off;
        if (!why) why = disabled_by_condition(c, entry.get("condition").str());
        if (!why && entry.get("dependency")) {
          why = disabled_by_condition(
              c, dependency(c, entry.get("dependency").str()).get("condition").str());
        }
        AirgapItem item;
        item.needed = !why;
        item.note = why ? fmt::format("off by default: {}", *why)
                        : where + "; not in the rendered manifests (an operator may start it)";
        item.source = "Chart.yaml";
        add_image(reference, std::move(item));
      }
    }
  }

  // An OLM bundle's relatedImages: images the operator may start, which a mirror must hold.
  for (const RelatedImage& related : olm_related_images(bundle.input)) {
    auto ref = parse_image_ref(related.image);
    if (!ref) continue;
    std::string reference = ref->normalized();
    if (row_of.count(reference)) {
      out[row_of[reference]].note += fmt::format("; also in relatedImages ({})", related.origin);
      continue;
    }
    AirgapItem item;
    item.note = fmt::format("from relatedImages ({})", related.origin);
    item.source = "relatedImages";
    add_image(reference, std::move(item));
  }

  for (const ExtraImage& extra : inputs.extra_images) {
    std::string reference = parse_image_ref(extra.text)->normalized();
    if (row_of.count(reference)) {
      out[row_of[reference]].note += fmt::format("; also in {}", extra.origin);
      continue;
    }
    AirgapItem item;
    item.note = fmt::format("from {}", extra.origin);
    item.source = "--extra-images";
    add_image(reference, std::move(item));
  }

  if (inputs.chart) {
    AirgapItem chart;
    chart.item = "chart";
    size_t slash = inputs.chart->file.rfind('/');
    chart.name =
        slash == std::string::npos ? inputs.chart->file : inputs.chart->file.substr(slash + 1);
    chart.bytes = inputs.chart->bytes;
    if (!charts.empty()) {
      chart.note = fmt::format("{} {}", charts.front().chart.get("name").str(),
                               charts.front().chart.get("version").str());
    }
    chart.source = "--chart";
    out.push_back(std::move(chart));
  }

  std::vector<std::string> seen_models;
  for (const ModelUse& m : inv.models) {
    std::string name = m.revision.empty() ? m.id : fmt::format("{}@{}", m.id, m.revision);
    if (std::find(seen_models.begin(), seen_models.end(), name) != seen_models.end()) continue;
    seen_models.push_back(name);
    AirgapItem item;
    item.item = "model";
    item.name = name;
    item.note = fmt::format("{}; in the Hugging Face cache of every node that runs {}",
                            m.pinned() ? "revision pinned" : "revision NOT pinned",
                            bundle.objects[m.object].display());
    item.source = "manifests";
    out.push_back(std::move(item));
  }

  for (const Chart& c : charts) {
    if (!parent_of(c)) continue;
    std::optional<std::string> off = chart_off(c);
    if (!off) continue;
    AirgapItem item;
    item.item = "subchart";
    item.name = fmt::format("{} {}", c.chart.get("name").str(), c.chart.get("version").str());
    item.needed = false;
    item.note = fmt::format("off by default: {}", *off);
    item.source = "--chart";
    out.push_back(std::move(item));
  }
  return out;
}

}  // namespace footprint
