// Names: Kubernetes' name rules, and comparing names for suggestions such as "did you mean".
#pragma once

#include <cstddef>
#include <string_view>

namespace footprint {

// Levenshtein distance: single-character insertions, deletions and substitutions.
size_t edit_distance(std::string_view a, std::string_view b);

// A DNS label (RFC 1123) as Kubernetes checks namespace names: 1 to 63 characters of a-z, 0-9
// and '-', starting and ending with a letter or digit (apimachinery's IsDNS1123Label).
bool is_dns1123_label(std::string_view name);

// A DNS subdomain (RFC 1123) as Kubernetes checks most object names, CRDs' included: at most 253
// characters, dot-separated labels of a-z, 0-9 and '-' (apimachinery's IsDNS1123Subdomain).
bool is_dns1123_subdomain(std::string_view name);

// The two patterns alone, without their length limits, for messages that name each failure.
bool matches_dns1123_label(std::string_view part);
bool matches_dns1123_subdomain(std::string_view name);

}  // namespace footprint
