#include "load/process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace footprint {

namespace fs = std::filesystem;

tl::expected<ProcessResult, std::string> run_process(const std::vector<std::string>& args,
                                                     int timeout_seconds) {
  int out_pipe[2];
  int err_pipe[2];
  if (pipe(out_pipe) != 0) return tl::unexpected(std::string("cannot create a pipe"));
  if (pipe(err_pipe) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return tl::unexpected(std::string("cannot create a pipe"));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, out_pipe[0]);
  posix_spawn_file_actions_addclose(&actions, err_pipe[0]);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> argv;
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, args[0].c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (spawned != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    return tl::unexpected(fmt::format("cannot run {}: {}", args[0], std::strerror(spawned)));
  }
  ProcessResult result;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_fds = 2;
  char buffer[1 << 16];
  while (open_fds > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      kill(pid, SIGKILL);
      result.timed_out = true;
      break;
    }
    if (poll(fds, 2, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (const pollfd& f : fds) {
    if (f.fd >= 0) close(f.fd);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

namespace {

bool executable(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::string find_tool(const char* variable, const char* name) {
  if (const char* configured = std::getenv(variable); configured && *configured) {
    return executable(configured) ? configured : "";
  }
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t colon = dirs.find(':', start);
    std::string_view dir =
        dirs.substr(start, colon == std::string_view::npos ? colon : colon - start);
    if (!dir.empty() && executable(fs::path(dir) / name)) return (fs::path(dir) / name).string();
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  return "";
}

std::string configured_tool_problem(const char* variable, const char* name,
                                    std::string_view purpose) {
  const char* configured = std::getenv(variable);
  if (!configured || !*configured || executable(configured)) return "";
  std::error_code ec;
  return fmt::format(
      "{}={} {}: footprint {}. Set {} to the {} binary's path, or unset it to use {} from PATH",
      variable, configured,
      fs::exists(configured, ec) ? "is not an executable file" : "does not exist", purpose,
      variable, name, name);
}

PrivateDir::PrivateDir() {
  std::error_code ec;
  std::string pattern = (fs::temp_directory_path(ec) / "footprint-XXXXXX").string();
  if (mkdtemp(pattern.data())) path_ = pattern;
}

PrivateDir::~PrivateDir() {
  std::error_code ec;
  if (!path_.empty()) fs::remove_all(path_, ec);
}

}  // namespace footprint
