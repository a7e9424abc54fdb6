#include "cli/output.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>
#include <tl/expected.hpp>
#include <utility>

#include "cli/common.h"
#include "util/display_text.h"
#include "util/files.h"

namespace footprint {

namespace {

namespace fs = std::filesystem;

mode_t current_umask() {
  mode_t mask = umask(0);
  umask(mask);
  return mask;
}

// The permissions a new file gets, or those of the file it replaces.
mode_t mode_for(const std::string& path, bool executable) {
  struct stat st {};
  mode_t mode = stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : (0666 & ~current_umask());
  if (executable) mode |= (mode & 0444) >> 2;
  return mode;
}

bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    text.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// The bytes `file` is written as: display_text() of text, data as it is, not copied (a JSON
// report of a cluster's objects is hundreds of megabytes).
class Written {
 public:
  explicit Written(const OutputFile& file)
      : shown_(file.content == Content::kText ? display_text(file.text) : std::string()),
        bytes_(file.content == Content::kText ? std::string_view(shown_)
                                              : std::string_view(file.text)) {}
  Written(const Written&) = delete;
  Written& operator=(const Written&) = delete;
  std::string_view bytes() const { return bytes_; }

 private:
  std::string shown_;
  std::string_view bytes_;
};

// Writes `file` to a new temporary file beside `destination`, the regular file it is to replace
// (or create); returns the temporary file's path, or an error.
tl::expected<std::string, std::string> write_temporary(const OutputFile& file,
                                                       const std::string& destination) {
  fs::path target(destination);
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string pattern = (dir / ("." + target.filename().string() + ".footprint-XXXXXX")).string();
  int fd = mkstemp(pattern.data());
  if (fd < 0) return tl::unexpected(fmt::format("cannot write {}: {}", file.path, strerror(errno)));
  bool ok = write_all(fd, Written(file).bytes()) &&
            fchmod(fd, mode_for(destination, file.executable)) == 0 && fsync(fd) == 0;
  int saved = errno;
  ok = close(fd) == 0 && ok;
  if (!ok) {
    unlink(pattern.c_str());
    return tl::unexpected(fmt::format("cannot write {}: {}", file.path, strerror(saved)));
  }
  return pattern;
}

// Writes into a device, a pipe or an open descriptor as it is: replacing it with a regular file
// would destroy it (a rename over /dev/null) or leave its reader with nothing.
bool write_through(const OutputFile& file, const WriteTarget& target, std::string& error) {
  std::fflush(stdout);  // what was printed before comes first on a shared descriptor
  bool opened = target.kind == WriteTarget::Kind::kSpecial;
  int fd = opened ? open(target.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC) : target.descriptor;
  bool ok = fd >= 0 && write_all(fd, Written(file).bytes());
  int saved = errno;
  if (opened && fd >= 0) ok = close(fd) == 0 && ok;
  if (!ok) error = fmt::format("cannot write {}: {}", file.path, strerror(saved));
  return ok;
}

// Creates the missing directories above `path`, outermost first, recording each one created.
bool create_parents(const fs::path& path, std::vector<fs::path>& created, std::string& error) {
  fs::path parent = path.parent_path();
  if (parent.empty()) return true;
  std::vector<fs::path> missing;
  std::error_code ec;
  for (fs::path p = parent; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (!fs::create_directory(*it, ec) && ec) {
      error = fmt::format("cannot create {}: {}", it->string(), ec.message());
      return false;
    }
    created.push_back(*it);
  }
  if (!fs::is_directory(parent, ec)) {
    error = fmt::format("cannot write {}: {} is not a directory", path.string(), parent.string());
    return false;
  }
  return true;
}

// True when `path` is the regular file standard input reads (`< file`): same device and inode.
// Only a regular file can be destroyed by writing over it.
bool is_file_on_stdin(const std::string& path) {
  struct stat in {};
  struct stat out {};
  return fstat(STDIN_FILENO, &in) == 0 && S_ISREG(in.st_mode) && stat(path.c_str(), &out) == 0 &&
         in.st_dev == out.st_dev && in.st_ino == out.st_ino;
}

}  // namespace

std::optional<std::string> output_clash(const std::string& output,
                                        const std::vector<std::string>& inputs) {
  if (output.empty() || output == "-") return std::nullopt;
  std::error_code ec;
  if (!fs::exists(output, ec)) return std::nullopt;
  for (const std::string& input : inputs) {
    if (input == "-" || input == "<stdin>") {
      if (is_file_on_stdin(output)) {
        return fmt::format(
            "{} is the file on standard input, one of the inputs; refusing to write over it: "
            "choose another output path",
            output);
      }
      continue;
    }
    if (input.empty()) continue;
    if (fs::equivalent(output, input, ec)) {
      return fmt::format(
          "{} is one of the inputs{}; refusing to write over it: choose another output path",
          output, input == output ? "" : fmt::format(" ({})", input));
    }
  }
  return std::nullopt;
}

bool write_files(const std::vector<OutputFile>& files) {
  std::vector<fs::path> created;
  std::vector<std::string> temporaries;  // beside each regular destination, "" for the others
  std::vector<std::string> destinations(files.size());
  std::string error;
  auto undo = [&] {
    for (const std::string& t : temporaries)
      if (!t.empty()) unlink(t.c_str());
    std::error_code ec;
    for (auto it = created.rbegin(); it != created.rend(); ++it)
      fs::remove(*it, ec);  // only removes what is still empty
    print_error(error);
    return false;
  };
  std::vector<std::pair<const OutputFile*, WriteTarget>> through;
  for (size_t i = 0; i < files.size(); ++i) {
    const OutputFile& file = files[i];
    WriteTarget target = write_target(file.path);
    if (target.kind == WriteTarget::Kind::kDirectory) {
      error = fmt::format("cannot write {}: it is a directory", file.path);
      return undo();
    }
    if (target.kind == WriteTarget::Kind::kSpecial ||
        target.kind == WriteTarget::Kind::kDescriptor) {
      through.emplace_back(&file, std::move(target));
      temporaries.emplace_back();
      continue;
    }
    if (!create_parents(fs::path(target.path), created, error)) return undo();
    auto temporary = write_temporary(file, target.path);
    if (!temporary) {
      error = temporary.error();
      return undo();
    }
    temporaries.push_back(std::move(*temporary));
    destinations[i] = std::move(target.path);
  }
  for (const auto& [file, target] : through)
    if (!write_through(*file, target, error)) return undo();
  // Renaming is what cannot half-fail in practice: every file is already on disk beside its
  // destination, on the same file system.
  for (size_t i = 0; i < files.size(); ++i) {
    if (temporaries[i].empty()) continue;
    if (std::rename(temporaries[i].c_str(), destinations[i].c_str()) != 0) {
      error = fmt::format("cannot write {}: {}", files[i].path, strerror(errno));
      temporaries.erase(temporaries.begin(), temporaries.begin() + static_cast<long>(i));
      return undo();
    }
  }
  return true;
}

bool check_not_replacing(const std::vector<OutputFile>& files) {
  for (const OutputFile& file : files) {
    std::error_code ec;
    // A directory in the way, or nothing there: write_files() reports or creates it.
    if (!fs::is_regular_file(file.path, ec)) continue;
    std::ifstream in(file.path, std::ios::binary);
    std::string current((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.bad() && current == Written(file).bytes()) continue;
    print_error(
        fmt::format("{} exists and would be replaced; footprint writes over it only with "
                    "--force",
                    file.path));
    return false;
  }
  return true;
}

bool write_output(std::string text, const std::string& path, Content content) {
  OutputFile file{path, std::move(text), false, content};
  if (path.empty() || path == "-") {
    Written written(file);
    std::fwrite(written.bytes().data(), 1, written.bytes().size(), stdout);
    if (std::fflush(stdout) != 0) {
      print_error("cannot write to standard output");
      return false;
    }
    return true;
  }
  std::vector<OutputFile> files;  // not from a braced list, which would copy the text
  files.push_back(std::move(file));
  return write_files(files);
}

void print_stderr(std::string_view text) {
  std::string shown = display_text(text);
  std::fwrite(shown.data(), 1, shown.size(), stderr);
}

}  // namespace footprint
