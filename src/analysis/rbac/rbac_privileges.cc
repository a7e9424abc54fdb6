// RBAC privilege checks on data and workloads: reading Secrets, rights inside kube-system,
// deleting what others own, creating workloads and exec. Each right is judged where a binding of
// the bundle grants it (a Role's rule on a cluster-scoped resource grants nothing), one finding
// per subject, severity from what the right is equivalent to.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/context.h"
#include "analysis/models/rights.h"
#include "analysis/rbac/held_paths.h"
#include "analysis/rbac/rbac_internal.h"

namespace footprint {

namespace {

// The holders of `path` through ClusterRoleBindings, with those rights only.
std::vector<SubjectRights> cluster_wide_holders(const Context& ctx, std::string_view path) {
  std::vector<SubjectRights> out;
  for (const HeldEscalation& h : ctx.escalations) {
    if (h.path->id != path) continue;
    SubjectRights wide{h.rights.subject, {}};
    for (const Right& r : h.rights.rights) {
      if (r.grant.binding->cluster) wide.rights.push_back(r);
    }
    if (!wide.rights.empty()) out.push_back(std::move(wide));
  }
  return out;
}

void run_secrets_cluster_wide(const Context& ctx, Findings& out) {
  for (const SubjectRights& rr : cluster_wide_holders(ctx, "read-secrets")) {
    const IdentityChain* chain = chain_for(ctx, rr.subject, out.check());
    report_rights(
        out, rr, chain ? Severity::kCritical : Severity::kHigh,
        fmt::format("{} may read Secrets in every namespace ({}), through {}. That includes every "
                    "team's credentials and service account tokens.{}",
                    rr.subject.display(), merge_verbs(rr.what()), rr.sources(),
                    chain ? chain_sentence(*chain) : ""),
        "Grant Secret access with Roles in the namespaces the operator manages, or limit get "
        "with resourceNames.",
        fmt::format("{} reads Secrets in every namespace{}", rr.subject.display(),
                    chain ? ", and mints any ServiceAccount's token: cluster-admin" : ""));
  }
}

}  // namespace

extern const Check kRbacSecretsClusterWide{
    .id = "rbac-secrets-cluster-wide",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kCritical,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description = "get, list or watch on secrets is granted in all namespaces.",
    .run = run_secrets_cluster_wide,
    .rationale =
        "get, list or watch on Secrets through a ClusterRoleBinding reads every team's credentials "
        "and service account tokens. High; critical with create on Secrets too, which mints a "
        "token for any ServiceAccount (the token controller fills a Secret of type "
        "kubernetes.io/service-account-token), kube-system's controllers included: the finding "
        "names the chain to cluster-admin. Rules limited by resourceNames, and rules that grant "
        "everything (rbac-wildcard's), are not reported here.",
    .fix =
        "Grant Secret access with Roles in the namespaces the operator manages, or limit get with "
        "resourceNames.",
};

namespace {

// kube-system holds the cluster's own credentials and the ServiceAccounts of its controllers,
// some of which may escalate; its ConfigMaps configure cluster DNS (coredns) and, on EKS, map
// IAM identities to cluster users (aws-auth). Rights there are worth as much as their
// cluster-wide twins.
void run_kube_system_grant(const Context& ctx, Findings& out) {
  auto probe = [&](const BoundRule& b) {
    std::vector<Request> requests;
    if (b.binding->cluster || b.binding->namespace_ != "kube-system") return requests;
    auto add = [&](std::string_view verb, std::string_view group, std::string_view resource,
                   std::string_view sub = "") {
      if (grants(ctx.bundle.resources, b, verb, group, resource, sub))
        requests.push_back(probe_request(ctx.bundle.resources, b, verb, group, resource, sub));
    };
    for (const char* verb : {"get", "list"})
      add(verb, "", "secrets");
    for (const WorkloadResource& w : kPodCreators)
      add("create", w.group, w.resource);
    for (const char* verb : {"update", "patch"})
      add(verb, "", "configmaps");
    return requests;
  };
  for (const SubjectRights& rr : rights_by_subject(ctx.bound, probe)) {
    const IdentityChain* chain = chain_for(ctx, rr.subject, out.check());
    report_rights(
        out, rr, chain ? Severity::kCritical : Severity::kHigh,
        fmt::format("{} may {} in kube-system, through {}. kube-system holds the cluster's own "
                    "credentials and its controllers' ServiceAccounts (a pod created there can "
                    "run as one of them, and some may escalate ClusterRoles), and its "
                    "ConfigMaps configure cluster DNS and, on EKS, who is a cluster user "
                    "(aws-auth).{}",
                    rr.subject.display(), merge_verbs(rr.what()), rr.sources(),
                    chain ? chain_sentence(*chain) : ""),
        "Bind the operator's rights in its own namespace; in kube-system, grant only named "
        "objects (resourceNames) such as a leader-election lease.",
        fmt::format("{} may {} in kube-system{}", rr.subject.display(), some_of(rr.what(), 2),
                    chain ? ": cluster-admin" : ""));
  }
}

}  // namespace

extern const Check kRbacKubeSystemGrant{
    .id = "rbac-kube-system-grant",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kCritical,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description =
        "A RoleBinding in kube-system grants reading Secrets, creating workloads or changing "
        "ConfigMaps there.",
    .run = run_kube_system_grant,
    .rationale =
        "kube-system holds the cluster's own credentials and its controllers' ServiceAccounts, and "
        "its ConfigMaps configure cluster DNS and, on EKS, IAM-to-user mapping (aws-auth); a "
        "RoleBinding there that allows reading Secrets, creating pods or workloads, or changing "
        "ConfigMaps is as powerful as its cluster-wide twin. High; critical when that makes it "
        "cluster-admin: creating pods there runs them as clusterrole-aggregation-controller, and "
        "creating and reading Secrets there mints its token; the finding names the chain. Exec "
        "there is rbac-pod-exec's; "
        "rights limited by resourceNames (a leader-election lease) and rules that grant everything "
        "(rbac-wildcard's) are not reported here.",
    .fix =
        "Keep the operator's rights in its own namespace; in kube-system grant only named objects.",
};

extern const Check kRbacDestructiveDelete{
    .id = "rbac-destructive-delete",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kHigh,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description =
        "A binding allows deleting workloads, PersistentVolumes, claims, namespaces or events "
        "beyond the operator's namespaces.",
    .run = run_held_paths,
    .rationale =
        "delete or deletecollection of the workloads that create pods, of PersistentVolumes and "
        "PersistentVolumeClaims, and delete of namespaces stop other teams' work and can destroy "
        "their data: high in every namespace (or for the cluster-scoped PersistentVolumes and "
        "namespaces) and in kube-system, medium in another team's namespace; the operator's own "
        "namespaces are its business. Deleting pods alone restarts them (their controllers "
        "recreate them, and the scheduler deletes pods too): medium in every namespace, low in "
        "another team's. Deleting events erases what happened: low wherever it is granted. One "
        "finding per subject. Deleting every resource of every group is reported by rbac-wildcard.",
    .fix = "Grant delete only on the resources the operator manages, in its own namespaces.",
};

namespace {

void run_workload_create_cluster_wide(const Context& ctx, Findings& out) {
  for (const SubjectRights& rr : cluster_wide_holders(ctx, "create-workloads")) {
    const IdentityChain* chain = chain_for(ctx, rr.subject, out.check());
    report_rights(
        out, rr, chain ? Severity::kCritical : Severity::kHigh,
        fmt::format("{} may create workloads in every namespace ({}), through {}. A pod can run "
                    "as any ServiceAccount of its namespace, so this is equivalent to every "
                    "ServiceAccount's permissions in the cluster.{}",
                    rr.subject.display(), merge_verbs(rr.what()), rr.sources(),
                    chain ? chain_sentence(*chain) : ""),
        "Grant workload creation with Roles in the namespaces the operator manages, or "
        "restrict the operator to its own namespace.",
        fmt::format("{} creates pods in every namespace, as any ServiceAccount{}",
                    rr.subject.display(), chain ? ": cluster-admin" : ""));
  }
}

}  // namespace

extern const Check kRbacWorkloadCreateClusterWide{
    .id = "rbac-workload-create-cluster-wide",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kCritical,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description = "Creating pods or pod-creating workloads is granted in all namespaces.",
    .run = run_workload_create_cluster_wide,
    .rationale =
        "Creating pods, or workloads that create pods, in every namespace lets the holder run a "
        "pod as any ServiceAccount of any namespace, so it has every ServiceAccount's permissions. "
        "Critical when one of them is cluster-admin, as kube-system's clusterrole-aggregation-"
        "controller is on every cluster (it may escalate and update every ClusterRole): the "
        "finding names the chain; high otherwise.",
    .fix = "Grant workload creation with Roles in the namespaces the operator manages.",
};

namespace {

void run_pod_exec(const Context& ctx, Findings& out) {
  for (const std::vector<const HeldEscalation*>& held : held_by_subject(ctx, out.check())) {
    SubjectRights rr{held.front()->rights.subject, {}};
    Severity severity = Severity::kInfo;
    for (const HeldEscalation* h : held) {
      rr.rights.insert(rr.rights.end(), h->rights.rights.begin(), h->rights.rights.end());
      severity = std::max(severity, h->severity);
    }
    std::vector<std::string> what = rr.what();
    bool kubelet = std::any_of(what.begin(), what.end(),
                               [](const std::string& w) { return w.ends_with(" nodes/proxy"); });
    bool ephemeral = std::any_of(what.begin(), what.end(), [](const std::string& w) {
      return w.ends_with(" pods/ephemeralcontainers");
    });
    // A get without the create beside it, where only the WebSocket protocol reaches the stream.
    bool by_get = std::any_of(what.begin(), what.end(), [&](const std::string& w) {
      return w.starts_with("get ") && !contains(what, "create " + w.substr(4));
    });
    const IdentityChain* chain = chain_for(ctx, rr.subject, out.check());
    report_rights(
        out, rr, chain ? Severity::kCritical : severity,
        fmt::format(
            "{} may {} {}, through {}: running commands inside containers{}, with "
            "their mounted secrets and tokens{}.{}{}",
            rr.subject.display(), merge_verbs(what), kubelet ? "on every node" : scopes_text(rr),
            rr.sources(), kubelet ? " through the kubelet API of every node" : "",
            ephemeral ? " (an ephemeral container added to a pod runs what it is told)" : "",
            by_get ? " get is enough: on Kubernetes 1.34 the API server authorizes a "
                     "WebSocket exec, attach or port-forward as get (KEP-4006 requires "
                     "create from 1.35), and the kubelet authorizes its own WebSocket "
                     "endpoints the same way."
                   : "",
            chain ? chain_sentence(*chain) : ""),
        "Remove exec, attach, port-forward, ephemeral containers and nodes/proxy unless the "
        "operator needs them; prefer its own API over exec.",
        fmt::format("{} can exec into pods {}{}", rr.subject.display(),
                    kubelet ? "on every node" : scopes_text(rr), chain ? ": cluster-admin" : ""));
  }
}

}  // namespace

extern const Check kRbacPodExec{
    .id = "rbac-pod-exec",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kCritical,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description =
        "A rule allows pods/exec, pods/attach, pods/portforward, pods/ephemeralcontainers or "
        "nodes/proxy where it is bound.",
    .run = run_pod_exec,
    .rationale =
        "pods/exec, pods/attach and pods/portforward reach into running containers and their "
        "mounted credentials, and so does update or patch on pods/ephemeralcontainers (a container "
        "added to a running pod); nodes/proxy reaches the kubelet API of every node (Kubernetes' "
        "RBAC good practices, \"Access to proxy subresource of Nodes\"). Critical when a pod it "
        "reaches runs as a ServiceAccount that is cluster-admin (the finding names the chain); "
        "high cluster-wide, on nodes/proxy or in kube-system; medium in another team's namespace; "
        "low in the operator's own.",
    .fix = "Remove exec, attach, port-forward and nodes/proxy unless the operator needs them.",
};

}  // namespace footprint
