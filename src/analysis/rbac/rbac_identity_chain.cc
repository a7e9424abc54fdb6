// rbac-identity-chain: a subject that becomes cluster-admin through a chain of identities
// (Context::identity_chains) whose first hop no other check's finding names.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"
#include "analysis/rbac/held_paths.h"

namespace footprint {

namespace {

// The bundle's binding the finding points at: the one that grants the first hop, else the first
// that names the subject.
const RbacBinding* binding_of(const Context& ctx, const IdentityChain& chain) {
  const RbacBinding* first = chain.hops.front().binding;
  if (first && first->object) return first;
  for (const RbacBinding& b : ctx.rbac.bindings()) {
    if (!b.object) continue;
    for (const Subject& s : b.subjects) {
      Subject named = s;
      if (named.kind == SubjectKind::kServiceAccount && named.namespace_.empty())
        named.namespace_ = b.namespace_;
      if (named == chain.subject) return &b;
    }
  }
  return nullptr;
}

void run_identity_chain(const Context& ctx, Findings& out) {
  for (const IdentityChain& chain : ctx.identity_chains) {
    if (chain_check(ctx, chain) != out.check()) continue;
    const RbacBinding* b = binding_of(ctx, chain);
    if (!b) continue;
    std::string who = chain.subject.display();
    Finding& f = out.add(
        *b->object, Severity::kCritical,
        fmt::format("{} {}. That is cluster-admin, through {}.", who, chain.words(), b->display()),
        fmt::format("Remove the first step ({}), or keep the identity it reaches out of its "
                    "reach: no ServiceAccount bound to that much power in a namespace where "
                    "others create pods, Secrets or tokens.",
                    chain.hops.front().request),
        b->object->node.get("roleRef"));
    about_shared(f, who);  // one finding per subject
    f.summary =
        fmt::format("{} becomes cluster-admin through {}", who, chain.hops.back().to.display());
    std::vector<std::string> identities;
    for (const IdentityHop& h : chain.hops)
      identities.push_back(h.to.display());
    f.affects.emplace_back("subjects", std::vector<std::string>{who});
    f.affects.emplace_back("identities", identities);
  }
}

}  // namespace

extern const Check kRbacIdentityChain{
    .id = "rbac-identity-chain",
    .min_severity = Severity::kCritical,
    .max_severity = Severity::kCritical,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description =
        "A subject becomes cluster-admin through a chain of identities it can act as, starting "
        "with a right no other finding reports.",
    .run = run_identity_chain,
    .rationale =
        "Creating pods or workloads in a namespace runs them as any ServiceAccount there; "
        "create serviceaccounts/token mints a token; creating and reading a Secret of type "
        "kubernetes.io/service-account-token gets one from the token controller; exec, attach and "
        "ephemeral containers reach the token of a pod's account; impersonate acts as the "
        "account, user or group. Followed to the end through the bundle's subjects, the "
        "kube-system controllers every cluster has and a --cluster snapshot, a chain that ends at "
        "cluster-admin (every right, system:masters, escalate with update on every ClusterRole, "
        "or bind cluster-admin) is critical whichever way it is reached. The check that reports "
        "the first step (workload creation, kube-system grants, Secrets, exec, tokens and "
        "impersonation) names the chain in its own finding; this one reports the rest, such as "
        "creating pods in a namespace whose ServiceAccount is bound to cluster-admin.",
    .fix =
        "Remove the first step of the chain, or move the powerful ServiceAccount out of the "
        "namespace where others create pods.",
};

}  // namespace footprint
