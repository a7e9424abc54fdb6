#include "load/base64.h"

#include <openssl/evp.h>

namespace footprint {

std::string base64_encode(std::string_view bytes) {
  std::string out((bytes.size() + 2) / 3 * 4 + 1, '\0');  // EVP_EncodeBlock writes a NUL
  int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()),
                                static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(written));
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  std::string clean;
  clean.reserve(text.size());
  for (char c : text) {
    if (c != '\r' && c != '\n') clean += c;
  }
  // EVP_DecodeBlock trims surrounding blanks, which Go rejects.
  if (clean.size() % 4 != 0 || clean.find_first_of(" \t") != std::string::npos) return std::nullopt;
  // EVP_DecodeBlock counts padding as zero bytes and tolerates '=' elsewhere; Go does neither.
  size_t pad = 0;
  while (pad < 2 && pad < clean.size() && clean[clean.size() - 1 - pad] == '=')
    ++pad;
  if (clean.find('=') < clean.size() - pad) return std::nullopt;
  std::string out(clean.size() / 4 * 3, '\0');
  int decoded = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(clean.data()),
                                static_cast<int>(clean.size()));
  if (decoded < 0) return std::nullopt;
  out.resize(static_cast<size_t>(decoded) - pad);
  return out;
}

}  // namespace footprint
