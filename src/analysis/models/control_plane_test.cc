// The provider facts of control_plane.h and the pod-port resolution, with their sources.
#include "analysis/models/control_plane.h"

#include <gtest/gtest.h>

#include "model/testing.h"

namespace footprint {
namespace {

TEST(ControlPlane, NamesRoundTrip) {
  for (Provider p : kAllProviders)
    EXPECT_TRUE(parse_provider(provider_name(p)) == p);
  EXPECT_FALSE(parse_provider("azure"));
}

// GKE private: the gke-...-master rule (tcp:443, tcp:10250); terraform-aws-eks's node security
// group rules (443, 10250, 4443, 6443, 8443, 9443, 10251); EKS's cluster security group and AKS's
// konnectivity tunnel reach every port.
TEST(ControlPlane, ReachablePorts) {
  EXPECT_EQ(*reachable_ports(Provider::kGkePrivate), (std::vector<int32_t>{443, 10250}));
  EXPECT_EQ(*reachable_ports(Provider::kEksCustomSg),
            (std::vector<int32_t>{443, 4443, 6443, 8443, 9443, 10250, 10251}));
  EXPECT_FALSE(reachable_ports(Provider::kEks));
  EXPECT_FALSE(reachable_ports(Provider::kAks));
  EXPECT_FALSE(reachable_ports(Provider::kGeneric));
}

// core/v1 ServicePort: targetPort defaults to port; a name is looked up among the pods'
// containerPorts (the endpoints controller's FindPort).
TEST(ControlPlane, PodPortFollowsTargetPort) {
  Bundle b = testing::bundle_from(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: ns}
spec:
  selector: {matchLabels: {app: d}}
  template:
    metadata: {labels: {app: d}}
    spec:
      containers: [{name: c, image: x, ports: [{name: webhook, containerPort: 9443}]}]
---
apiVersion: v1
kind: Service
metadata: {name: s, namespace: ns}
spec:
  selector: {app: d}
  ports: [{port: 443, targetPort: webhook}, {port: 8443, targetPort: 9443}, {port: 80}]
)");
  std::vector<PodTemplate> pods = pod_templates(b);
  const Object& service = b.objects[1];
  PodPort named = pod_port(service, 443, pods);
  EXPECT_EQ(named.number, 9443);
  EXPECT_EQ(named.name, "webhook");
  EXPECT_TRUE(named.found);
  PodPort numbered = pod_port(service, 8443, pods);
  EXPECT_EQ(numbered.number, 9443);
  EXPECT_EQ(numbered.name, "webhook");
  EXPECT_EQ(pod_port(service, 80, pods).number, 80);
  EXPECT_FALSE(pod_port(service, 9999, pods).found);
  EXPECT_EQ(pod_port(service, 443, {}).number, 0);  // a name with no pods to resolve it
}

}  // namespace
}  // namespace footprint
