#include "load/base64.h"

#include <gtest/gtest.h>

namespace footprint {
namespace {

// The test vectors of RFC 4648, section 10.
TEST(Base64, Rfc4648Vectors) {
  const std::pair<const char*, const char*> vectors[] = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(base64_encode(plain), encoded);
    EXPECT_EQ(base64_decode(encoded), std::optional<std::string>(plain)) << encoded;
  }
}

TEST(Base64, BinaryRoundTrip) {
  std::string bytes;
  for (int i = 0; i < 256; ++i)
    bytes += static_cast<char>(i);
  EXPECT_EQ(base64_decode(base64_encode(bytes)), std::optional<std::string>(bytes));
}

// Go's encoding/base64 skips CR and LF but rejects other blanks, bad characters, missing padding
// and padding before the end.
TEST(Base64, DecodeLikeGo) {
  EXPECT_EQ(base64_decode("Zm9v\r\nYmFy\n"), std::optional<std::string>("foobar"));
  EXPECT_FALSE(base64_decode("Zm9v YmFy"));
  EXPECT_FALSE(base64_decode(" Zm9v"));
  EXPECT_FALSE(base64_decode("Zm9"));
  EXPECT_FALSE(base64_decode("Zm9*"));
  EXPECT_FALSE(base64_decode("Zg==Zm9v"));
  EXPECT_FALSE(base64_decode("Z==="));
}

}  // namespace
}  // namespace footprint
