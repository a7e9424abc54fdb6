#include "load/olm_image.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "load/olm_image_layers.h"

namespace footprint {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::string_view kBundleLabelPrefix = "operators.operatorframework.io.bundle.";

bool sha256_hex(std::string_view hex) {
  return hex.size() == 64 && std::all_of(hex.begin(), hex.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// The files of the image: under a layout directory, or read from a tarball into memory.
class ImageStore {
 public:
  ImageStore(std::string input, uint64_t max_bytes) : input_(std::move(input)), max_(max_bytes) {}

  tl::expected<void, std::string> load_tarball() {
    tarball_ = true;
    std::unique_ptr<archive, decltype(&archive_read_free)> a(archive_read_new(),
                                                             &archive_read_free);
    archive_read_support_format_tar(a.get());
    if (archive_read_open_filename(a.get(), input_.c_str(), 1 << 16) != ARCHIVE_OK)
      return tl::unexpected(archive_error_string(a.get()));
    archive_entry* entry = nullptr;
    for (;;) {
      int rc = archive_read_next_header(a.get(), &entry);
      if (rc == ARCHIVE_EOF) break;
      if (rc < ARCHIVE_WARN) return tl::unexpected(archive_error_string(a.get()));
      const char* raw = archive_entry_pathname(entry);
      std::string name = fs::path(raw ? raw : "").lexically_normal().generic_string();
      if (name.starts_with("./")) name.erase(0, 2);
      if (const char* target = archive_entry_hardlink(entry)) {
        links_[name] = fs::path(target).lexically_normal().generic_string();
      } else if (archive_entry_filetype(entry) == AE_IFLNK) {
        const char* target = archive_entry_symlink(entry);
        links_[name] = (fs::path(name).parent_path() / (target ? target : ""))
                           .lexically_normal()
                           .generic_string();
      } else if (archive_entry_filetype(entry) == AE_IFREG) {
        std::string data;
        char buffer[1 << 16];
        for (la_ssize_t n = 0; (n = archive_read_data(a.get(), buffer, sizeof buffer)) != 0;) {
          if (n < 0)
            return tl::unexpected(fmt::format("{}: {}", name, archive_error_string(a.get())));
          data.append(buffer, static_cast<size_t>(n));
          if (!count(static_cast<uint64_t>(n))) return tl::unexpected(too_large());
        }
        files_[name] = std::move(data);
      }
    }
    return {};
  }

  bool tarball() const { return tarball_; }

  bool has(const std::string& rel) const {
    if (tarball_) return files_.count(rel) != 0 || links_.count(rel) != 0;
    std::error_code ec;
    return fs::exists(fs::path(input_) / rel, ec);
  }

  // The file at `rel`, with errors naming it.
  tl::expected<std::string, std::string> read(const std::string& rel) {
    if (tarball_) {
      std::string at = rel;
      for (int hop = 0; hop < 8 && links_.count(at) != 0; ++hop)
        at = links_.at(at);
      auto it = files_.find(at);
      if (it == files_.end()) return tl::unexpected(fmt::format("{}: not in the tarball", rel));
      return it->second;
    }
    fs::path path = fs::path(input_) / rel;
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return tl::unexpected(fmt::format("{}: missing, or cannot be read", rel));
    std::string data;
    char buffer[1 << 16];
    while (!std::feof(f)) {
      size_t n = std::fread(buffer, 1, sizeof buffer, f);
      if (std::ferror(f)) {
        std::fclose(f);
        return tl::unexpected(fmt::format("{}: cannot be read", rel));
      }
      data.append(buffer, n);
      if (!count(n)) {
        std::fclose(f);
        return tl::unexpected(fmt::format("{}: {}", rel, too_large()));
      }
    }
    std::fclose(f);
    return data;
  }

  tl::expected<json, std::string> read_json(const std::string& rel) {
    auto text = read(rel);
    if (!text) return tl::unexpected(text.error());
    json doc = json::parse(*text, nullptr, false);
    if (doc.is_discarded()) return tl::unexpected(fmt::format("{}: not valid JSON", rel));
    return doc;
  }

  // The blob a descriptor names, checked against its digest and size.
  tl::expected<std::string, std::string> read_blob(const json& descriptor) {
    std::string digest = descriptor.value("digest", "");
    if (!digest.starts_with("sha256:") || !sha256_hex(std::string_view(digest).substr(7)))
      return tl::unexpected(
          fmt::format("a descriptor's digest \"{}\" is not sha256:<64 hex>", digest));
    std::string rel = "blobs/sha256/" + digest.substr(7);
    auto data = read(rel);
    if (!data) return data;
    if (descriptor.contains("size") && descriptor["size"].is_number_unsigned() &&
        descriptor["size"].get<uint64_t>() != data->size()) {
      return tl::unexpected(fmt::format("{}: {} bytes, where its descriptor says {}", rel,
                                        data->size(), descriptor["size"].get<uint64_t>()));
    }
    if (std::string actual = sha256_digest(*data); actual != digest) {
      return tl::unexpected(fmt::format(
          "{}: its content's digest is {}, not {}: the blob is corrupt", rel, actual, digest));
    }
    return data;
  }

 private:
  bool count(uint64_t n) {
    read_ += n;
    return read_ <= max_;
  }
  std::string too_large() const {
    return fmt::format("more than {} bytes to read (the limit for a bundle image)", max_);
  }

  std::string input_;
  uint64_t max_;
  uint64_t read_ = 0;
  bool tarball_ = false;
  std::map<std::string, std::string> files_;
  std::map<std::string, std::string> links_;
};

struct ImageChoice {
  std::vector<std::string> names;  // ref names and tags
  std::string digest;
  json manifest;  // OCI: the image manifest; docker: the manifest.json entry
};

tl::expected<size_t, std::string> pick_image(const std::vector<ImageChoice>& choices,
                                             const std::string& wanted) {
  std::vector<std::string> listed;
  for (size_t i = 0; i < choices.size(); ++i) {
    const ImageChoice& c = choices[i];
    if (!wanted.empty() &&
        (c.digest == wanted || std::count(c.names.begin(), c.names.end(), wanted)))
      return i;
    listed.push_back(c.names.empty() ? c.digest
                                     : fmt::format("{} ({})", fmt::join(c.names, ", "), c.digest));
  }
  if (choices.size() == 1 && wanted.empty()) return 0;
  if (choices.empty()) return tl::unexpected(std::string("holds no image"));
  if (wanted.empty()) {
    return tl::unexpected(fmt::format("holds {} images; pick one with --image NAME: {}",
                                      choices.size(), fmt::join(listed, "; ")));
  }
  return tl::unexpected(
      fmt::format("no image named {}; it holds: {}", wanted, fmt::join(listed, "; ")));
}

// docker's manifest.json: the tags of each config it lists, by config file.
std::map<std::string, std::vector<std::string>> docker_tags(ImageStore& store) {
  std::map<std::string, std::vector<std::string>> out;
  if (!store.has("manifest.json")) return out;
  auto doc = store.read_json("manifest.json");
  if (!doc || !doc->is_array()) return out;
  for (const json& entry : *doc) {
    if (!entry.is_object() || !entry.value("Config", json()).is_string()) continue;
    auto& tags = out[entry["Config"].get<std::string>()];
    for (const json& tag : entry.value("RepoTags", json::array()))
      if (tag.is_string()) tags.push_back(tag.get<std::string>());
  }
  return out;
}

tl::expected<std::vector<ImageChoice>, std::string> oci_choices(ImageStore& store) {
  if (!store.has("index.json"))
    return tl::unexpected(std::string("index.json: missing; an OCI image layout needs one"));
  auto index = store.read_json("index.json");
  if (!index) return tl::unexpected(index.error());
  const json& manifests = index->value("manifests", json());
  if (!manifests.is_array()) return tl::unexpected(std::string("index.json: no manifests list"));
  std::map<std::string, std::vector<std::string>> tags = docker_tags(store);
  std::vector<ImageChoice> out;
  for (const json& descriptor : manifests) {
    std::string media_type = descriptor.value("mediaType", "");
    if (media_type.find("index") != std::string::npos ||
        media_type.find("list") != std::string::npos) {
      return tl::unexpected(fmt::format(
          "index.json: {} is an image index (several platforms); a bundle image has one manifest",
          descriptor.value("digest", "")));
    }
    ImageChoice c;
    c.digest = descriptor.value("digest", "");
    for (const char* key : {"org.opencontainers.image.ref.name", "io.containerd.image.name"}) {
      json value = descriptor.value("annotations", json::object()).value(key, json());
      if (value.is_string() &&
          std::count(c.names.begin(), c.names.end(), value.get<std::string>()) == 0)
        c.names.push_back(value.get<std::string>());
    }
    auto manifest = store.read_blob(descriptor);
    if (!manifest) return tl::unexpected(manifest.error());
    c.manifest = json::parse(*manifest, nullptr, false);
    if (!c.manifest.is_object())
      return tl::unexpected(
          fmt::format("blobs/sha256/{}: not a JSON manifest", c.digest.substr(7)));
    std::string config = c.manifest.value("config", json::object()).value("digest", "");
    if (config.starts_with("sha256:")) {
      for (const std::string& tag : tags["blobs/sha256/" + config.substr(7)])
        c.names.push_back(tag);
    }
    out.push_back(std::move(c));
  }
  return out;
}

tl::expected<std::vector<ImageChoice>, std::string> docker_choices(ImageStore& store) {
  auto doc = store.read_json("manifest.json");
  if (!doc) return tl::unexpected(doc.error());
  if (!doc->is_array()) return tl::unexpected(std::string("manifest.json: not a list of images"));
  std::vector<ImageChoice> out;
  for (const json& entry : *doc) {
    if (!entry.is_object() || !entry.value("Config", json()).is_string())
      return tl::unexpected(std::string("manifest.json: an image without Config"));
    ImageChoice c;
    c.manifest = entry;
    for (const json& tag : entry.value("RepoTags", json::array()))
      if (tag.is_string()) c.names.push_back(tag.get<std::string>());
    std::string config = entry["Config"].get<std::string>();
    auto bytes = store.read(config);
    if (!bytes) return tl::unexpected(bytes.error());
    c.digest = sha256_digest(*bytes);
    // docker names the config after its digest: `<hex>.json`, or `blobs/sha256/<hex>`.
    std::string stem = fs::path(config).stem().string();
    if (sha256_hex(stem) && c.digest != "sha256:" + stem) {
      return tl::unexpected(fmt::format(
          "{}: its content's digest is {}, not the sha256:{} its name says: the file is corrupt",
          config, c.digest, stem));
    }
    out.push_back(std::move(c));
  }
  return out;
}

// The image's config and its layers, as (media type or "", file) pairs; the OCI ones are read
// through their descriptors.
tl::expected<void, std::string> unpack(ImageStore& store, const ImageChoice& choice, bool oci,
                                       const OlmImageLimits& limits, OlmImage& out) {
  json config;
  std::vector<std::pair<json, std::string>> layers;  // descriptor (OCI), or file (docker)
  if (oci) {
    auto bytes = store.read_blob(choice.manifest.value("config", json::object()));
    if (!bytes) return tl::unexpected(bytes.error());
    config = json::parse(*bytes, nullptr, false);
    for (const json& layer : choice.manifest.value("layers", json::array()))
      layers.emplace_back(layer, "");
  } else {
    auto parsed = store.read_json(choice.manifest["Config"].get<std::string>());
    if (!parsed) return tl::unexpected(parsed.error());
    config = std::move(*parsed);
    for (const json& layer : choice.manifest.value("Layers", json::array()))
      layers.emplace_back(json(), layer.is_string() ? layer.get<std::string>() : "");
  }
  if (!config.is_object())
    return tl::unexpected(std::string("the image config is not a JSON object"));
  json labels = config.value("config", json::object()).value("Labels", json::object());
  for (const auto& [key, value] : labels.items())
    if (value.is_string()) out.labels[key] = value.get<std::string>();
  json diff_ids = config.value("rootfs", json::object()).value("diff_ids", json::array());
  if (!diff_ids.is_array() || diff_ids.size() != layers.size()) {
    return tl::unexpected(
        fmt::format("the image config lists {} layer digests (rootfs.diff_ids) for {} layers",
                    diff_ids.is_array() ? diff_ids.size() : 0, layers.size()));
  }
  BundleLayers applied;
  uint64_t unpacked = 0;
  for (size_t i = 0; i < layers.size(); ++i) {
    const auto& [descriptor, file] = layers[i];
    std::string digest = oci ? descriptor.value("digest", "") : "";
    std::string name = digest.starts_with("sha256:") ? "blobs/sha256/" + digest.substr(7) : file;
    auto blob = oci ? store.read_blob(descriptor) : store.read(file);
    if (!blob) return tl::unexpected(blob.error());
    LayerCompression compression = LayerCompression::kDetect;
    if (oci) {
      auto named = layer_compression(descriptor.value("mediaType", ""));
      if (!named) return tl::unexpected(fmt::format("{}: {}", name, named.error()));
      compression = *named;
    }
    auto tar = decompress_layer(*blob, compression, limits.max_unpacked_bytes, unpacked);
    if (!tar) return tl::unexpected(fmt::format("{}: {}", name, tar.error()));
    unpacked += tar->size();
    std::string diff_id = diff_ids[i].is_string() ? diff_ids[i].get<std::string>() : "";
    if (std::string actual = sha256_digest(*tar); actual != diff_id) {
      return tl::unexpected(fmt::format(
          "{}: the layer unpacks to digest {}, not the {} the image config lists: it is corrupt",
          name, actual, diff_id));
    }
    if (auto r = applied.apply(*tar); !r)
      return tl::unexpected(fmt::format("{}: {}", name, r.error()));
  }
  out.layers = layers.size();
  auto files = applied.files();
  if (!files) return tl::unexpected(files.error());
  out.files = std::move(*files);
  return {};
}

}  // namespace

bool is_olm_image(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return fs::is_regular_file(fs::path(path) / "oci-layout", ec);
  if (!fs::is_regular_file(path, ec)) return false;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char header[512];
  size_t n = std::fread(header, 1, sizeof header, f);
  std::fclose(f);
  return n == sizeof header && std::string_view(header + 257, 5) == "ustar";
}

tl::expected<OlmImage, std::string> read_olm_image(const std::string& path,
                                                   const std::string& image,
                                                   const OlmImageLimits& limits) {
  auto fail = [&path](const std::string& message) {
    return tl::unexpected(fmt::format("{}: {}", path, message));
  };
  ImageStore store(path, limits.max_read_bytes);
  OlmImage out;
  out.input = path;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) {
    if (auto r = store.load_tarball(); !r) return fail(r.error());
  }
  bool oci = store.has("oci-layout");
  if (store.tarball() && !oci && !store.has("manifest.json"))
    return fail("a tar without manifest.json or oci-layout: not a `docker save` tarball");
  out.format = store.tarball() ? "docker save tarball" : "OCI image layout";
  // A field of the wrong type in the image's JSON (a digest that is a number) throws.
  try {
    auto choices = oci ? oci_choices(store) : docker_choices(store);
    if (!choices) return fail(choices.error());
    auto picked = pick_image(*choices, image);
    if (!picked) return fail(picked.error());
    const ImageChoice& choice = (*choices)[*picked];
    out.digest = choice.digest;
    out.name = choice.names.empty() ? choice.digest : choice.names.front();
    if (auto r = unpack(store, choice, oci, limits, out); !r) return fail(r.error());
  } catch (const json::exception& e) {
    return fail(fmt::format("{} JSON: {}", out.format, e.what()));
  }
  return out;
}

std::vector<std::string> label_disagreements(
    const OlmImage& image, const std::map<std::string, std::string>& annotations) {
  std::set<std::string> keys;
  for (const auto& [key, value] : image.labels)
    if (key.starts_with(kBundleLabelPrefix)) keys.insert(key);
  for (const auto& [key, value] : annotations)
    if (key.starts_with(kBundleLabelPrefix)) keys.insert(key);
  std::vector<std::string> out;
  for (const std::string& key : keys) {
    auto label = image.labels.find(key);
    auto annotation = annotations.find(key);
    if (label == image.labels.end()) {
      out.push_back(
          fmt::format("metadata/annotations.yaml sets {}={}, which no label of the image "
                      "carries",
                      key, annotation->second));
    } else if (annotation == annotations.end()) {
      out.push_back(fmt::format("the image's label {}={} is not in metadata/annotations.yaml", key,
                                label->second));
    } else if (label->second != annotation->second) {
      out.push_back(fmt::format("the image's label {} is {}, metadata/annotations.yaml says {}",
                                key, label->second, annotation->second));
    }
  }
  return out;
}

}  // namespace footprint
