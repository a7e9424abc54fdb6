// The table of escalation_paths.h and who holds each path. Requests are asked of the RBAC engine
// (rule_allows) bound rule by bound rule, scoped as the authorizer scopes them: a
// ClusterRoleBinding everywhere, a RoleBinding in its namespace only, and for cluster-scoped
// resources never, except a request on one Namespace object, which RequestInfo puts in that
// namespace.
#include "analysis/models/escalation_paths.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "analysis/models/rights_catalog.h"
#include "analysis/models/subject_index.h"

namespace footprint {

namespace {

using Step = std::vector<PathRequest>;

Step on(std::initializer_list<std::string_view> verbs, std::string_view group,
        std::initializer_list<std::string_view> resources, std::string_view subresource = "") {
  Step out;
  for (std::string_view resource : resources) {
    for (std::string_view verb : verbs)
      out.push_back(PathRequest{verb, group, resource, subresource, ""});
  }
  return out;
}

Step concat(std::initializer_list<Step> steps) {
  Step out;
  for (const Step& s : steps)
    out.insert(out.end(), s.begin(), s.end());
  return out;
}

// The catalogue's rights that rbac-shared-object-write reports, one path each, after the paths
// of the good-practices page: the requests are every verb of every (resource, verb class) whose
// consequence it is.
void add_catalog_paths(std::vector<EscalationPath>& paths) {
  std::vector<const RightConsequence*> seen;
  for (const CatalogRow& row : rights_catalog()) {
    for (VerbClass v :
         {VerbClass::kRead, VerbClass::kCreate, VerbClass::kModify, VerbClass::kDelete}) {
      const RightConsequence& c = row.of(v);
      if (c.check != "rbac-shared-object-write" || !c.cluster_wide) continue;
      if (std::find(seen.begin(), seen.end(), &c) == seen.end()) {
        seen.push_back(&c);
        paths.push_back(EscalationPath{.id = c.id,
                                       .docs_item = "",
                                       .check = c.check,
                                       .steps = {{}},
                                       .cluster_wide = *c.cluster_wide,
                                       .in_namespace = c.other_team.value_or(*c.cluster_wide),
                                       .own_namespace_reported = c.own.has_value(),
                                       .consequence = c.text,
                                       .fix = c.fix,
                                       .summary = c.summary,
                                       .named_objects = c.named_objects});
      }
      auto path = std::find_if(paths.begin(), paths.end(),
                               [&](const EscalationPath& p) { return p.id == c.id; });
      for (std::string_view verb : verbs_of(v))
        path->steps.front().push_back(
            PathRequest{verb, row.group, row.resource, row.subresource, ""});
    }
  }
}

std::vector<EscalationPath> make_paths() {
  constexpr std::string_view kCsr = "certificates.k8s.io";
  constexpr std::string_view kAdmission = "admissionregistration.k8s.io";
  Step pod_creators;
  Step workload_deletes;
  for (const WorkloadResource& w : kPodCreators) {
    pod_creators.push_back(PathRequest{"create", w.group, w.resource, "", ""});
    if (std::string_view(w.resource) == "pods") continue;  // delete-pods: a deleted pod comes back
    for (std::string_view verb : {"delete", "deletecollection"})
      workload_deletes.push_back(PathRequest{verb, w.group, w.resource, "", ""});
  }
  return {
      {"read-secrets",
       "Listing secrets",
       "rbac-secrets-cluster-wide",
       {on({"get", "list", "watch"}, "", {"secrets"})},
       Severity::kHigh,
       Severity::kMedium,
       true,
       "that reads every team's credentials and service account tokens",
       "Grant Secret access with Roles in the namespaces the operator manages, or limit get with "
       "resourceNames.",
       "read Secrets"},
      {"create-workloads",
       "Workload creation",
       "rbac-workload-create-cluster-wide",
       {pod_creators},
       Severity::kHigh,
       Severity::kMedium,
       true,
       "a pod can run as any ServiceAccount of its namespace, so this is every ServiceAccount's "
       "permissions there",
       "Grant workload creation with Roles in the namespaces the operator manages.",
       "create workloads"},
      {"create-persistentvolumes",
       "Persistent volume creation",
       "rbac-persistent-volume-create",
       {on({"create"}, "", {"persistentvolumes"})},
       Severity::kHigh,
       Severity::kHigh,
       true,
       "a PersistentVolume may be a hostPath volume, so a pod whose claim binds to it mounts the "
       "node's own filesystem: root on that node, with the kubelet's credentials and the secrets "
       "of every pod there",
       "Leave creating PersistentVolumes to the cluster's provisioners (StorageClasses and claims) "
       "and grant it only to a CSI driver's provisioner. Pod Security does not stop this: the "
       "pod names a claim, not a hostPath volume.",
       "create hostPath PersistentVolumes"},
      {"node-proxy",
       "Access to proxy subresource of Nodes",
       "rbac-pod-exec",
       {on({"get", "create"}, "", {"nodes"}, "proxy")},
       Severity::kHigh,
       Severity::kHigh,
       true,
       "the kubelet API of every node runs commands in any of its containers, bypassing audit "
       "and admission",
       "Remove nodes/proxy; read node metrics through nodes/metrics or the metrics API.",
       "reach every kubelet"},
      {"exec-into-pods",
       "",
       "rbac-pod-exec",
       {concat({on({"create", "get"}, "", {"pods"}, "exec"),
                on({"create", "get"}, "", {"pods"}, "attach"),
                on({"create", "get"}, "", {"pods"}, "portforward"),
                on({"update", "patch"}, "", {"pods"}, "ephemeralcontainers")})},
       Severity::kHigh,
       Severity::kMedium,
       true,
       "running commands inside containers, with their mounted secrets and tokens (an ephemeral "
       "container added to a pod is a command run in it)",
       "Remove exec, attach, port-forward, ephemeral containers and nodes/proxy unless the "
       "operator needs them.",
       "exec into pods"},
      {"escalate",
       "Escalate verb",
       "rbac-privilege-escalation",
       {on({"escalate"}, "rbac.authorization.k8s.io", {"clusterroles", "roles"})},
       Severity::kHigh,
       Severity::kMedium,
       true,
       "it may write any rule into the roles it may change, beyond what it holds",
       "Remove escalate unless managing RBAC is the operator's purpose.",
       "escalate roles"},
      {"bind",
       "Bind verb",
       "rbac-privilege-escalation",
       {on({"bind"}, "rbac.authorization.k8s.io", {"clusterroles", "roles"})},
       Severity::kHigh,
       Severity::kMedium,
       true,
       "it may bind roles with more rights than it holds",
       "Remove bind, or limit it with resourceNames to the roles the operator hands out.",
       "bind stronger roles"},
      {"write-bindings",
       "Bind verb",
       "rbac-binding-write",
       {on({"create", "update", "patch"}, "rbac.authorization.k8s.io",
           {"clusterrolebindings", "rolebindings"})},
       Severity::kCritical,
       Severity::kMedium,
       true,
       "it may hand any role it can bind to any user, group or ServiceAccount, itself included",
       "Grant writing bindings only in the namespaces the operator manages, and bind only roles "
       "the operator holds.",
       "write bindings"},
      {"impersonate",
       "Impersonate verb",
       "rbac-privilege-escalation",
       {concat({on({"impersonate"}, "", {"users", "groups", "serviceaccounts"}),
                on({"impersonate"}, "authentication.k8s.io", {"uids"})})},
       Severity::kCritical,
       Severity::kMedium,
       true,
       "it acts as the users, groups or ServiceAccounts it impersonates, with their rights",
       "Remove impersonate, or limit it with resourceNames to the identities the operator needs.",
       "impersonate others"},
      {"issue-certificates",
       "CSRs and certificate issuing",
       "rbac-certificate-signing",
       // CertificateSigningRequest approval asks for approve on the signer by name, then on
       // its domain's wildcard (plugin/pkg/admission/certificates/util.go).
       {on({"create"}, kCsr, {"certificatesigningrequests"}),
        on({"update", "patch"}, kCsr, {"certificatesigningrequests"}, "approval"),
        {PathRequest{"approve", kCsr, "signers", "", "kubernetes.io/kube-apiserver-client"},
         PathRequest{"approve", kCsr, "signers", "", "kubernetes.io/*"}}},
       Severity::kCritical,
       Severity::kCritical,
       true,
       "it may ask for and approve a client certificate of the kube-apiserver-client signer for "
       "any user and group but system:masters (the CertificateSubjectRestriction admission "
       "plugin refuses that one), such as system:kube-controller-manager, which may create a "
       "token for any ServiceAccount, or a group a cluster-admin binding names",
       "Remove approve on the kube-apiserver-client signer (or on kubernetes.io/*); an operator "
       "that approves its own CSRs names its own signer in resourceNames.",
       "issue client certificates for any user but system:masters"},
      {"request-tokens",
       "Token request",
       "rbac-privilege-escalation",
       {on({"create"}, "", {"serviceaccounts"}, "token")},
       Severity::kCritical,
       Severity::kMedium,
       true,
       "it may mint a token for any ServiceAccount in its reach, with its rights",
       "Limit create serviceaccounts/token with resourceNames to the accounts the operator "
       "issues tokens for, in its own namespace.",
       "mint ServiceAccount tokens"},
      {"write-admission",
       "Control admission webhooks",
       "rbac-webhook-config-write",
       {on({"create", "update", "patch", "delete"}, kAdmission,
           {"mutatingwebhookconfigurations", "validatingwebhookconfigurations",
            "validatingadmissionpolicies", "validatingadmissionpolicybindings",
            "mutatingadmissionpolicies", "mutatingadmissionpolicybindings"})},
       Severity::kHigh,
       Severity::kHigh,
       true,
       "webhooks read every object they intercept and mutating ones change it; admission "
       "policies reject or change requests",
       "Limit update and patch with resourceNames to the operator's own configurations.",
       "rewrite admission",
       Severity::kLow},
      {"write-crds",
       "",
       "rbac-crd-write",
       {on({"create", "update", "patch"}, "apiextensions.k8s.io", {"customresourcedefinitions"})},
       Severity::kMedium,
       Severity::kMedium,
       true,
       "it may install CustomResourceDefinitions beyond the bundle, and rewrite other projects' "
       "APIs (schemas, versions, conversion)",
       "Ship the CRDs in the bundle and remove the right, or limit update and patch to the "
       "operator's own CRDs with resourceNames.",
       "install or rewrite CRDs",
       Severity::kLow},
      {"write-apiservices",
       "",
       "rbac-apiservice-write",
       {on({"create", "update", "patch", "delete"}, "apiregistration.k8s.io", {"apiservices"})},
       Severity::kHigh,
       Severity::kHigh,
       true,
       "an APIService decides which server answers an API group, so it may repoint an aggregated "
       "API such as metrics.k8s.io (kubectl top, HorizontalPodAutoscalers) to a server of its "
       "own, which then receives those requests with each caller's user name and groups, or "
       "remove the API",
       "Ship the APIService in the bundle and remove the right, or limit update and patch with "
       "resourceNames to the operator's own APIService.",
       "repoint any APIService"},
      {"modify-namespaces",
       "Namespace modification",
       "rbac-namespace-write",
       {on({"patch", "update"}, "", {"namespaces"})},
       Severity::kHigh,
       Severity::kMedium,
       true,
       "it may relabel a namespace out of Pod Security enforcement (pod-security.kubernetes.io/"
       "enforce) and into or out of the namespaceSelectors of webhooks and NetworkPolicies",
       "Remove patch and update on namespaces; ship the labels a namespace needs with the "
       "bundle's Namespace object.",
       "relabel namespaces"},
      {"write-network-policies",
       "",
       "rbac-network-policy-write",
       {on({"delete", "deletecollection", "update", "patch"}, "networking.k8s.io",
           {"networkpolicies"})},
       Severity::kHigh,
       Severity::kMedium,
       false,
       "deleting or rewriting another team's NetworkPolicies removes their isolation",
       "Grant NetworkPolicy writes with Roles in the namespaces the operator manages.",
       "delete or rewrite NetworkPolicies"},
      {"delete-workloads",
       "",
       "rbac-destructive-delete",
       {workload_deletes},
       Severity::kHigh,
       Severity::kMedium,
       false,
       "that stops every team's workloads it reaches",
       "Grant delete with Roles in the namespaces the operator manages.",
       "delete workloads"},
      // A pod's controller recreates it, and the scheduler (preemption) and the node lifecycle
      // controller delete pods too: a restart, not a stop, except for a pod nothing owns.
      {"delete-pods",
       "",
       "rbac-destructive-delete",
       {on({"delete", "deletecollection"}, "", {"pods"})},
       Severity::kMedium,
       Severity::kLow,
       false,
       "their controllers recreate them, so that restarts every team's pods it reaches (a pod "
       "that no controller owns is lost)",
       "Grant delete on pods with Roles in the namespaces the operator manages.",
       "delete pods"},
      {"delete-volumes",
       "",
       "rbac-destructive-delete",
       {on({"delete", "deletecollection"}, "", {"persistentvolumes", "persistentvolumeclaims"})},
       Severity::kHigh,
       Severity::kMedium,
       false,
       "deleting a claim or volume can delete the data behind it (reclaim policy Delete)",
       "Grant delete on claims with Roles in the namespaces the operator manages, and on "
       "PersistentVolumes only to a provisioner.",
       "delete PersistentVolumes or claims"},
      {"delete-namespaces",
       "",
       "rbac-destructive-delete",
       {on({"delete"}, "", {"namespaces"})},
       Severity::kHigh,
       Severity::kMedium,
       false,
       "deleting a namespace deletes everything in it",
       "Grant delete on namespaces only for the namespaces the operator creates, with "
       "resourceNames.",
       "delete namespaces"},
      {"delete-events",
       "",
       "rbac-destructive-delete",
       {concat({on({"delete", "deletecollection"}, "", {"events"}),
                on({"delete", "deletecollection"}, "events.k8s.io", {"events"})})},
       Severity::kLow,
       Severity::kLow,
       true,
       "deleting events erases the record of what happened, which is how incidents are "
       "understood",
       "Never grant delete on events.",
       "delete events"},
  };
}

// Requests on what no API serves, which the API server asks the authorizer without a namespace:
// impersonating a user, group or UID (staging/src/k8s.io/apiserver/pkg/endpoints/filters/
// impersonation.go) and approving for a signer (plugin/pkg/admission/certificates/util.go). A
// RoleBinding never grants them.
bool without_namespace(const PathRequest& p) {
  return (p.group.empty() && (p.resource == "users" || p.resource == "groups")) ||
         (p.group == "authentication.k8s.io" && p.resource == "uids") ||
         (p.group == "certificates.k8s.io" && p.resource == "signers");
}

// The request `p` as bound rule `b` would be asked it, or nothing when `b` cannot grant it
// (a RoleBinding and a cluster-scoped resource).
// The rule limits `request` to the objects it names (create names none).
bool limited_to_names(const PolicyRule& rule, std::string_view verb) {
  return !rule.resource_names.empty() && verb != "create" && verb != "deletecollection";
}

std::optional<Request> scoped_request(const ResourceTable& resources, const BoundRule& b,
                                      const EscalationPath& path, const PathRequest& p) {
  // Most rules allow none of a path's requests: asked first, before the resource's scope is
  // looked up (the object's name is asked below, once it is known).
  if (!verb_matches(*b.rule, p.verb) || !api_group_matches(*b.rule, p.group) ||
      !resource_matches(*b.rule, p.resource, p.subresource)) {
    return std::nullopt;
  }
  std::string_view ns;
  std::string_view name = p.name;
  if (path.named_objects && name.empty() && limited_to_names(*b.rule, p.verb))
    name = b.rule->resource_names.front();
  if (!b.binding->cluster) {
    const ResourceInfo* info = resources.find_resource(p.group, p.resource);
    bool cluster_scoped = (info && info->scope == Scope::kCluster) || without_namespace(p);
    if (!cluster_scoped) {
      ns = b.binding->namespace_;
    } else if (p.group.empty() && p.resource == "namespaces") {
      // RequestInfo puts a request on one Namespace object in that namespace.
      ns = b.binding->namespace_;
      name = b.binding->namespace_;
    } else {
      return std::nullopt;
    }
  }
  // Asked before the Request is built: most rules allow none of a path's requests.
  if (!rule_allows_resource(*b.rule, p.verb, p.group, p.resource, p.subresource, name)) {
    return std::nullopt;
  }
  return resource_request(p.verb, p.group, p.resource, ns, p.subresource, name);
}

std::optional<Severity> severity_in(const ForeignNamespaces& foreign, const EscalationPath& path,
                                    const std::string& scope) {
  if (scope.empty() || scope == "kube-system") return path.cluster_wide;
  if (foreign(scope)) return path.in_namespace;
  if (!path.own_namespace_reported) return std::nullopt;
  return std::min(path.in_namespace, Severity::kLow);
}

}  // namespace

const std::vector<EscalationPath>& escalation_paths() {
  static const std::vector<EscalationPath> kPaths = [] {
    std::vector<EscalationPath> paths = make_paths();
    add_catalog_paths(paths);
    return paths;
  }();
  return kPaths;
}

const EscalationPath* find_escalation_path(std::string_view id) {
  for (const EscalationPath& p : escalation_paths()) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

std::string requests_text(const EscalationPath& path) {
  std::vector<std::string> steps;
  for (const std::vector<PathRequest>& step : path.steps) {
    std::vector<std::string> requests;
    for (const PathRequest& p : step) {
      std::string r =
          fmt::format("{} {}", p.verb, group_resource(p.group, p.resource, p.subresource));
      if (!p.name.empty()) r += fmt::format(" ({})", p.name);
      requests.push_back(std::move(r));
    }
    steps.push_back(merge_verbs(requests));
  }
  return fmt::format("{}", fmt::join(steps, " + "));
}

std::span<const UncoveredPractice> uncovered_practices() {
  static constexpr UncoveredPractice kUncovered[] = {
      {"Object creation denial-of-service",
       "Whether many or large objects can exhaust the cluster depends on its ResourceQuotas "
       "(object counts per namespace), which the bundle does not show."},
  };
  return kUncovered;
}

std::vector<HeldEscalation> held_escalations(const ResourceTable& resources,
                                             std::span<const BoundRule> bound,
                                             std::span<const ClusterNamespace> namespaces) {
  std::vector<HeldEscalation> out;
  ForeignNamespaces foreign(namespaces);
  for (const EscalationPath& path : escalation_paths()) {
    // Per step, who takes it; a subject holds the path when it takes every step.
    std::vector<std::vector<SubjectRights>> steps;
    for (const std::vector<PathRequest>& step : path.steps) {
      steps.push_back(rights_by_subject(bound, [&](const BoundRule& b) {
        std::vector<Request> requests;
        for (const PathRequest& p : step) {
          std::optional<Request> r = scoped_request(resources, b, path, p);
          if (!r) continue;
          // Of a pair of requests for the same object (the signer and its domain wildcard),
          // the first is enough.
          bool same = std::any_of(requests.begin(), requests.end(), [&](const Request& q) {
            return q.verb == r->verb && q.resource == r->resource && q.api_group == r->api_group &&
                   q.subresource == r->subresource;
          });
          if (!same) requests.push_back(std::move(*r));
        }
        return requests;
      }));
    }
    if (steps.empty()) continue;
    std::vector<std::unordered_map<Subject, const SubjectRights*, SubjectHash>> by_subject;
    for (const std::vector<SubjectRights>& step : steps) {
      by_subject.emplace_back().reserve(step.size());
      for (const SubjectRights& s : step)
        by_subject.back().emplace(s.subject, &s);
    }
    for (const SubjectRights& first : steps.front()) {
      HeldEscalation held{&path, SubjectRights{first.subject, {}}, Severity::kInfo};
      bool every_step = true;
      for (const auto& step : by_subject) {
        auto it = step.find(first.subject);
        if (it == step.end()) {
          every_step = false;
          break;
        }
        for (const Right& r : it->second->rights) {
          std::optional<Severity> s = severity_in(foreign, path, scope_of(r.grant));
          if (!s) continue;
          bool named = std::all_of(r.requests.begin(), r.requests.end(), [&](const Request& q) {
            return limited_to_names(*r.grant.rule, q.verb);
          });
          if (path.named_objects && named) s = std::min(*s, *path.named_objects);
          held.severity = std::max(held.severity, *s);
          held.rights.rights.push_back(r);
        }
      }
      if (every_step && !held.rights.rights.empty()) out.push_back(std::move(held));
    }
  }
  return out;
}

}  // namespace footprint
