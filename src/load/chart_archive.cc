#include "load/chart_archive.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace footprint {

namespace {

constexpr size_t kBlock = 512;
constexpr uint64_t kMaxArchiveBytes = uint64_t{64} << 20;
constexpr size_t kMaxUnpackedBytes = size_t{512} << 20;
constexpr int kMaxNesting = 3;  // subchart archives inside charts/

tl::expected<std::string, std::string> gunzip(std::string_view data) {
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return tl::unexpected(std::string("zlib failed"));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char buffer[1 << 16];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    zs.next_out = reinterpret_cast<Bytef*>(buffer);
    zs.avail_out = sizeof buffer;
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      inflateEnd(&zs);
      return tl::unexpected(std::string("not a gzip-compressed file, or a damaged one"));
    }
    out.append(buffer, sizeof buffer - zs.avail_out);
    if (out.size() > kMaxUnpackedBytes) {
      inflateEnd(&zs);
      return tl::unexpected(fmt::format("unpacks to more than {} bytes", kMaxUnpackedBytes));
    }
    if (rc == Z_OK && zs.avail_in == 0 && zs.avail_out != 0) {
      inflateEnd(&zs);
      return tl::unexpected(std::string("the gzip stream is cut short"));
    }
  }
  inflateEnd(&zs);
  return out;
}

std::string field(std::string_view header, size_t at, size_t length) {
  std::string_view f = header.substr(at, length);
  return std::string(f.substr(0, f.find('\0')));
}

tl::expected<uint64_t, std::string> octal(std::string_view header, size_t at, size_t length) {
  uint64_t value = 0;
  for (char c : header.substr(at, length)) {
    if (c == '\0' || c == ' ') continue;
    if (c < '0' || c > '7') return tl::unexpected(std::string("a tar header has a bad size"));
    value = value * 8 + static_cast<uint64_t>(c - '0');
  }
  return value;
}

// The path of a pax extended header's "path" record, if any.
std::string pax_path(std::string_view body) {
  while (!body.empty()) {
    size_t space = body.find(' ');
    if (space == std::string_view::npos) break;
    size_t length = 0;
    for (char c : body.substr(0, space))
      length = length * 10 + static_cast<size_t>(c - '0');
    if (length == 0 || length > body.size()) break;
    std::string_view record = body.substr(space + 1, length - space - 2);  // minus "\n"
    if (record.starts_with("path=")) return std::string(record.substr(5));
    body.remove_prefix(length);
  }
  return "";
}

// A chart's own file: <chart>/<file>, or <chart>/charts/<sub>/<file>, and so on down.
bool is_chart_level(const std::vector<std::string_view>& dirs) {
  if (dirs.size() % 2 == 0) return false;
  for (size_t i = 1; i < dirs.size(); i += 2) {
    if (dirs[i] != "charts") return false;
  }
  return true;
}

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> parts;
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t slash = path.find('/', pos);
    if (slash == std::string_view::npos) slash = path.size();
    if (slash > pos) parts.push_back(path.substr(pos, slash - pos));
    pos = slash + 1;
  }
  return parts;
}

tl::expected<void, std::string> read_tar(std::string_view tar, const std::string& prefix, int depth,
                                         std::vector<ChartFile>& out) {
  size_t offset = 0;
  std::string long_name;
  while (offset + kBlock <= tar.size()) {
    std::string_view header = tar.substr(offset, kBlock);
    if (std::all_of(header.begin(), header.end(), [](char c) { return c == '\0'; })) break;
    auto size = octal(header, 124, 12);
    if (!size) return tl::unexpected(size.error());
    char type = header[156];
    std::string name = field(header, 0, 100);
    if (header.substr(257, 5) == "ustar") {
      std::string before = field(header, 345, 155);
      if (!before.empty()) name.insert(0, before + "/");
    }
    if (!long_name.empty()) {
      name = long_name;
      long_name.clear();
    }
    size_t body_at = offset + kBlock;
    if (*size > tar.size() - body_at)
      return tl::unexpected(std::string("the tar stream is cut short"));
    std::string_view body = tar.substr(body_at, *size);
    offset = body_at + (*size + kBlock - 1) / kBlock * kBlock;
    if (type == 'L') {
      long_name = std::string(body.substr(0, body.find('\0')));
      continue;
    }
    if (type == 'x') {
      long_name = pax_path(body);
      continue;
    }
    if (type != '0' && type != '\0') continue;
    std::vector<std::string_view> parts = split_path(name);
    if (parts.empty()) continue;
    std::string_view file = parts.back();
    parts.pop_back();
    if (!is_chart_level(parts) &&
        !(file.ends_with(".tgz") && parts.size() >= 2 && parts.back() == "charts")) {
      continue;
    }
    if (file == "Chart.yaml" || file == "values.yaml") {
      out.push_back({prefix + name, std::string(body)});
    } else if (file.ends_with(".tgz") && depth < kMaxNesting) {
      auto inner = gunzip(body);
      if (!inner) return tl::unexpected(fmt::format("{}: {}", name, inner.error()));
      std::string dir = name.substr(0, name.rfind('/') + 1);
      if (auto r = read_tar(*inner, prefix + dir, depth + 1, out); !r) return r;
    }
  }
  return {};
}

}  // namespace

tl::expected<std::vector<ChartFile>, std::string> chart_files_from_tgz(std::string_view data) {
  auto tar = gunzip(data);
  if (!tar) return tl::unexpected(tar.error());
  std::vector<ChartFile> files;
  if (auto r = read_tar(*tar, "", 0, files); !r) return tl::unexpected(r.error());
  if (std::none_of(files.begin(), files.end(), [](const ChartFile& f) {
        return f.path.ends_with("/Chart.yaml") && split_path(f.path).size() == 2;
      })) {
    return tl::unexpected(
        std::string("no <chart>/Chart.yaml inside; is this a `helm package` archive?"));
  }
  return files;
}

tl::expected<ChartArchive, std::string> read_chart_archive(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return tl::unexpected(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  std::string data;
  char buffer[1 << 16];
  while (!std::feof(f) && data.size() <= kMaxArchiveBytes) {
    size_t n = std::fread(buffer, 1, sizeof buffer, f);
    if (std::ferror(f)) {
      std::string reason = std::strerror(errno);
      std::fclose(f);
      return tl::unexpected(fmt::format("{}: cannot read: {}", path, reason));
    }
    data.append(buffer, n);
  }
  std::fclose(f);
  if (data.size() > kMaxArchiveBytes) {
    return tl::unexpected(
        fmt::format("{}: larger than {} bytes; not a chart archive", path, kMaxArchiveBytes));
  }
  auto files = chart_files_from_tgz(data);
  if (!files) return tl::unexpected(fmt::format("{}: {}", path, files.error()));
  return ChartArchive{path, data.size(), std::move(*files)};
}

}  // namespace footprint
