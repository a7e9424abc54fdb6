// The air-gap list (airgap.h): what it says of each image it names.
#include "analysis/commands/airgap.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

const AirgapItem* row(const std::vector<AirgapItem>& items, std::string_view name) {
  auto it =
      std::find_if(items.begin(), items.end(), [&](const AirgapItem& i) { return i.name == name; });
  return it == items.end() ? nullptr : &*it;
}

// A placeholder tag (linkerd's linkerdVersionValue, which its release replaces) names no image in
// any registry: the list says so, and that the released version is what to mirror.
TEST(AirgapList, PlaceholderTagsSayWhatToMirror) {
  Bundle b = testing::bundle_from(R"(apiVersion: v1
kind: Pod
metadata: {name: p, namespace: linkerd}
spec:
  containers: [{name: c, image: "cr.l5d.io/linkerd/proxy:linkerdVersionValue"}]
)");
  std::vector<AirgapItem> items = airgap_items(b, discover_images(b), {});
  const AirgapItem* proxy = row(items, "cr.l5d.io/linkerd/proxy:linkerdVersionValue");
  ASSERT_NE(proxy, nullptr);
  EXPECT_NE(proxy->note.find("placeholder no registry has"), std::string::npos) << proxy->note;
}

// linkerd-config names `controllerImage: cr.l5d.io/linkerd/controller` without a tag, and the
// proxy injector appends the version (linkerdVersion) at run time; an operator's env value naming
// a sibling repository of its own image is completed the same way. Neither is :latest: the list
// names the likely tag (the operator's own) and says so, and a reference already listed keeps one
// row.
TEST(AirgapList, RepositoriesCompletedAtRunTimeTakeTheOperatorsTag) {
  Bundle b = testing::bundle_from(R"(apiVersion: v1
kind: ConfigMap
metadata: {name: linkerd-config, namespace: linkerd}
data:
  values: |
    controllerImage: cr.l5d.io/linkerd/controller
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: operator, namespace: linkerd}
spec:
  selector: {matchLabels: {app: op}}
  template:
    metadata: {labels: {app: op}}
    spec:
      containers:
      - name: op
        image: "cr.l5d.io/linkerd/controller:stable-2.14.10"
        env: [{name: SIDECAR_IMAGE, value: cr.l5d.io/linkerd/proxy}]
)");
  std::vector<AirgapItem> items = airgap_items(b, discover_images(b), {});
  EXPECT_EQ(row(items, "cr.l5d.io/linkerd/controller:latest"), nullptr);
  EXPECT_EQ(row(items, "cr.l5d.io/linkerd/proxy:latest"), nullptr);
  const AirgapItem* controller = row(items, "cr.l5d.io/linkerd/controller:stable-2.14.10");
  ASSERT_NE(controller, nullptr);
  EXPECT_NE(controller->note.find("used by Deployment linkerd/operator"), std::string::npos);
  EXPECT_NE(controller->note.find("completes at run time"), std::string::npos);
  const AirgapItem* proxy = row(items, "cr.l5d.io/linkerd/proxy:stable-2.14.10");
  ASSERT_NE(proxy, nullptr) << items.size();
  EXPECT_NE(proxy->note.find(":stable-2.14.10 is the likely tag"), std::string::npos)
      << proxy->note;
}

}  // namespace
}  // namespace footprint
