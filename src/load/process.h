// Running the real tools footprint renders with (helm, kubectl kustomize): found on PATH or
// through an environment variable, run without a shell, with their output captured.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

namespace footprint {

struct ProcessResult {
  int exit_code = -1;
  std::string out;
  std::string err;
  bool timed_out = false;
};

// Runs args[0] (a path) with stdin from /dev/null and stdout and stderr captured, killing it
// after `timeout_seconds`.
tl::expected<ProcessResult, std::string> run_process(const std::vector<std::string>& args,
                                                     int timeout_seconds);

// The tool `$variable` names, else `name` on PATH; empty when there is none (or when the variable
// names no executable file).
std::string find_tool(const char* variable, const char* name);

// Why find_tool found nothing when the variable is set ("FOOTPRINT_HELM=x does not exist: footprint
// PURPOSE. ..."); empty when it is not set or names an executable.
std::string configured_tool_problem(const char* variable, const char* name,
                                    std::string_view purpose);

// A folder only this process can write to (mkdtemp), removed with everything in it when the
// object is destroyed. Its path is empty when it could not be made.
class PrivateDir {
 public:
  PrivateDir();
  ~PrivateDir();
  PrivateDir(const PrivateDir&) = delete;
  PrivateDir& operator=(const PrivateDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace footprint
