#include "analysis/fingerprint.h"

#include "load/registry.h"

namespace footprint {

std::string fingerprint(const Finding& finding) {
  const ObjectId& id = finding.object;
  size_t slash = id.api_version.find('/');
  std::string group = slash == std::string::npos ? "" : id.api_version.substr(0, slash);
  // NUL separates the parts: none of them can contain it, so no two lists give one text.
  std::string identity;
  auto add = [&](std::string_view part) {
    identity += part;
    identity += '\0';
  };
  add(finding.check);
  if (finding.about.empty()) {
    for (std::string_view part : {std::string_view(group), std::string_view(id.kind),
                                  std::string_view(id.namespace_), std::string_view(id.name)})
      add(part);
  } else {
    // One more part than an object's identity has, so the two kinds never give one text.
    for (std::string_view part : {std::string_view("about"), std::string_view(finding.about),
                                  std::string_view(), std::string_view(), std::string_view()})
      add(part);
  }
  identity += finding.key;
  std::string digest = digest_of(identity);  // "sha256:<64 hex>"
  return digest.substr(digest.find(':') + 1, 32);
}

}  // namespace footprint
