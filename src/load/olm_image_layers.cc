#include "load/olm_image_layers.h"

#include <archive.h>
#include <archive_entry.h>
#include <fmt/format.h>

#include <memory>

#include "load/registry.h"

namespace footprint {

namespace {

constexpr std::string_view kWhiteoutPrefix = ".wh.";
constexpr std::string_view kOpaqueMarker = ".wh..wh..opq";
constexpr int kMaxLinkHops = 8;

using ArchivePtr = std::unique_ptr<archive, decltype(&archive_read_free)>;

ArchivePtr new_reader() {
  return {archive_read_new(), &archive_read_free};
}

std::string archive_message(archive* a) {
  const char* text = archive_error_string(a);
  return text ? text : "unreadable";
}

// `path` relative to the image's root, "." and empty components dropped; nullopt when it climbs
// out of the root. A leading "/" means the root, as in a container's file system.
std::optional<std::string> image_entry_path(std::string_view path, std::string_view base = "") {
  std::vector<std::string_view> parts;
  auto add = [&parts](std::string_view text) {
    size_t pos = 0;
    while (pos <= text.size()) {
      size_t slash = text.find('/', pos);
      if (slash == std::string_view::npos) slash = text.size();
      std::string_view part = text.substr(pos, slash - pos);
      pos = slash + 1;
      if (part.empty() || part == ".") continue;
      if (part == "..") {
        if (parts.empty()) return false;
        parts.pop_back();
        continue;
      }
      parts.push_back(part);
    }
    return true;
  };
  if (!path.starts_with('/') && !add(base)) return std::nullopt;
  if (!add(path)) return std::nullopt;
  std::string out;
  for (std::string_view part : parts) {
    if (!out.empty()) out += '/';
    out.append(part);
  }
  return out;
}

// What OLM reads of a bundle image: manifests/ and metadata/, and the folders themselves.
bool bundle_path(std::string_view path) {
  for (std::string_view top : {"manifests", "metadata"}) {
    if (path == top ||
        (path.starts_with(top) && path.size() > top.size() && path[top.size()] == '/'))
      return true;
  }
  return false;
}

}  // namespace

tl::expected<LayerCompression, std::string> layer_compression(std::string_view media_type) {
  for (std::string_view tar : {"application/vnd.oci.image.layer.v1.tar",
                               "application/vnd.oci.image.layer.nondistributable.v1.tar"}) {
    if (media_type == tar) return LayerCompression::kNone;
    if (media_type.starts_with(tar) && media_type.substr(tar.size()) == "+gzip")
      return LayerCompression::kGzip;
    if (media_type.starts_with(tar) && media_type.substr(tar.size()) == "+zstd")
      return LayerCompression::kZstd;
  }
  if (media_type == "application/vnd.docker.image.rootfs.diff.tar.gzip" ||
      media_type == "application/vnd.docker.image.rootfs.foreign.diff.tar.gzip")
    return LayerCompression::kGzip;
  return tl::unexpected(fmt::format("media type {} is not a tar layer", media_type));
}

std::string sha256_digest(std::string_view bytes) {
  return digest_of(bytes, "sha256");
}

tl::expected<std::string, std::string> decompress_layer(std::string_view blob,
                                                        LayerCompression compression,
                                                        uint64_t max_bytes, uint64_t before) {
  auto too_large = [max_bytes] {
    return tl::unexpected(fmt::format(
        "unpacks to more than {} bytes (the limit for a bundle image's layers together)",
        max_bytes));
  };
  if (compression == LayerCompression::kNone) {
    if (before + blob.size() > max_bytes) return too_large();
    return std::string(blob);
  }
  ArchivePtr a = new_reader();
  if (compression != LayerCompression::kZstd) archive_read_support_filter_gzip(a.get());
  if (compression != LayerCompression::kGzip) archive_read_support_filter_zstd(a.get());
  archive_read_support_format_raw(a.get());
  archive_entry* entry = nullptr;
  if (archive_read_open_memory(a.get(), blob.data(), blob.size()) != ARCHIVE_OK ||
      archive_read_next_header(a.get(), &entry) != ARCHIVE_OK) {
    return tl::unexpected(fmt::format("cannot decompress: {}", archive_message(a.get())));
  }
  if (compression != LayerCompression::kDetect && archive_filter_count(a.get()) < 2) {
    return tl::unexpected(std::string("its media type says compressed, but it is not"));
  }
  std::string out;
  char buffer[1 << 16];
  for (;;) {
    la_ssize_t n = archive_read_data(a.get(), buffer, sizeof buffer);
    if (n < 0)
      return tl::unexpected(fmt::format("cannot decompress: {}", archive_message(a.get())));
    if (n == 0) break;
    out.append(buffer, static_cast<size_t>(n));
    if (before + out.size() > max_bytes) return too_large();
  }
  return out;
}

void BundleLayers::remove_tree(const std::string& path) {
  if (path.empty()) {
    entries_.clear();
    return;
  }
  entries_.erase(path);
  std::string prefix = path + "/";
  for (auto it = entries_.lower_bound(prefix);
       it != entries_.end() && it->first.starts_with(prefix);)
    it = entries_.erase(it);
}

tl::expected<void, std::string> BundleLayers::apply(std::string_view tar) {
  ArchivePtr a = new_reader();
  archive_read_support_format_tar(a.get());
  if (archive_read_open_memory(a.get(), tar.data(), tar.size()) != ARCHIVE_OK)
    return tl::unexpected(fmt::format("not a tar: {}", archive_message(a.get())));
  // A layer's whiteouts hide the layers below it, never its own entries: they apply first.
  std::vector<std::pair<std::string, Entry>> added;
  std::vector<std::string> removed;
  archive_entry* entry = nullptr;
  for (;;) {
    int rc = archive_read_next_header(a.get(), &entry);
    if (rc == ARCHIVE_EOF) break;
    if (rc < ARCHIVE_WARN)
      return tl::unexpected(fmt::format("not a tar: {}", archive_message(a.get())));
    const char* raw = archive_entry_pathname(entry);
    std::string_view name = raw ? raw : "";
    std::optional<std::string> path = image_entry_path(name);
    if (!path) return tl::unexpected(fmt::format("entry {} climbs out of the image's root", name));
    if (path->empty()) continue;
    std::string_view file = *path;
    size_t slash = path->rfind('/');
    std::string dir = slash == std::string::npos ? "" : path->substr(0, slash);
    file.remove_prefix(slash == std::string::npos ? 0 : slash + 1);
    if (file == kOpaqueMarker) {
      removed.push_back(dir.empty() ? "" : dir + "/");
      continue;
    }
    if (file.starts_with(kWhiteoutPrefix)) {
      std::string target = *path;  // the path without the file name's ".wh."
      target.erase(slash == std::string::npos ? 0 : slash + 1, kWhiteoutPrefix.size());
      removed.push_back(std::move(target));
      continue;
    }
    if (!bundle_path(*path)) continue;
    Entry e;
    if (const char* hardlink = archive_entry_hardlink(entry)) {
      std::optional<std::string> target = image_entry_path(hardlink);
      if (!target)
        return tl::unexpected(fmt::format("hard link {} climbs out of the image's root", name));
      e.kind = Entry::Kind::kHardlink;
      e.data = std::move(*target);
    } else if (archive_entry_filetype(entry) == AE_IFLNK) {
      e.kind = Entry::Kind::kSymlink;
      const char* target = archive_entry_symlink(entry);
      e.data = target ? target : "";
    } else if (archive_entry_filetype(entry) == AE_IFDIR) {
      e.kind = Entry::Kind::kDirectory;
    } else if (archive_entry_filetype(entry) == AE_IFREG) {
      char buffer[1 << 16];
      for (;;) {
        la_ssize_t n = archive_read_data(a.get(), buffer, sizeof buffer);
        if (n < 0) return tl::unexpected(fmt::format("{}: {}", name, archive_message(a.get())));
        if (n == 0) break;
        e.data.append(buffer, static_cast<size_t>(n));
      }
    } else {
      continue;  // devices and fifos: nothing OLM reads
    }
    added.emplace_back(std::move(*path), std::move(e));
  }
  for (const std::string& path : removed) {
    if (path.empty() || path.ends_with('/')) {
      std::string dir = path.empty() ? "" : path.substr(0, path.size() - 1);
      bool keep_dir = entries_.count(dir) != 0;
      Entry kept = keep_dir ? entries_[dir] : Entry{};
      remove_tree(dir);
      if (keep_dir) entries_[dir] = std::move(kept);
    } else {
      remove_tree(path);
    }
  }
  for (auto& [path, e] : added) {
    // A file replaces a folder of the layers below, and a folder a file.
    if (e.kind != Entry::Kind::kDirectory) remove_tree(path);
    entries_[path] = std::move(e);
  }
  return {};
}

tl::expected<std::string, std::string> BundleLayers::resolve(const std::string& path) const {
  std::string at = path;
  std::string target;  // the last link's target, as written
  for (int hop = 0; hop <= kMaxLinkHops; ++hop) {
    auto it = entries_.find(at);
    if (it == entries_.end() || it->second.kind == Entry::Kind::kDirectory) {
      return tl::unexpected(fmt::format(
          "{} is a link to {}, which is not a file under manifests/ or metadata/ of the image",
          path, target));
    }
    const Entry& e = it->second;
    if (e.kind == Entry::Kind::kFile) return e.data;
    target = e.data;
    std::optional<std::string> next = e.data;
    if (e.kind == Entry::Kind::kSymlink) {
      size_t slash = at.rfind('/');
      next = image_entry_path(e.data, slash == std::string::npos ? "" : at.substr(0, slash));
    }
    if (!next) {
      return tl::unexpected(
          fmt::format("{} is a symlink to {}, which leads out of the image", path, e.data));
    }
    at = std::move(*next);
  }
  return tl::unexpected(fmt::format("{}: more than {} links in a row", path, kMaxLinkHops));
}

tl::expected<std::vector<std::pair<std::string, std::string>>, std::string> BundleLayers::files()
    const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [path, e] : entries_) {
    if (e.kind == Entry::Kind::kDirectory) continue;
    // A link may name a folder (`manifests -> /elsewhere`); only what OLM reads must resolve.
    auto text = resolve(path);
    if (!text) return tl::unexpected(text.error());
    out.emplace_back(path, std::move(*text));
  }
  return out;
}

}  // namespace footprint
