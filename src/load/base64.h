// Base64 as Kubernetes uses it for []byte fields such as caBundle and Secret data: the standard
// alphabet with padding (RFC 4648 section 4).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace footprint {

std::string base64_encode(std::string_view bytes);

// Decodes padded standard base64, skipping CR and LF as Go's encoding/base64 does; nullopt
// when the text is not base64.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace footprint
