// Identity closure: every identity a subject of the bundle's bindings can become, followed to a
// fixed point through the ways Kubernetes lets one identity act as another, and the shortest
// chain that ends at cluster-admin. The identities are the bundle's, those every cluster has
// (the kube-system controller ServiceAccounts kube-controller-manager runs as with
// --use-service-account-credentials, the users and groups of the bootstrap policy, such as
// system:masters) and a --cluster snapshot's. Every question is asked of the RBAC engine.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "model/object.h"
#include "model/rbac.h"
#include "model/workloads.h"

namespace footprint {

// How one identity becomes the next.
enum class HopKind : uint8_t {
  kCreatePods,    // creates a pod, or a workload whose controller does, that runs as the account
  kTokenRequest,  // create serviceaccounts/token for the account
  // creates a Secret of type kubernetes.io/service-account-token naming the account, which the
  // token controller fills with a token, and reads it back
  kTokenSecret,
  kExec,         // exec, attach or an ephemeral container in a pod that runs as the account
  kImpersonate,  // impersonates the account, user or group
};

struct IdentityHop {
  HopKind kind;
  Subject to;
  // The request that takes the hop, in words ("create deployments.apps"), and where it holds:
  // "in every namespace" when a ClusterRoleBinding grants it, else "in namespace NS"; empty for
  // requests on no namespace (impersonating a user or group).
  std::string request;
  std::string ns;                        // the namespace it is asked in; empty for users and groups
  bool cluster_wide = false;             // granted by a ClusterRoleBinding
  const RbacBinding* binding = nullptr;  // the binding that grants it
  // For kExec: the workload whose pods run as `to`.
  const Object* pod_owner = nullptr;
};

struct IdentityChain {
  Subject subject;
  std::vector<IdentityHop> hops;  // at least one
  // Why the last identity is cluster-admin ("is bound to ClusterRole cluster-admin").
  std::string end;

  // "may create pods in namespace kube-system → a pod running as ServiceAccount
  // kube-system/x, which may escalate and update every ClusterRole: cluster-admin".
  std::string words() const;
};

// Why `who` holds cluster-admin's power, in words, or empty: every verb on every resource of
// every group cluster-wide (naming the role), group system:masters, escalate with update or patch
// on every ClusterRole (it may write any rule into a ClusterRole bound to it, and every
// authenticated identity is bound to some), or bind cluster-admin with creating
// ClusterRoleBindings.
std::string cluster_admin_reason(const RbacPolicy& policy, const Identity& who);

// For Context::identity_chains: per subject of the bundle's own bindings that is not itself
// cluster-admin, the shortest chain to an identity that is and whose first hop the bundle's
// bindings grant, in the order the subjects first appear. `pods` are the bundle's pod templates;
// `cluster` (or null) adds its ServiceAccounts and the pods of its workloads.
std::vector<IdentityChain> identity_chains(const RbacPolicy& policy, const Bundle& bundle,
                                           std::span<const PodTemplate> pods,
                                           const Bundle* cluster);

}  // namespace footprint
