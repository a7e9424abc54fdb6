// The project configuration file, .footprint.yaml: default failure threshold and suppressions
// (waivers).
//
//   failOn: high
//   trustAnnotations: true          # honour footprint.dev/ignore in the input, below critical
//   ignore:
//     - check: rbac-wildcard        # a check ID, or "*"
//       kind: ClusterRole           # optional filters; name may end in "*"
//       namespace: team-a
//       name: dynamo-*
//       fingerprint: 3f0c...        # optional: one finding, as the JSON report names it
//       reason: reviewed with the platform team
//       owner: platform-team        # optional, shown when the waiver expires
//       ticket: OPS-123             # optional
//       expires: 2026-06-30         # optional, YYYY-MM-DD: waives through that day
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
  std::string fingerprint;
  std::string reason;
  std::string owner;
  std::string ticket;
  std::string expires;  // YYYY-MM-DD, or empty: never
  yaml::Position position;

  bool matches(const Finding& finding) const;
  // True when `today` (YYYY-MM-DD) is after `expires`; the ISO format sorts as text.
  bool expired(std::string_view today) const { return !expires.empty() && today > expires; }
};

struct Config {
  std::string path;  // empty when no file was found
  std::optional<Severity> fail_on;
  std::vector<IgnoreRule> ignore;
  // Honour the footprint.dev/ignore annotations of the input (trustAnnotations, or the CLI's
  // --trust-annotations) for findings below critical. By default the input cannot suppress its
  // own findings: whoever wrote the chart may want it approved.
  bool trust_annotations = false;
  // The date waivers expire against, YYYY-MM-DD; empty: none expires. The CLI sets it from the
  // clock (today_utc), so the library itself never reads the time.
  std::string today;
};

// True for a calendar date written YYYY-MM-DD.
bool valid_date(std::string_view date);

constexpr const char* kConfigFileName = ".footprint.yaml";

tl::expected<Config, LoadError> parse_config(const std::string& path, std::string_view text);
// Reads `path`; when `path` is empty, reads .footprint.yaml from the current directory if present.
tl::expected<Config, LoadError> load_config(const std::string& path);

}  // namespace footprint
