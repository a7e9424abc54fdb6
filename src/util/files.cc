#include "util/files.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <charconv>
#include <filesystem>
#include <string_view>

namespace footprint {

namespace fs = std::filesystem;

namespace {

// Follows a chain of symlinks that ends nowhere, so a write creates the file they name, as a
// shell redirection does. Gives up after as many hops as Linux does (ELOOP).
std::string dangling_end(fs::path path) {
  constexpr int kMaxHops = 40;
  std::error_code ec;
  for (int hop = 0; hop < kMaxHops && fs::is_symlink(fs::symlink_status(path, ec)); ++hop) {
    fs::path next = fs::read_symlink(path, ec);
    if (ec) break;
    path = next.is_absolute() ? next : path.parent_path() / next;
  }
  return path.lexically_normal().string();
}

// The descriptor a name like /dev/stdout or /dev/fd/3 stands for, when this process has it open.
int descriptor_named(std::string_view path) {
  int fd = -1;
  if (path == "/dev/stdout") {
    fd = 1;
  } else if (path == "/dev/stderr") {
    fd = 2;
  } else {
    for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"}) {
      if (!path.starts_with(prefix)) continue;
      std::string_view number = path.substr(prefix.size());
      auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), fd);
      if (error != std::errc() || end != number.data() + number.size()) fd = -1;
    }
  }
  return fd >= 0 && fcntl(fd, F_GETFD) != -1 ? fd : -1;
}

}  // namespace

WriteTarget write_target(const std::string& path) {
  if (int fd = descriptor_named(path); fd >= 0) return {path, WriteTarget::Kind::kDescriptor, fd};
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    struct stat link {};
    bool dangling = lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode);
    return {dangling ? dangling_end(path) : path, WriteTarget::Kind::kMissing};
  }
  if (S_ISDIR(st.st_mode)) return {path, WriteTarget::Kind::kDirectory};
  if (!S_ISREG(st.st_mode)) return {path, WriteTarget::Kind::kSpecial};
  std::error_code ec;
  fs::path real = fs::canonical(path, ec);
  return {ec ? path : real.string(), WriteTarget::Kind::kRegular};
}

}  // namespace footprint
