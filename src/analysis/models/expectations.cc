// load_expectations (rbac_models.h): the requests of --expect FILE.
#include <fmt/format.h>

#include "analysis/models/rbac_models.h"
#include "analysis/models/rights.h"

namespace footprint {

tl::expected<std::vector<Expectation>, LoadError> load_expectations(
    const std::string& path, const ResourceTable& resources) {
  auto text = read_text_file(path);
  if (!text) return tl::unexpected(LoadError{path, {}, "cannot read: " + text.error()});
  auto docs = yaml::parse(*text);
  if (!docs) return tl::unexpected(LoadError{path, docs.error().position, docs.error().message});
  std::vector<Expectation> out;
  auto fail = [&](const yaml::Node& at, std::string message) {
    return tl::unexpected(LoadError{path, at.position(), std::move(message)});
  };
  if (docs->empty()) return out;
  yaml::Node list = docs->front().root;
  if (!list.is_sequence()) {
    return fail(list, "expected a list of {as, verb, resource, namespace, name}");
  }
  for (size_t i = 0; i < list.size(); ++i) {
    yaml::Node item = list.item(i);
    if (!item.is_mapping()) return fail(item, "each expectation must be a mapping");
    for (size_t k = 0; k < item.size(); ++k) {
      std::string_view key = item.key(k).text();
      if (key != "as" && key != "verb" && key != "resource" && key != "namespace" &&
          key != "name") {
        return fail(item.key(k), fmt::format("unknown field \"{}\" (expected as, verb, resource, "
                                             "namespace, name)",
                                             key));
      }
    }
    for (const char* required : {"as", "verb", "resource"}) {
      if (item.get(required).str().empty()) {
        return fail(item, fmt::format("an expectation needs {}", required));
      }
    }
    Expectation e;
    e.as = std::string(item.get("as").str());
    auto identity = Identity::parse(e.as, {});
    if (!identity) return fail(item.get("as"), identity.error());
    e.identity = std::move(*identity);
    auto request = make_request(item.get("verb").str(), item.get("resource").str(),
                                item.get("name").str(), item.get("namespace").str(), resources);
    if (!request) return fail(item.get("resource"), request.error());
    e.request = std::move(*request);
    e.file = path;
    e.position = item.position();
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace footprint
