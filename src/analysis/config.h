// The project configuration file, .footprint.yaml: default failure threshold and suppressions.
//
//   failOn: high
//   ignore:
//     - check: rbac-wildcard        # a check ID, or "*"
//       kind: ClusterRole           # optional filters; name may end in "*"
//       namespace: team-a
//       name: dynamo-*
//       reason: reviewed with the platform team
#pragma once

#include <optional>
#include <string>
#include <tl/expected.hpp>
#include <vector>

#include "analysis/finding.h"
#include "load/loader.h"

namespace footprint {

struct IgnoreRule {
  std::string check;
  std::string kind;
  std::string namespace_;
  std::string name;
  std::string reason;
  yaml::Position position;

  bool matches(const Finding& finding) const;
};

struct Config {
  std::string path;  // empty when no file was found
  std::optional<Severity> fail_on;
  std::vector<IgnoreRule> ignore;
};

constexpr const char* kConfigFileName = ".footprint.yaml";

tl::expected<Config, LoadError> parse_config(const std::string& path, std::string_view text);
// Reads `path`; when `path` is empty, reads .footprint.yaml from the current directory if present.
tl::expected<Config, LoadError> load_config(const std::string& path);

}  // namespace footprint
