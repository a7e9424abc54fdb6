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

constexpr uint32_t kNoObject = UINT32_MAX;

struct Finding {
  std::string check;
  Severity severity = Severity::kInfo;
  ObjectId object;
  uint32_t object_index = 0;  // kNoObject when the finding is not about a bundle object
  std::string file;
  yaml::Position position;
  std::string helm_template;
  std::string message;      // the consequence for the cluster, in plain words
  std::string remediation;  // a concrete fix
  bool suppressed = false;
  std::string suppressed_by;  // "annotation" or the config file's path
  std::string suppression_reason;
};

// Where checks put what they find. The runner names the check before calling it.
class Findings {
 public:
  explicit Findings(const Bundle& bundle) : bundle_(bundle) {}

  void set_check(std::string_view check) { check_ = check; }
  // Reports against `object`, located at `at` when given (a node inside the object), else at
  // the object itself.
  void add(const Object& object, Severity severity, std::string message, std::string remediation,
           const yaml::Node& at = {});

  // Reports against something that is not an object of the bundle, such as an expectation in a
  // file the user gave; it sorts after every object.
  void add_at(ObjectId object, std::string file, yaml::Position position, Severity severity,
              std::string message, std::string remediation);

  std::vector<Finding>& list() { return findings_; }

 private:
  const Bundle& bundle_;
  std::string check_;
  std::vector<Finding> findings_;
};

}  // namespace footprint
