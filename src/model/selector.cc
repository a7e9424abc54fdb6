#include "model/selector.h"

#include <fmt/format.h>

#include <algorithm>

namespace footprint {

bool LabelSelector::matches(const Labels& labels) const {
  for (const LabelRequirement& r : requirements) {
    auto it = labels.find(r.key);
    bool has = it != labels.end();
    bool in_values =
        has && std::find(r.values.begin(), r.values.end(), it->second) != r.values.end();
    switch (r.op) {
      case LabelRequirement::Op::kIn:
        if (!in_values) return false;
        break;
      case LabelRequirement::Op::kNotIn:
        if (in_values) return false;  // an absent key satisfies NotIn
        break;
      case LabelRequirement::Op::kExists:
        if (!has) return false;
        break;
      case LabelRequirement::Op::kDoesNotExist:
        if (has) return false;
        break;
    }
  }
  return true;
}

bool LabelSelector::only_exclusions() const {
  return !requirements.empty() &&
         std::all_of(requirements.begin(), requirements.end(), [](const LabelRequirement& r) {
           return r.op == LabelRequirement::Op::kNotIn ||
                  r.op == LabelRequirement::Op::kDoesNotExist;
         });
}

std::string LabelSelector::to_string() const {
  if (requirements.empty()) return "<everything>";
  std::string out;
  for (const LabelRequirement& r : requirements) {
    if (!out.empty()) out += ",";
    switch (r.op) {
      case LabelRequirement::Op::kIn:
        out += r.values.size() == 1 ? fmt::format("{}={}", r.key, r.values[0])
                                    : fmt::format("{} in ({})", r.key, fmt::join(r.values, ","));
        break;
      case LabelRequirement::Op::kNotIn:
        out += r.values.size() == 1 ? fmt::format("{}!={}", r.key, r.values[0])
                                    : fmt::format("{} notin ({})", r.key, fmt::join(r.values, ","));
        break;
      case LabelRequirement::Op::kExists:
        out += r.key;
        break;
      case LabelRequirement::Op::kDoesNotExist:
        out += "!" + r.key;
        break;
    }
  }
  return out;
}

namespace {

tl::expected<void, std::string> add_match_labels(const yaml::Node& map, LabelSelector& selector) {
  if (!map || map.is_null()) return {};
  if (!map.is_mapping()) return tl::unexpected(std::string("matchLabels must be a mapping"));
  for (size_t i = 0; i < map.size(); ++i) {
    if (!map.value(i).is_scalar()) {
      return tl::unexpected(fmt::format("label {} must have a string value", map.key(i).text()));
    }
    selector.requirements.push_back(LabelRequirement{std::string(map.key(i).text()),
                                                     LabelRequirement::Op::kIn,
                                                     {std::string(map.value(i).str())}});
  }
  return {};
}

}  // namespace

tl::expected<LabelSelector, std::string> parse_label_selector(const yaml::Node& node) {
  LabelSelector selector;
  if (!node || node.is_null()) return selector;
  if (!node.is_mapping()) return tl::unexpected(std::string("a label selector must be a mapping"));
  selector.absent = false;
  if (auto r = add_match_labels(node.get("matchLabels"), selector); !r) {
    return tl::unexpected(r.error());
  }
  yaml::Node expressions = node.get("matchExpressions");
  if (expressions && !expressions.is_null() && !expressions.is_sequence()) {
    return tl::unexpected(std::string("matchExpressions must be a list"));
  }
  for (size_t i = 0; i < expressions.size(); ++i) {
    yaml::Node e = expressions.item(i);
    LabelRequirement r;
    r.key = std::string(e.get("key").str());
    std::string_view op = e.get("operator").str();
    if (r.key.empty()) return tl::unexpected(fmt::format("matchExpressions[{}] has no key", i));
    if (op == "In") {
      r.op = LabelRequirement::Op::kIn;
    } else if (op == "NotIn") {
      r.op = LabelRequirement::Op::kNotIn;
    } else if (op == "Exists") {
      r.op = LabelRequirement::Op::kExists;
    } else if (op == "DoesNotExist") {
      r.op = LabelRequirement::Op::kDoesNotExist;
    } else {
      return tl::unexpected(fmt::format("matchExpressions[{}] has unknown operator \"{}\"", i, op));
    }
    yaml::Node values = e.get("values");
    for (size_t v = 0; v < values.size(); ++v)
      r.values.emplace_back(values.item(v).str());
    bool needs_values = r.op == LabelRequirement::Op::kIn || r.op == LabelRequirement::Op::kNotIn;
    if (needs_values && r.values.empty()) {
      return tl::unexpected(fmt::format("matchExpressions[{}] ({}) needs values", i, op));
    }
    if (!needs_values && !r.values.empty()) {
      return tl::unexpected(fmt::format("matchExpressions[{}] ({}) must not have values", i, op));
    }
    selector.requirements.push_back(std::move(r));
  }
  return selector;
}

tl::expected<LabelSelector, std::string> parse_label_map_selector(const yaml::Node& node) {
  LabelSelector selector;
  if (!node || node.is_null()) return selector;
  selector.absent = false;
  if (auto r = add_match_labels(node, selector); !r) return tl::unexpected(r.error());
  return selector;
}

Labels read_labels(const yaml::Node& node) {
  Labels labels;
  if (!node.is_mapping()) return labels;
  for (size_t i = 0; i < node.size(); ++i) {
    if (node.key(i).is_scalar() && node.value(i).is_scalar()) {
      labels.emplace(std::string(node.key(i).text()), std::string(node.value(i).str()));
    }
  }
  return labels;
}

}  // namespace footprint
