// Where a write to a path really lands, so that writers replace regular files atomically but
// never replace a device, a pipe or a symlink with a regular file.
#pragma once

#include <cstdint>
#include <string>

namespace footprint {

struct WriteTarget {
  enum class Kind : uint8_t {
    kMissing,     // nothing there yet: a new regular file
    kRegular,     // an existing regular file: replace it through a temporary file and a rename
    kDirectory,   // cannot be written
    kSpecial,     // a device, a pipe or a socket (/dev/null, a fifo): open it and write through
    kDescriptor,  // /dev/stdout, /dev/fd/N, <(...): write to the open descriptor, so its offset
                  // and O_APPEND are kept even when it is a regular file
  };
  // The file to write: through symlinks for a regular or missing file, so a rename replaces the
  // file a symlink leads to and not the symlink; unchanged for a special file, whose name may
  // only mean something to this process (/dev/fd/3).
  std::string path;
  Kind kind = Kind::kMissing;
  int descriptor = -1;  // for kDescriptor
};

WriteTarget write_target(const std::string& path);

}  // namespace footprint
