// Label selectors as metav1.LabelSelector defines them, evaluated against a set of labels.
#pragma once

#include <map>
#include <string>
#include <tl/expected.hpp>
#include <vector>

#include "load/yaml.h"

namespace footprint {

using Labels = std::map<std::string, std::string, std::less<>>;

struct LabelRequirement {
  enum class Op : uint8_t { kIn, kNotIn, kExists, kDoesNotExist };
  std::string key;
  Op op = Op::kIn;
  std::vector<std::string> values;
};

struct LabelSelector {
  // A selector field that is absent or null. What that means depends on the field: an admission
  // webhook's namespaceSelector defaults to {} (everything), a Service without one selects nothing.
  bool absent = true;
  std::vector<LabelRequirement> requirements;  // matchLabels become single-value In

  // An empty selector ({}) matches every label set; requirements are ANDed.
  bool matches(const Labels& labels) const;
  // True when every requirement is NotIn or DoesNotExist: objects without those labels match,
  // so the selector opts out rather than in.
  bool only_exclusions() const;
  bool empty() const { return requirements.empty(); }
  // "app=x,tier in (a,b),!legacy" in kubectl's notation; "<everything>" when empty.
  std::string to_string() const;
};

// Parses a metav1.LabelSelector (matchLabels + matchExpressions). Errors name what is wrong;
// callers add the node's position.
tl::expected<LabelSelector, std::string> parse_label_selector(const yaml::Node& node);

// Parses a plain label map such as a Service's spec.selector.
tl::expected<LabelSelector, std::string> parse_label_map_selector(const yaml::Node& node);

// Reads a mapping of string labels, e.g. metadata.labels.
Labels read_labels(const yaml::Node& node);

}  // namespace footprint
