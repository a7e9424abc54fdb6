// RBAC checks over the paths of escalation_paths.h that no older check reports: PersistentVolume
// creation, writing bindings, certificate issuing, APIService, Namespace and NetworkPolicy writes.
// Each reads who holds its paths from Context::escalations, one finding per subject.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "analysis/context.h"
#include "analysis/rbac/escalation_paths.h"

namespace footprint {

namespace {

void run_persistent_volume_create(const Context& ctx, Findings& out) {
  report_held_paths(ctx, out, "rbac-persistent-volume-create");
}

}  // namespace

extern const Check kRbacPersistentVolumeCreate{
    "rbac-persistent-volume-create",
    Severity::kHigh,
    Severity::kHigh,
    Impact::kPrivilege,
    "rbac",
    "A ClusterRoleBinding allows creating PersistentVolumes.",
    run_persistent_volume_create,
    "Kubernetes' RBAC good practices, \"Persistent volume creation\": a PersistentVolume may be a "
    "hostPath volume, and a pod whose claim binds to it mounts the node's filesystem, which is "
    "root on that node. High: the usual power of a CSI driver's provisioner, which the approver "
    "should know about. PersistentVolumes are cluster-scoped, so only ClusterRoleBindings grant "
    "it.",
    "Leave PersistentVolumes to the cluster's provisioners; grant create only to a CSI driver's "
    "provisioner."};

namespace {

void run_certificate_signing(const Context& ctx, Findings& out) {
  report_held_paths(ctx, out, "rbac-certificate-signing");
}

}  // namespace

extern const Check kRbacCertificateSigning{
    "rbac-certificate-signing",
    Severity::kCritical,
    Severity::kCritical,
    Impact::kPrivilege,
    "rbac",
    "A subject may create CertificateSigningRequests, approve them, and approve for the "
    "kube-apiserver-client signer.",
    run_certificate_signing,
    "Kubernetes' RBAC good practices, \"CSRs and certificate issuing\": create on "
    "certificatesigningrequests, update on certificatesigningrequests/approval and approve on the "
    "signer kubernetes.io/kube-apiserver-client (or kubernetes.io/*) together issue a client "
    "certificate for any user and group but system:masters, which the "
    "CertificateSubjectRestriction "
    "admission plugin refuses; system:kube-controller-manager may mint a token for any "
    "ServiceAccount, so this is cluster-admin. Critical. Approvers of other signers (kubelet "
    "serving certificates) are not reported.",
    "Remove approve on the kube-apiserver-client signer; name the operator's own signer in "
    "resourceNames."};

namespace {

void run_apiservice_write(const Context& ctx, Findings& out) {
  report_held_paths(ctx, out, "rbac-apiservice-write");
}

}  // namespace

extern const Check kRbacApiServiceWrite{
    "rbac-apiservice-write",
    Severity::kHigh,
    Severity::kHigh,
    Impact::kPrivilege,
    "rbac",
    "A ClusterRoleBinding allows creating, changing or deleting any APIService.",
    run_apiservice_write,
    "An APIService decides which server answers an API group: writing any of them can repoint an "
    "aggregated API such as metrics.k8s.io to a server of one's own, which then receives those "
    "requests with each caller's identity, or remove the API. High. Rules limited by "
    "resourceNames to the operator's own APIService are not reported.",
    "Ship the APIService in the bundle, or limit update and patch to the operator's own with "
    "resourceNames."};

namespace {

void run_namespace_write(const Context& ctx, Findings& out) {
  report_held_paths(ctx, out, "rbac-namespace-write");
}

}  // namespace

extern const Check kRbacNamespaceWrite{
    "rbac-namespace-write",
    Severity::kLow,
    Severity::kHigh,
    Impact::kPrivilege,
    "rbac",
    "A binding allows patching or updating Namespace objects.",
    run_namespace_write,
    "Kubernetes' RBAC good practices, \"Namespace modification\": whoever may patch a Namespace "
    "may change its labels, and so move it out of Pod Security enforcement or into or out of the "
    "namespaceSelectors of webhooks and NetworkPolicies. A RoleBinding grants it on its own "
    "namespace's object (RequestInfo puts that request in the namespace). High cluster-wide or in "
    "kube-system; medium for another team's namespace; low for the operator's own.",
    "Ship the labels a namespace needs with the bundle's Namespace object and remove the right."};

namespace {

void run_network_policy_write(const Context& ctx, Findings& out) {
  report_held_paths(ctx, out, "rbac-network-policy-write");
}

}  // namespace

extern const Check kRbacNetworkPolicyWrite{
    "rbac-network-policy-write",
    Severity::kMedium,
    Severity::kHigh,
    Impact::kPrivilege,
    "rbac",
    "A binding allows deleting or rewriting NetworkPolicies outside the operator's namespaces.",
    run_network_policy_write,
    "Deleting or rewriting another team's NetworkPolicies removes their isolation. High in every "
    "namespace or in kube-system; medium in another team's namespace; the operator's own "
    "namespaces are its own business.",
    "Grant NetworkPolicy writes with Roles in the namespaces the operator manages."};

namespace {

// The built-in roles a binding may hand out, strongest first.
constexpr std::array<std::string_view, 4> kBuiltinRoles = {"cluster-admin", "admin", "edit",
                                                           "view"};

// Whether `who` holds every rule of `role` in `ns` ("" cluster-wide): the API server's
// ConfirmNoEscalation (pkg/registry/rbac/validation), asked of the authorizer tuple by tuple, as
// Covers breaks rules down. "*" is asked literally, so only a wildcard covers it.
bool holds_all(const RbacPolicy& policy, const Identity& who, const RbacRole& role,
               const std::string& ns) {
  for (const PolicyRule& rule : role.rules) {
    for (const std::string& verb : rule.verbs) {
      for (const std::string& url : rule.non_resource_urls) {
        Request r;
        r.verb = verb;
        r.path = url;
        if (!policy.authorize(who, r).allowed) return false;
      }
      for (const std::string& group : rule.api_groups) {
        for (const std::string& resource : rule.resources) {
          size_t slash = resource.find('/');
          std::string sub = slash == std::string::npos ? "" : resource.substr(slash + 1);
          std::vector<std::string> names = rule.resource_names;
          if (names.empty()) names.emplace_back();
          for (const std::string& name : names) {
            Request r = resource_request(verb, group, resource.substr(0, slash), ns, sub, name);
            if (!policy.authorize(who, r).allowed) return false;
          }
        }
      }
    }
  }
  return true;
}

// The strongest built-in ClusterRole `who` may bind in `ns`: with bind on it
// (BindingAuthorized), or holding all its rules (escalation_check.go, policybased storage).
std::string_view strongest_bindable(const Context& ctx, const Identity& who,
                                    const std::string& ns) {
  for (std::string_view name : kBuiltinRoles) {
    const RbacRole* role = ctx.rbac.find_role(true, "", name);
    if (!role) continue;
    Request bind = resource_request("bind", kRbacGroup, "clusterroles", "", "", name);
    if (ctx.rbac.authorize(who, bind).allowed || holds_all(ctx.rbac, who, *role, ns)) return name;
  }
  return "";
}

void run_binding_write(const Context& ctx, Findings& out) {
  for (const std::vector<const HeldEscalation*>& group :
       held_by_subject(ctx, "rbac-binding-write")) {
    const SubjectRights& rr = group.front()->rights;
    std::vector<std::string> what = rr.what();
    bool cluster_bindings = std::any_of(what.begin(), what.end(), [](const std::string& w) {
      return w.ends_with(" clusterrolebindings");
    });
    bool every_namespace = rr.cluster_wide();
    std::vector<std::string> scopes = rr.scopes();
    bool kube_system = contains(scopes, "kube-system");
    // Where it binds with the widest reach: cluster-wide, else kube-system, else its first
    // namespace.
    std::string ns =
        every_namespace || kube_system ? (every_namespace ? "" : "kube-system") : scopes.front();
    std::string_view role = strongest_bindable(ctx, identity_of(rr.subject), ns);
    // admin and edit read Secrets and create pods: in kube-system that is its controllers'
    // ServiceAccounts, and so the whole cluster.
    bool strong = role == "cluster-admin" || role == "admin" || role == "edit";
    bool wide = every_namespace || kube_system;
    Severity severity = strong && wide               ? Severity::kCritical
                        : wide                       ? Severity::kHigh
                        : foreign_namespace(ctx, ns) ? Severity::kMedium
                                                     : Severity::kLow;
    std::string where = cluster_bindings  ? "cluster-wide"
                        : every_namespace ? "in every namespace"
                                          : "in namespace " + ns;
    std::string consequence =
        role == "cluster-admin" && cluster_bindings ? ", which is full control of the cluster"
        : strong && wide ? ", which reaches kube-system's Secrets and pods, and through "
                           "its controllers' ServiceAccounts the whole cluster"
                         : "";
    std::string reach =
        role.empty()
            ? "none of the built-in roles: only roles whose every rule it holds itself, and it "
              "may hand those, this right included, to any user, group or ServiceAccount"
            : fmt::format("ClusterRole {} {}{}", role, where, consequence);
    report_rights(
        out, rr, severity,
        fmt::format("{} may {} {}, through {}. The API server lets it bind a role only with bind "
                    "on that role or when it already holds every rule of it; the strongest "
                    "built-in role it may bind to any subject, itself included, is {}.",
                    rr.subject.display(), merge_verbs(what),
                    cluster_bindings ? "cluster-wide" : scopes_text(rr), rr.sources(), reach),
        "Grant writing bindings only in the namespaces the operator manages, and drop bind and "
        "wildcard rules that let it bind roles stronger than it needs.",
        role.empty() ? fmt::format("{} writes bindings {}", rr.subject.display(), where)
                     : fmt::format("{} can bind {} {}", rr.subject.display(), role, where));
  }
}

}  // namespace

extern const Check kRbacBindingWrite{
    "rbac-binding-write",
    Severity::kLow,
    Severity::kCritical,
    Impact::kPrivilege,
    "rbac",
    "A binding allows creating or changing RoleBindings or ClusterRoleBindings.",
    run_binding_write,
    "Writing a binding hands a role to any subject. The API server allows it for a role the "
    "writer may bind (the bind verb) or whose every rule it already holds "
    "(pkg/registry/rbac/validation ConfirmNoEscalation), so the finding names the strongest "
    "built-in ClusterRole (cluster-admin, admin, edit, view) the engine says it may bind. "
    "Critical when that is cluster-admin, admin or edit (which read Secrets and create pods) "
    "cluster-wide or in kube-system; high for other rights cluster-wide or in kube-system; medium "
    "in another team's namespace; low in the operator's own.",
    "Grant writing bindings only where the operator manages them, without bind on strong roles."};

}  // namespace footprint
