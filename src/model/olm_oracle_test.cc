// An OLM bundle rendered by footprint and loaded as every input is, against the objects OLM v1's
// own renderer made from the same bundle (operator-controller test/regression/convert at df2c201,
// in ../shared/olm with its README: third-party data stays outside the repository). The renderer's
// generated names carry a hash of the rules; RBAC objects are compared by content, every other
// object by name and content.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "load/olm_bundle.h"
#include "model/object.h"
#include "util/test_skip.h"

namespace footprint {
namespace {

namespace fs = std::filesystem;

const std::string kData = FOOTPRINT_SHARED_DIR "/olm/argocd-operator.v0.6.0";

bool rbac(std::string_view kind) {
  return kind == "Role" || kind == "RoleBinding" || kind == "ClusterRole" ||
         kind == "ClusterRoleBinding";
}

// A node as text with mapping keys sorted; `skip` names the keys left out at this level.
std::string canonical(const yaml::Node& n, const std::vector<std::string_view>& skip = {}) {
  if (n.is_mapping()) {
    std::vector<std::pair<std::string, std::string>> pairs;
    for (size_t i = 0; i < n.size(); ++i) {
      std::string key(n.key(i).str());
      if (std::find(skip.begin(), skip.end(), key) != skip.end()) continue;
      pairs.emplace_back(key, canonical(n.value(i)));
    }
    std::sort(pairs.begin(), pairs.end());
    std::string out = "{";
    for (const auto& [k, v] : pairs)
      out.append(k).append(":").append(v).append(",");
    return out + "}";
  }
  if (n.is_sequence()) {
    std::string out = "[";
    for (size_t i = 0; i < n.size(); ++i)
      out += canonical(n.item(i)) + ",";
    return out + "]";
  }
  return n.is_null() ? "null" : std::string(n.text());
}

// What is compared of an object: where it lands, its kind, its name unless generated, and its
// content. Left out: status and creationTimestamp (the API server's), and the generated names.
std::string comparable(const Object& obj) {
  bool generated = rbac(obj.kind);
  std::string out = obj.kind + " ns=" + obj.namespace_ + " name=" + (generated ? "*" : obj.name);
  for (size_t i = 0; i < obj.node.size(); ++i) {
    std::string_view key = obj.node.key(i).str();
    yaml::Node value = obj.node.value(i);
    if (key == "status") continue;
    if (key == "metadata") {
      out += " metadata=" + canonical(value, {"creationTimestamp", "namespace", "name"});
    } else if (key == "roleRef") {
      out += " roleRef=" + canonical(value, {"name"});
    } else {
      out += " " + std::string(key) + "=" + canonical(value);
    }
  }
  return out;
}

std::vector<std::string> objects_of(const LoadedInput& input) {
  Bundle bundle = build_bundle(LoadedInput(input), BundleOptions{"argocd-system"});
  std::vector<std::string> out;
  for (const Object& obj : bundle.objects)
    out.push_back(comparable(obj));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> rendered(const std::string& mode) {
  auto olm = render_olm_input(kData + "/bundle", mode, "argocd-system");
  EXPECT_TRUE(olm.has_value()) << (olm ? "" : olm.error().front());
  if (!olm) return {};
  auto loaded = load_inputs(olm->files, LoadOptions{}, {{kData + "/bundle", olm->text}});
  EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().front().to_string());
  return loaded ? objects_of(*loaded) : std::vector<std::string>{};
}

// The oracle's objects, its CRDs included.
std::vector<std::string> expected(const std::string& folder) {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(fs::path(kData) / "expected" / folder))
    files.push_back(entry.path().string());
  auto loaded = load_inputs(files, LoadOptions{});
  EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().front().to_string());
  return loaded ? objects_of(*loaded) : std::vector<std::string>{};
}

// Objects in `a` and not in `b`, shortened for the failure message.
std::string only_in(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> diff;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(diff));
  std::string out;
  for (const std::string& d : diff)
    out += "\n  " + d.substr(0, 600);
  return out;
}

void expect_same(const std::string& mode, const std::string& folder) {
  if (!fs::exists(kData)) FOOTPRINT_SKIP(kData + " not found; the OLM oracle is in ../shared/olm");
  std::vector<std::string> ours = rendered(mode);
  std::vector<std::string> olm = expected(folder);
  EXPECT_EQ(ours.size(), olm.size());
  EXPECT_TRUE(ours == olm) << "only footprint's:" << only_in(ours, olm)
                           << "\nonly OLM's:" << only_in(olm, ours);
}

TEST(OlmOracle, AllNamespacesPromotesPermissionsToClusterRoles) {
  expect_same("AllNamespaces", "all-namespaces");
}

TEST(OlmOracle, OwnNamespaceBindsPermissionsInTheInstallNamespace) {
  expect_same("OwnNamespace", "own-namespace");
}

TEST(OlmOracle, SingleNamespaceBindsPermissionsInTheWatchedNamespace) {
  expect_same("SingleNamespace=argocd-watch", "single-namespace");
}

}  // namespace
}  // namespace footprint
