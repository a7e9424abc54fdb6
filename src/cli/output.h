// Writing outputs without destroying inputs. A regular file is written to a temporary file in
// its directory and renamed into place, so a reader never sees half a file and a failure leaves
// the old one; a symlink is followed to the file it leads to, and a device, a pipe or an open
// descriptor (/dev/null, a fifo, /dev/stdout, <(...)) is written through, never replaced. An
// output that is one of the command's inputs is refused.
//
// Everything footprint shows a reader leaves through here: text (reports, messages on stderr)
// passes display_text() (util/display_text.h), so no string from the input reaches a terminal
// raw; data another program parses (JSON, SARIF, manifests, scripts) is written as it is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace footprint {

enum class Content : uint8_t { kText, kData };

struct OutputFile {
  std::string path;
  std::string text;
  bool executable = false;  // add execute permission where read permission is given
  Content content = Content::kData;
};

// An error message when `output` is the same file as one of `inputs`, compared by real path, so
// `./x.yaml`, a symlink or a hard link to an input all count; for the input "-", the regular file
// behind standard input counts. Inputs that are directories are
// compared as they are (an output cannot be a directory).
std::optional<std::string> output_clash(const std::string& output,
                                        const std::vector<std::string>& inputs);

// For files footprint names inside a directory the user gives (-o DIR): false, after printing an
// error that names --force, when one of them exists with other content, so a rerun never
// silently replaces a file the user edited. A file with exactly the new content is no change.
bool check_not_replacing(const std::vector<OutputFile>& files);

// Writes all files or none: each regular file goes to a temporary file beside its destination
// first, then devices and pipes are written through, and only when every one is written are the
// regular files renamed into place. Missing directories are created, and
// removed again when something fails. Returns false after printing an error.
bool write_files(const std::vector<OutputFile>& files);

// Writes `text` to stdout when `path` is empty or "-", else to `path` as write_files() does.
// Returns false after printing an error.
bool write_output(std::string text, const std::string& path, Content content);

// Writes text to standard error, through display_text(): every message, error and note.
void print_stderr(std::string_view text);

}  // namespace footprint
