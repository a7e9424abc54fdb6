// A finding: what a check found about one object, what it means for the cluster, how to fix it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "load/yaml.h"
#include "model/object.h"

namespace footprint {

enum class Severity : uint8_t { kInfo, kLow, kMedium, kHigh, kCritical };

std::string_view severity_name(Severity severity);  // "info" ... "critical"
std::optional<Severity> parse_severity(std::string_view name);

// What a finding's consequence reaches. Within one severity, reports show findings in this
// order: what reaches other teams first, then what stops the install from working, then the
// power the install holds, then tidiness.
enum class Impact : uint8_t { kOtherTeams, kInstall, kPrivilege, kHygiene };

std::string_view impact_name(Impact impact);  // "other teams", "install", ...

constexpr uint32_t kNoObject = UINT32_MAX;

// "a, b, c and 4 more": names for a message, while the whole list goes to Finding::affects.
std::string some_of(const std::vector<std::string>& names, size_t shown = 3);

struct Finding {
  std::string check;
  Severity severity = Severity::kInfo;
  Impact impact = Impact::kHygiene;  // the check's
  ObjectId object;
  uint32_t object_index = 0;  // kNoObject when the finding is not about a bundle object
  std::string file;
  yaml::Position position;
  std::string helm_template;
  std::string message;      // the consequence for the cluster, in plain words
  std::string remediation;  // a concrete fix
  // The consequence in one line, for the report's first screen ("A mutating webhook sees every
  // pod created in 6 of 6 namespaces").
  std::string summary;
  // One finding stands for one root cause; what it covers is listed here by kind, such as
  // {"webhooks", [...]}, {"namespaces", [...]}, {"rules", [...]}. JSON keeps the full lists.
  std::vector<std::pair<std::string, std::vector<std::string>>> affects;
  // What tells this claim apart from the check's other findings about the same object, for the
  // fingerprint (analysis/fingerprint.h): by default where the node the finding points at sits in
  // the object (keys, and list items by name or content: "spec.template.spec.containers[app]"),
  // empty when it points at the whole object. A check that reports several claims from one node
  // adds what tells them apart (a resource, a subject); image checks name the repository.
  std::string key;
  // What the finding is about when several objects share it and it is reported once against the
  // first of them: a subject of several bindings ("ServiceAccount ops/op"), an image repository,
  // an API group. The fingerprint uses it in place of that object, whose choice follows document
  // order. Set it with about_shared().
  std::string about;
  bool suppressed = false;
  // Present in the --baseline report at this severity or a higher one: it does not reach
  // --fail-on. A finding whose severity rose since is not known: it is "worse".
  bool known = false;
  // The severity the --baseline report (or diff's OLD side) gave this finding, when it differs:
  // "worse" when it rose, "better" when it fell.
  std::optional<Severity> severity_before;
  std::string suppressed_by;  // "annotation" or the config file's path
  std::string suppression_reason;
  // The reason a footprint.dev/ignore annotation in the input gives ("" for none) when it asks to
  // suppress this finding and is not honoured: the chart under review does not decide its own
  // verdict, so the finding is reported and counts for --fail-on, marked with the request.
  std::optional<std::string> suppression_request;
};

// Makes `f` about `identity` rather than the object it is reported against, and drops the key
// that located it in that object; returns `f` for chaining.
Finding& about_shared(Finding& f, std::string identity);

// Where checks put what they find. The runner names the check before calling it.
class Findings {
 public:
  explicit Findings(const Bundle& bundle) : bundle_(bundle) {}

  void set_check(std::string_view check, Impact impact) {
    check_ = check;
    impact_ = impact;
  }
  // The check being run: a check function shared by several checks reports for this one.
  const std::string& check() const { return check_; }
  // Reports against `object`, located at `at` when given (a node inside the object), else at
  // the object itself.
  Finding& add(const Object& object, Severity severity, std::string message,
               std::string remediation, const yaml::Node& at = {});

  // Reports against something that is not an object of the bundle, such as an expectation in a
  // file the user gave; it sorts after every object.
  Finding& add_at(ObjectId object, std::string file, yaml::Position position, Severity severity,
                  std::string message, std::string remediation);

  std::vector<Finding>& list() { return findings_; }

 private:
  const Bundle& bundle_;
  std::string check_;
  Impact impact_ = Impact::kHygiene;
  std::vector<Finding> findings_;
};

}  // namespace footprint
