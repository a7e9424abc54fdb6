// `footprint fix crds`: CRDs whose conversion webhook names the wrong Service or port, or lacks
// a CA, rewritten so that the API server can call it, as whole CRDs or as JSON patches.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

#include "analysis/context.h"
#include "model/kubectl_json.h"

namespace footprint {

// The certificates of a PEM CA bundle, re-encoded, after checking that each parses as an X.509
// certificate. A private key in the text is an error: caBundle is public.
tl::expected<std::string, std::string> read_ca_pem(std::string_view text);

// The ca.crt of a Secret manifest (such as `kubectl get secret NAME -o yaml`), from data
// (base64) or stringData. No other key is read, and no error message shows a value.
tl::expected<std::string, std::string> ca_from_secret(std::string_view manifest);

struct ServiceRef {
  std::string namespace_;
  std::string name;
};

// Parses --service NS/NAME.
std::optional<ServiceRef> parse_service_ref(std::string_view text);

struct CrdFixOptions {
  std::optional<ServiceRef> service;  // instead of the suggestion
  std::string ca_pem;                 // from read_ca_pem; empty: leave caBundle alone
};

struct CrdFix {
  const Object* crd = nullptr;
  std::vector<std::string> changes;  // what changes, in words
  std::string patch;                 // an RFC 6902 JSON patch
  std::string fixed;                 // the whole CRD as JSON, as kubectl would send it, fixed
};

struct CrdFixPlan {
  std::vector<CrdFix> fixes;
  std::vector<std::string> unresolved;  // what needs more input, such as --ca-file
};

CrdFixPlan plan_crd_fixes(const Context& context, const CrdFixOptions& options);

}  // namespace footprint
