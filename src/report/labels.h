// How several report formats name an object, order severities and print a signed byte count:
// one definition each, so the formats agree.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "analysis/finding.h"
#include "model/object.h"
#include "report/section.h"

namespace footprint {

inline constexpr Severity kWorstFirst[] = {Severity::kCritical, Severity::kHigh, Severity::kMedium,
                                           Severity::kLow, Severity::kInfo};

// "Kind name", or "Kind namespace/name" for a namespaced object.
std::string object_label(const ObjectId& id);
// {"apiVersion", "kind", "namespace" (when set), "name"}.
Json object_json(const Object& obj);

// " (known)", " (worse: medium before)", " (better: high before)" against --baseline, `gap` before
// the parenthesis; empty for a finding the baseline does not know.
std::string baseline_mark(const Finding& f, std::string_view gap);

// What is left of `limit` after `value`: negative when `value` is over it.
int64_t headroom(uint64_t limit, uint64_t value);
// `n` with thousands separators and `minus` before a negative one ("-", or U+2212 in HTML).
std::string signed_commas(int64_t n, std::string_view minus = "-");

}  // namespace footprint
