// Default classes. The DefaultStorageClass admission plugin gives a PVC without
// storageClassName the default StorageClass (k8s.io/component-helpers/storage/volume
// IsDefaultStorageClassAnnotation: the GA or beta annotation equal to "true"); the
// DefaultIngressClass plugin does the same for Ingresses
// (plugin/pkg/admission/network/defaultingressclass/admission.go); with several defaults both
// choose the newest.
#include "analysis/cluster_wide/cluster_defaults.h"

#include <gtest/gtest.h>

#include "analysis/check_testing.h"

namespace footprint {
namespace {

using testing::bundle_from;
using testing::run_check;

TEST(DefaultClass, StorageAndIngressDefaults) {
  Bundle b = bundle_from(R"(
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: fast
  annotations: {storageclass.beta.kubernetes.io/is-default-class: "true"}
provisioner: ebs.csi.aws.com
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: slow
  annotations: {storageclass.kubernetes.io/is-default-class: "True"}
provisioner: x
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: nginx
  annotations: {ingressclass.kubernetes.io/is-default-class: "true"}
spec: {controller: k8s.io/ingress-nginx}
---
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: internal}
spec: {controller: k8s.io/ingress-nginx}
)");
  auto findings = run_check(b, "default-class");
  // "True" is not "true": the comparison is exact, so slow is not a default.
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].object.name, "fast");
  EXPECT_EQ(findings[0].severity, Severity::kHigh);
  EXPECT_NE(findings[0].message.find("provisioned by ebs.csi.aws.com"), std::string::npos);
  EXPECT_EQ(findings[1].object.name, "nginx");
  EXPECT_NE(findings[1].message.find("given to k8s.io/ingress-nginx"), std::string::npos);
}

}  // namespace
}  // namespace footprint
