// The values are kube-openapi's own, from pkg/validation/strfmt/default_test.go (TestFormat*) and
// duration_test.go, unless a test says otherwise; the UUIDs of default_test.go are computed
// there (uuid.NewSHA1/NewMD5 of the URL namespace), here by Python's uuid module.
#include "analysis/models/crd_formats.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace footprint {
namespace {

void expect_valid(std::string_view format, const std::vector<std::string>& values) {
  for (const std::string& v : values)
    EXPECT_TRUE(format_matches(format, v)) << format << ": " << v;
}

void expect_invalid(std::string_view format, const std::vector<std::string>& values) {
  for (const std::string& v : values)
    EXPECT_FALSE(format_matches(format, v)) << format << ": " << v;
}

TEST(CrdFormats, Hostname) {
  expect_valid("hostname", {"somewhere.com",
                            "888.com",
                            "a.com",
                            "a.b.com",
                            "a.b.c.com",
                            "a.b.c.d.com",
                            "a.b.c.d.e.com",
                            "1.com",
                            "1.2.com",
                            "1.2.3.com",
                            "1.2.3.4.com",
                            "99.domain.com",
                            "99.99.domain.com",
                            "1wwworg.example.com",
                            "1000wwworg.example.com",
                            "xn--bcher-kva.example.com",
                            "xn-80ak6aa92e.co",
                            "xn-80ak6aa92e.com",
                            "xn--ls8h.la",
                            "☁→❄→☃→☀→☺→☂→☹→✝.ws",
                            "www.example.onion",
                            "www.example.ôlà",
                            "ôlà.ôlà",
                            "ôlà.ôlà.ôlà",
                            "ex$ample",
                            "localhost",
                            "example",
                            "x",
                            "x-y",
                            "a.b.c.dot",
                            "www.example.org",
                            "a.b.c.d.e.f.g.dot",
                            "ex=ample.com",
                            "<foo>",
                            "www.example-hyphenated.org",
                            "www.詹姆斯.org",
                            "www.élégigôö.org",
                            "www.詹姆斯.london"});
  expect_invalid("hostname", {"somewhere.com!",
                              "user@email.domain",
                              "1.1.1.1",
                              std::string(256, 'a'),
                              "x.y." + std::string(64, 'a'),
                              "www.example-.org",
                              "www.--example.org",
                              "-www.example.org",
                              "www-.example.org",
                              "www.d-.org",
                              "www.-d.org",
                              "www-",
                              "-www",
                              "www.ex ample.org",
                              "_www.example.org",
                              "www.ex;ample.org",
                              "www.example_underscored.org",
                              "www.詹姆斯.x",
                              "a.b.c.d",
                              "-xyz",
                              "xyz-",
                              "x.",
                              "a.b.c.dot-",
                              "a.b.c.é;ö"});
}

TEST(CrdFormats, Addresses) {
  // ipv4 keeps Go 1.16's leading zeros (netutils.ParseIPSloppy).
  expect_valid("ipv4",
               {"192.168.254.1", "192.168.254.2", "127.0.0.1", "192.168.1.1", "192.168.1.01"});
  expect_invalid("ipv4", {"198.168.254.2.2"});
  expect_valid("ipv6", {"::1", "::2"});
  expect_invalid("ipv6", {"127.0.0.1"});
  expect_valid("cidr", {"192.168.254.1/24", "192.168.254.2/24", "192.0.2.1/24", "192.0.02.1/24",
                        "2001:db8:a0b:12f0::1/32"});
  expect_invalid("cidr", {"198.168.254.2", "2001:db8:a0b:12f0::1"});
  expect_valid("mac", {"01:02:03:04:05:06", "06:05:04:03:02:01"});
  expect_invalid("mac", {"01:02:03:04:05"});
  // net.ParseMAC's documented forms (Go's net package documentation).
  expect_valid("mac", {"00-00-5e-00-53-01", "0000.5e00.5301", "00:00:00:00:fe:80:00:00"});
}

TEST(CrdFormats, Email) {
  expect_valid("email", {"somebody@somewhere.com",
                         "somebodyelse@somewhere.com",
                         "blah@gmail.com",
                         "test@d.verylongtoplevel",
                         "email+tag@gmail.com",
                         R"(" "@example.com)",
                         R"("Abc\@def"@example.com)",
                         R"("Fred Bloggs"@example.com)",
                         R"("Joe\\Blow"@example.com)",
                         R"("Abc@def"@example.com)",
                         "customer/department=shipping@example.com",
                         "$A12345@example.com",
                         "!def!xyz%abc@example.com",
                         "_somename@example.com",
                         "!#$%&'*+-/=?^_`{}|~@example.com",
                         "Miles.O'Brian@example.com",
                         "postmaster@☁→❄→☃→☀→☺→☂→☹→✝.ws",
                         "root@localhost",
                         "john@com",
                         "api@piston.ninja"});
  expect_invalid("email", {"somebody@somewhere@com"});
  // The forms of Go's net/mail documentation (ParseAddress): a name and an angle-addr.
  expect_valid("email", {"Barry Gibbs <bg@example.com>"});
  expect_invalid("email", {"Barry Gibbs", ""});
}

TEST(CrdFormats, Uri) {
  expect_valid("uri", {"http://somewhere.com", "http://somewhereelse.com"});
  expect_invalid("uri", {"somewhere.com"});
}

TEST(CrdFormats, Uuids) {
  expect_valid("uuid", {"b1690c37-3ee8-5346-b699-8c23cac63839"});
  expect_valid("uuid5",
               {"b1690c37-3ee8-5346-b699-8c23cac63839", "051fe46f-224a-544a-af5e-c946d53d98b6"});
  expect_valid("uuid3", {"fba4f6bb-77ab-3976-8146-0a48a348c416"});
  expect_invalid("uuid3", {"not-a-uuid", "b1690c37-3ee8-5346-b699-8c23cac63839"});
  for (std::string_view f : {"uuid", "uuid4", "uuid5"})
    expect_invalid(f, {"not-a-uuid"});
}

TEST(CrdFormats, Numbers) {
  expect_valid("isbn", {"0321751043"});
  expect_invalid("isbn", {"836217463"});
  expect_valid("isbn10", {"0321751043"});
  expect_invalid("isbn10", {"836217463"});
  expect_valid("isbn13", {"978-0321751041"});
  expect_invalid("isbn13", {"978-0321751042"});
  expect_valid("creditcard", {"4111-1111-1111-1111", "4012-8888-8888-1881"});
  expect_invalid("creditcard", {"9999-9999-9999-999"});
  expect_valid("ssn", {"111-11-1111", "999 99 9999"});
  expect_invalid("ssn", {"999 99 999"});
}

TEST(CrdFormats, ColoursBytesAndPasswords) {
  expect_valid("hexcolor", {"#FFFFFF", "#000000"});
  expect_invalid("hexcolor", {"#fffffffz"});
  expect_valid("rgbcolor", {"rgb(255,255,255)", "rgb(0,0,0)"});
  expect_invalid("rgbcolor", {"rgb(300,0,0)"});
  // TestFormatBase64: base64.URLEncoding of its sentence; a missing pad char.
  expect_valid(
      "byte", {"VGhpcyBpcyBhIGJ5dGUgYXJyYXkgd2l0aCB1bnByaW50YWJsZSBjaGFycywgYnV0IGl0IGFsc28gaXNu"});
  expect_invalid("byte", {"ZWxpemFiZXRocG9zZXk"});
  expect_valid("password", {"super secret stuff here", "even more secret"});
}

TEST(CrdFormats, Durations) {
  expect_valid("duration", {"0ms",
                            "2ms",
                            "1ns",
                            "1us",
                            "1µs",
                            "1ms",
                            "1s",
                            "1m",
                            "1h",
                            "1hr",
                            "1d",
                            "1w",
                            "1wk",
                            "1nanoseconds",
                            "1nanos",
                            "1microseconds",
                            "1micros",
                            "1millis",
                            "1milliseconds",
                            "1second",
                            "1sec",
                            "1min",
                            "1minute",
                            "1hour",
                            "1day",
                            "1week",
                            "1  ns",
                            "1  µs",
                            "1  wk",
                            "1  milliseconds",
                            "1w2s",
                            "1d2h3m5s",
                            "1s 2m",
                            "1w 2d 3h 4m",
                            "45 weeks",
                            "45 weekz",
                            "12 hours",
                            "12 minutes"});
  expect_invalid(
      "duration",
      {"yada", "three week", "9999999999999999999999999999999999999999999999999999999 weeks",
       "12 parsecs", "12 y", "45 wekk", "45 weeekks", "12 phours", "1s invalid", "invalid 1s",
       "1s   invalid", "invalid   1s", "1s 2m invalid", "1s invalid 2m"});
}

// Dates: the examples of apiextensions-apiserver's formats.go ("2006-01-02",
// "2014-12-15T19:30:20.000Z"); Go's time.Parse refuses a day the month does not have.
TEST(CrdFormats, Dates) {
  expect_valid("date", {"2006-01-02", "2024-02-29"});
  expect_invalid("date", {"2023-02-29", "2006-1-02", "2006-13-01", "nope"});
  expect_valid("date-time", {"2014-12-15T19:30:20.000Z", "2014-12-15t19:30:20+01:00"});
  expect_invalid("date-time", {"2014-12-15T24:00:00Z", "2014-12-15 19:30:20Z", "nope"});
}

// formats.go: a format outside the supported set is dropped from the schema, so anything passes;
// go-openapi drops the dashes of a name.
TEST(CrdFormats, UnknownFormatsPass) {
  EXPECT_TRUE(format_matches("int32", "x"));
  EXPECT_TRUE(format_matches("k8s-short-name", "Not_A_Name"));
  EXPECT_TRUE(format_matches("whatever", "x"));
  EXPECT_TRUE(format_checked("date-time"));
  EXPECT_TRUE(format_checked("u-u-i-d"));
  EXPECT_FALSE(format_checked("int64"));
}

}  // namespace
}  // namespace footprint
