// RBAC checks over the paths of escalation_paths.h that no older check reports: PersistentVolume
// creation, writing bindings, certificate issuing, APIService, Namespace and NetworkPolicy writes.
// Each reads who holds its paths from Context::escalations, one finding per subject; all but
// rbac-binding-write through run_held_paths.
#include <fmt/format.h>

#include "analysis/context.h"
#include "analysis/rbac/held_paths.h"

namespace footprint {

extern const Check kRbacPersistentVolumeCreate{
    .id = "rbac-persistent-volume-create",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description = "A ClusterRoleBinding allows creating PersistentVolumes.",
    .run = run_held_paths,
    .rationale =
        "Kubernetes' RBAC good practices, \"Persistent volume creation\": a PersistentVolume may "
        "be a hostPath volume, and a pod whose claim binds to it mounts the node's filesystem, "
        "which is root on that node. High: the usual power of a CSI driver's provisioner, which "
        "the approver should know about. PersistentVolumes are cluster-scoped, so only "
        "ClusterRoleBindings grant it.",
    .fix =
        "Leave PersistentVolumes to the cluster's provisioners; grant create only to a CSI "
        "driver's provisioner.",
};

extern const Check kRbacCertificateSigning{
    .id = "rbac-certificate-signing",
    .min_severity = Severity::kCritical,
    .max_severity = Severity::kCritical,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description =
        "A subject may create CertificateSigningRequests, approve them, and approve for the "
        "kube-apiserver-client signer.",
    .run = run_held_paths,
    .rationale =
        "Kubernetes' RBAC good practices, \"CSRs and certificate issuing\": create on "
        "certificatesigningrequests, update on certificatesigningrequests/approval and approve on "
        "the signer kubernetes.io/kube-apiserver-client (or kubernetes.io/*) together issue a "
        "client certificate for any user and group but system:masters, which the "
        "CertificateSubjectRestriction admission plugin refuses; system:kube-controller-manager "
        "may mint a token for any ServiceAccount, so this is cluster-admin. Critical. Approvers of "
        "other signers (kubelet serving certificates) are not reported.",
    .fix =
        "Remove approve on the kube-apiserver-client signer; name the operator's own signer in "
        "resourceNames.",
};

extern const Check kRbacApiServiceWrite{
    .id = "rbac-apiservice-write",
    .min_severity = Severity::kHigh,
    .max_severity = Severity::kHigh,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description = "A ClusterRoleBinding allows creating, changing or deleting any APIService.",
    .run = run_held_paths,
    .rationale =
        "An APIService decides which server answers an API group: writing any of them can repoint "
        "an aggregated API such as metrics.k8s.io to a server of one's own, which then receives "
        "those requests with each caller's identity, or remove the API. High. Rules limited by "
        "resourceNames to the operator's own APIService are not reported.",
    .fix =
        "Ship the APIService in the bundle, or limit update and patch to the operator's own with "
        "resourceNames.",
};

extern const Check kRbacNamespaceWrite{
    .id = "rbac-namespace-write",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kHigh,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description = "A binding allows patching or updating Namespace objects.",
    .run = run_held_paths,
    .rationale =
        "Kubernetes' RBAC good practices, \"Namespace modification\": whoever may patch a "
        "Namespace may change its labels, and so move it out of Pod Security enforcement or into "
        "or out of the namespaceSelectors of webhooks and NetworkPolicies. A RoleBinding grants it "
        "on its own namespace's object (RequestInfo puts that request in the namespace). High "
        "cluster-wide or in kube-system; medium for another team's namespace; low for the "
        "operator's own.",
    .fix =
        "Ship the labels a namespace needs with the bundle's Namespace object and remove the "
        "right.",
};

extern const Check kRbacNetworkPolicyWrite{
    .id = "rbac-network-policy-write",
    .min_severity = Severity::kMedium,
    .max_severity = Severity::kHigh,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description =
        "A binding allows deleting or rewriting NetworkPolicies outside the operator's namespaces.",
    .run = run_held_paths,
    .rationale =
        "Deleting or rewriting another team's NetworkPolicies removes their isolation. High in "
        "every namespace or in kube-system; medium in another team's namespace; the operator's own "
        "namespaces are its own business.",
    .fix = "Grant NetworkPolicy writes with Roles in the namespaces the operator manages.",
};

namespace {

void run_binding_write(const Context& ctx, Findings& out) {
  for (const std::vector<const HeldEscalation*>& group : held_by_subject(ctx, out.check())) {
    const SubjectRights& rr = group.front()->rights;
    BindingReach b = binding_reach(ctx, rr);
    bool strong = b.severity == Severity::kCritical;
    std::string where = b.cluster_bindings  ? "cluster-wide"
                        : b.every_namespace ? "in every namespace"
                                            : "in namespace " + b.ns;
    std::string consequence =
        b.role == "cluster-admin" && b.cluster_bindings ? ", which is full control of the cluster"
        : strong ? ", which reaches kube-system's Secrets and pods, and through its controllers' "
                   "ServiceAccounts the whole cluster"
                 : "";
    std::string reach =
        b.role.empty()
            ? "none of the built-in roles: only roles whose every rule it holds itself, and it "
              "may hand those, this right included, to any user, group or ServiceAccount"
            : fmt::format("ClusterRole {} {}{}", b.role, where, consequence);
    std::string message = fmt::format(
        "{} may {} {}, through {}. The API server lets it bind a role only with bind on that "
        "role or when it already holds every rule of it; the strongest built-in role it may bind "
        "to any subject, itself included, is {}.",
        rr.subject.display(), merge_verbs(rr.what()),
        b.cluster_bindings ? "cluster-wide" : scopes_text(rr), rr.sources(), reach);
    std::string fix =
        "Grant writing bindings only in the namespaces the operator manages, and drop bind and "
        "wildcard rules that let it bind roles stronger than it needs.";
    // The other RBAC-write path to the same end is this finding's too: rbac-privilege-escalation
    // does not rate it critical again for this subject.
    const BoundRule* rewrite = strong ? clusterrole_rewrite(ctx, rr.subject) : nullptr;
    if (rewrite) {
      message += fmt::format(
          " It may also escalate and update every ClusterRole, through {} (through {}), and so "
          "write every right into the ClusterRole bound to it: the same takeover without writing "
          "a binding.",
          rewrite->role->display(), rewrite->binding->display());
      fix += " Drop escalate on ClusterRoles as well, or limit it with resourceNames.";
    }
    report_rights(out, rr, b.severity, std::move(message), std::move(fix),
                  b.role.empty()
                      ? fmt::format("{} writes bindings {}", rr.subject.display(), where)
                      : fmt::format("{} can bind {} {}{}", rr.subject.display(), b.role, where,
                                    rewrite ? " (and may escalate every ClusterRole)" : ""));
  }
}

}  // namespace

extern const Check kRbacBindingWrite{
    .id = "rbac-binding-write",
    .min_severity = Severity::kLow,
    .max_severity = Severity::kCritical,
    .impact = Impact::kPrivilege,
    .area = Area::kRbac,
    .description = "A binding allows creating or changing RoleBindings or ClusterRoleBindings.",
    .run = run_binding_write,
    .rationale =
        "Writing a binding hands a role to any subject. The API server allows it for a role the "
        "writer may bind (the bind verb) or whose every rule it already holds "
        "(pkg/registry/rbac/validation ConfirmNoEscalation), so the finding names the strongest "
        "built-in ClusterRole (cluster-admin, admin, edit, view) the engine says it may bind. "
        "Critical when that is cluster-admin, admin or edit (which read Secrets and create pods) "
        "cluster-wide or in kube-system; high for other rights cluster-wide or in kube-system; "
        "medium in another team's namespace; low in the operator's own. A subject that may also "
        "escalate and update every ClusterRole reaches cluster-admin by that second path too: this "
        "finding names it, and rbac-privilege-escalation does not rate it critical again.",
    .fix =
        "Grant writing bindings only where the operator manages them, without bind on strong "
        "roles.",
};

}  // namespace footprint
