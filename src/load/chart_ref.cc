#include "load/chart_ref.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "load/helm.h"
#include "load/process.h"

namespace footprint {

namespace {

namespace fs = std::filesystem;

constexpr int kPullTimeoutSeconds = 300;

// The folder every pulled chart of this run goes to, one subfolder each.
const PrivateDir& pull_dir() {
  static const PrivateDir kDir;
  return kDir;
}

}  // namespace

bool is_chart_reference(const std::string& input) {
  if (input.starts_with("oci://")) return input.size() > 6;
  if (std::count(input.begin(), input.end(), '/') != 1) return false;
  size_t slash = input.find('/');
  if (slash == 0 || slash + 1 == input.size() || input.starts_with(".")) return false;
  if (input.find_first_of("=:\\") != std::string::npos) return false;
  std::string chart = input.substr(slash + 1);
  if (chart.find('.') != std::string::npos) return false;  // a file name, not a chart name
  std::error_code ec;
  return !fs::exists(input, ec);
}

tl::expected<std::string, std::string> pull_chart(const std::string& reference,
                                                  const ChartPullOptions& options) {
  std::string helm = find_helm();
  if (helm.empty()) {
    return tl::unexpected(fmt::format(
        "{} is a chart reference, and helm is not installed (or FOOTPRINT_HELM names no "
        "executable): footprint pulls charts with helm pull",
        reference));
  }
  const fs::path& root = pull_dir().path();
  if (root.empty()) {
    return tl::unexpected(
        fmt::format("cannot pull {}: cannot make a folder in the temporary folder", reference));
  }
  static int pulls = 0;
  fs::path destination = root / std::to_string(++pulls);
  std::error_code ec;
  fs::create_directory(destination, ec);
  std::vector<std::string> command = {helm, "pull", reference, "--destination",
                                      destination.string()};
  // Joined to the flag, a value never reads as one of helm's flags.
  if (!options.version.empty()) command.push_back("--version=" + options.version);
  if (!options.repo_url.empty()) command.push_back("--repo=" + options.repo_url);
  if (options.plain_http) command.emplace_back("--plain-http");
  if (!options.ca_file.empty()) command.push_back("--ca-file=" + options.ca_file);
  auto result = run_process(command, kPullTimeoutSeconds);
  if (!result) return tl::unexpected(result.error());
  if (result->timed_out) {
    return tl::unexpected(
        fmt::format("helm pull {} did not finish within {} s", reference, kPullTimeoutSeconds));
  }
  if (result->exit_code != 0) {
    std::string err = result->err;
    while (!err.empty() && (err.back() == '\n' || err.back() == ' '))
      err.pop_back();
    std::string message = fmt::format("helm pull {} failed:\n{}", reference, err);
    if (err.find("server gave HTTP response to HTTPS client") != std::string::npos) {
      message += "\nhint: the registry speaks plain HTTP: add --plain-http";
    } else if (err.find("certificate signed by unknown authority") != std::string::npos) {
      message += "\nhint: give the registry's CA with --chart-ca-file FILE";
    } else if (err.find("repo ") != std::string::npos &&
               err.find("not found") != std::string::npos) {
      message += fmt::format(
          "\nhint: {} names a repository helm does not know: `helm repo add NAME URL` first, or "
          "give a path if a local chart was meant",
          reference);
    }
    return tl::unexpected(message);
  }
  for (const auto& entry : fs::directory_iterator(destination, ec)) {
    if (entry.path().extension() == ".tgz") return entry.path().string();
  }
  return tl::unexpected(
      fmt::format("helm pull {} succeeded but wrote no chart archive", reference));
}

}  // namespace footprint
