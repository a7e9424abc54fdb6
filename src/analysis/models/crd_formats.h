// The string formats the API server checks in a custom resource: kube-openapi's strfmt registry
// (pkg/validation/strfmt: default.go, date.go, time.go, duration.go, bson.go, with govalidator's
// checks and Go's net, net/url and time parsers), less what apiextensions-apiserver strips
// (apiserver/validation/formats.go: a format outside its supported set is dropped, so ignored).
// For crd_schema.cc.
#pragma once

#include <string_view>

namespace footprint {

// Whether the API server validates strings against `format` (a name whose dashes it drops first:
// date-time is datetime). Unknown formats, and int32/int64/float/double, which bound nothing,
// are not checked; nor is `quantity`, which formats.go lists but the registry Kubernetes 1.34
// vendors does not know, so the API server ignores it.
bool format_checked(std::string_view format);

// Whether `text` meets `format`; true for a format that is not checked.
bool format_matches(std::string_view format, std::string_view text);

// The checks behind format_matches, by the Go function each follows.
bool is_hostname(std::string_view text);           // strfmt.IsHostname
bool is_date(std::string_view text);               // strfmt.IsDate: time.Parse("2006-01-02")
bool is_date_time(std::string_view text);          // strfmt.IsDateTime
bool is_duration(std::string_view text);           // strfmt.ParseDuration
bool is_ipv4_sloppy(std::string_view text);        // netutils.ParseIPSloppy and a '.'
bool is_ipv6(std::string_view text);               // net.ParseIP and a ':'
bool is_cidr_sloppy(std::string_view text);        // netutils.ParseCIDRSloppy
bool is_mac(std::string_view text);                // net.ParseMAC
bool is_request_uri(std::string_view text);        // url.ParseRequestURI
bool is_email(std::string_view text);              // mail.ParseAddress, one address
bool is_isbn(std::string_view text, int version);  // govalidator.IsISBN: 10, 13, or 0 for either
bool is_credit_card(std::string_view text);        // govalidator.IsCreditCard

}  // namespace footprint
