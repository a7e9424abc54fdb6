// The rights catalogue covers every resource a Kubernetes 1.34 API server serves, and each of its
// entries is either a consequence with a severity or harmless with a reason.
#include "analysis/models/rights_catalog.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "model/resources.h"

namespace footprint {
namespace {

struct Served {
  const char* group;
  const char* resource;
};

// Every resource kubernetes/kubernetes test/integration/etcd/data.go
// (GetEtcdStorageDataForNamespaceServedAt) keeps for version 1.34: IntroducedVersion at most 1.34
// (or the group's first beta at most 1.34), RemovedVersion after it. storageversionmigrations is
// v1alpha1 at 1.34, which a later data.go no longer lists (its v1beta1 came in 1.35).
constexpr Served kStored[] = {
    {"", "configmaps"},
    {"", "services"},
    {"", "podtemplates"},
    {"", "pods"},
    {"", "endpoints"},
    {"", "resourcequotas"},
    {"", "limitranges"},
    {"", "namespaces"},
    {"", "nodes"},
    {"", "persistentvolumes"},
    {"", "events"},
    {"", "persistentvolumeclaims"},
    {"", "serviceaccounts"},
    {"", "secrets"},
    {"", "replicationcontrollers"},
    {"apps", "daemonsets"},
    {"apps", "deployments"},
    {"apps", "statefulsets"},
    {"apps", "replicasets"},
    {"apps", "controllerrevisions"},
    {"autoscaling", "horizontalpodautoscalers"},
    {"batch", "jobs"},
    {"batch", "cronjobs"},
    {"certificates.k8s.io", "certificatesigningrequests"},
    {"certificates.k8s.io", "clustertrustbundles"},
    {"certificates.k8s.io", "podcertificaterequests"},
    {"coordination.k8s.io", "leases"},
    {"coordination.k8s.io", "leasecandidates"},
    {"discovery.k8s.io", "endpointslices"},
    {"events.k8s.io", "events"},
    {"networking.k8s.io", "ingresses"},
    {"networking.k8s.io", "ingressclasses"},
    {"networking.k8s.io", "networkpolicies"},
    {"networking.k8s.io", "ipaddresses"},
    {"networking.k8s.io", "servicecidrs"},
    {"policy", "poddisruptionbudgets"},
    {"storagemigration.k8s.io", "storageversionmigrations"},
    {"flowcontrol.apiserver.k8s.io", "flowschemas"},
    {"flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations"},
    {"storage.k8s.io", "volumeattachments"},
    {"storage.k8s.io", "volumeattributesclasses"},
    {"storage.k8s.io", "storageclasses"},
    {"storage.k8s.io", "csistoragecapacities"},
    {"storage.k8s.io", "csinodes"},
    {"storage.k8s.io", "csidrivers"},
    {"rbac.authorization.k8s.io", "roles"},
    {"rbac.authorization.k8s.io", "clusterroles"},
    {"rbac.authorization.k8s.io", "rolebindings"},
    {"rbac.authorization.k8s.io", "clusterrolebindings"},
    {"admissionregistration.k8s.io", "validatingwebhookconfigurations"},
    {"admissionregistration.k8s.io", "mutatingwebhookconfigurations"},
    {"admissionregistration.k8s.io", "validatingadmissionpolicies"},
    {"admissionregistration.k8s.io", "validatingadmissionpolicybindings"},
    {"admissionregistration.k8s.io", "mutatingadmissionpolicies"},
    {"admissionregistration.k8s.io", "mutatingadmissionpolicybindings"},
    {"scheduling.k8s.io", "priorityclasses"},
    {"apiregistration.k8s.io", "apiservices"},
    {"apiextensions.k8s.io", "customresourcedefinitions"},
    {"node.k8s.io", "runtimeclasses"},
    {"resource.k8s.io", "devicetaintrules"},
    {"resource.k8s.io", "deviceclasses"},
    {"resource.k8s.io", "resourceclaims"},
    {"resource.k8s.io", "resourceclaimtemplates"},
    {"resource.k8s.io", "resourceslices"},
    {"internal.apiserver.k8s.io", "storageversions"},
};

// Served but never stored, so data.go leaves them out: kubernetes/kubernetes
// api/discovery/api__v1.json (bindings, componentstatuses), apis__authentication.k8s.io__v1.json
// and apis__authorization.k8s.io__v1.json (the reviews).
constexpr Served kNotStored[] = {
    {"", "bindings"},
    {"", "componentstatuses"},
    {"authentication.k8s.io", "selfsubjectreviews"},
    {"authentication.k8s.io", "tokenreviews"},
    {"authorization.k8s.io", "localsubjectaccessreviews"},
    {"authorization.k8s.io", "selfsubjectaccessreviews"},
    {"authorization.k8s.io", "selfsubjectrulesreviews"},
    {"authorization.k8s.io", "subjectaccessreviews"},
};

TEST(RightsCatalog, CoversEveryResourceKubernetesServes) {
  auto check = [](const Served& s) {
    EXPECT_NE(find_catalog_row(s.group, s.resource), nullptr)
        << "the catalogue lacks " << s.group << "/" << s.resource;
    EXPECT_NE(ResourceTable::builtin().find_resource(s.group, s.resource), nullptr)
        << "builtin_resources.tsv lacks " << s.group << "/" << s.resource;
  };
  for (const Served& s : kStored)
    check(s);
  for (const Served& s : kNotStored)
    check(s);
}

// Every resource and subresource of builtin_resources.tsv has a row, and every row is one of them.
TEST(RightsCatalog, MatchesTheBuiltinResourceTable) {
  std::set<std::string> tsv;
  for (const ResourceInfo& r : ResourceTable::builtin().all()) {
    tsv.insert(fmt::format("{}/{}/", r.group, r.resource));
    for (const std::string& sub : r.subresources)
      tsv.insert(fmt::format("{}/{}/{}", r.group, r.resource, sub));
  }
  std::set<std::string> catalogue;
  for (const CatalogRow& row : rights_catalog()) {
    std::string key = fmt::format("{}/{}/{}", row.group, row.resource, row.subresource);
    EXPECT_TRUE(catalogue.insert(key).second) << "twice in the catalogue: " << key;
    EXPECT_TRUE(tsv.contains(key)) << "not served: " << key;
  }
  for (const std::string& key : tsv)
    EXPECT_TRUE(catalogue.contains(key)) << "the catalogue lacks " << key;
}

// A harmless entry says why and has no severity; any other has a mark and a severity
// cluster-wide, and one for another team's namespace when the resource is namespaced. The
// consequences rbac-shared-object-write reports carry its fix and summary.
TEST(RightsCatalog, EveryEntryIsRatedOrSaysWhyItIsHarmless) {
  for (const CatalogRow& row : rights_catalog()) {
    const ResourceInfo* info = ResourceTable::builtin().find_resource(row.group, row.resource);
    ASSERT_NE(info, nullptr);
    for (VerbClass v :
         {VerbClass::kRead, VerbClass::kCreate, VerbClass::kModify, VerbClass::kDelete}) {
      const RightConsequence& c = row.of(v);
      std::string where =
          fmt::format("{}/{}/{} {}", row.group, row.resource, row.subresource, verb_class_name(v));
      EXPECT_FALSE(c.id.empty()) << where;
      EXPECT_FALSE(c.text.empty()) << where;
      if (c.harmless()) {
        EXPECT_FALSE(c.cluster_wide || c.other_team || c.own || !c.check.empty()) << where;
        continue;
      }
      EXPECT_TRUE(c.cluster_wide) << where;
      if (info->scope == Scope::kNamespaced && c.check == "rbac-shared-object-write") {
        EXPECT_TRUE(c.other_team) << where;
      }
      if (c.check == "rbac-shared-object-write") {
        EXPECT_FALSE(c.fix.empty()) << where;
        EXPECT_FALSE(c.summary.empty()) << where;
      }
    }
  }
}

// Spot checks of the rights issue 41 names, against what Kubernetes does with them.
TEST(RightsCatalog, RatesTheRightsReviewersFlag) {
  auto of = [](const char* group, const char* resource, const char* sub, VerbClass v) {
    const CatalogRow* row = find_catalog_row(group, resource, sub);
    EXPECT_NE(row, nullptr) << resource;
    return row ? &row->of(v) : nullptr;
  };
  // Taints and cordons steer every team's pods (kubectl cordon/taint patch the Node).
  EXPECT_EQ(of("", "nodes", "", VerbClass::kModify)->cluster_wide, Severity::kHigh);
  EXPECT_EQ(of("", "nodes", "status", VerbClass::kModify)->cluster_wide, Severity::kHigh);
  // Deleting a CRD deletes its objects (the apiextensions finalizer customresourcecleanup).
  EXPECT_EQ(of("apiextensions.k8s.io", "customresourcedefinitions", "", VerbClass::kDelete)->check,
            "rbac-shared-object-write");
  // Reading ConfigMaps is harmless; writing kube-system's is not.
  EXPECT_TRUE(of("", "configmaps", "", VerbClass::kRead)->harmless());
  EXPECT_EQ(of("", "configmaps", "", VerbClass::kModify)->cluster_wide, Severity::kHigh);
  EXPECT_FALSE(of("", "configmaps", "", VerbClass::kModify)->own);
  // An HPA scales like the scale subresource.
  EXPECT_EQ(of("autoscaling", "horizontalpodautoscalers", "", VerbClass::kModify),
            of("apps", "deployments", "scale", VerbClass::kModify));
  // GET on pods/exec is exec (WebSocket exec is authorized as get on 1.34, KEP-4006).
  EXPECT_EQ(of("", "pods", "exec", VerbClass::kRead)->check, "rbac-pod-exec");
  // Reviews grant nothing.
  EXPECT_TRUE(
      of("authorization.k8s.io", "subjectaccessreviews", "", VerbClass::kCreate)->harmless());
}

}  // namespace
}  // namespace footprint
