// The table of rights_catalog.h. Severities follow the consequence as the escalation paths rate
// theirs: high for what reaches every team or the control plane, medium for one other team,
// nothing in the operator's own namespace (rewriting its own objects is its job).
#include "analysis/models/rights_catalog.h"

#include <array>

namespace footprint {

namespace {

constexpr Severity kLow = Severity::kLow;
constexpr Severity kMedium = Severity::kMedium;
constexpr Severity kHigh = Severity::kHigh;
constexpr std::string_view kShared = "rbac-shared-object-write";

// Harmless rights, with the reason.
constexpr RightConsequence kNotServed{
    .id = "not-served", .text = "the API server serves no request of this class here"};
constexpr RightConsequence kReadPlain{
    .id = "read-plain",
    .text = "reading shows specifications and status, no credentials, and changes nothing"};
constexpr RightConsequence kReadConfig{
    .id = "read-configmaps",
    .text = "ConfigMaps hold configuration, not credentials (Secrets do); reading changes nothing"};
constexpr RightConsequence kReview{
    .id = "review",
    .text =
        "a review asks the API server who may do what, or whose token this is; it grants "
        "nothing"};
constexpr RightConsequence kStatusRewritten{
    .id = "status-rewritten",
    .text = "a status its own controller keeps rewriting, which nothing else acts on"};
constexpr RightConsequence kEvents{
    .id = "write-events",
    .text = "events are a record that expires after an hour; nothing acts on them"};
constexpr RightConsequence kNewNamespace{
    .id = "create-namespaces", .text = "a new namespace is empty and belongs to no other team"};
constexpr RightConsequence kUnboundAccount{
    .id = "write-serviceaccounts",
    .text = "a ServiceAccount has no rights until a binding names it; writing one grants nothing"};
constexpr RightConsequence kUnboundRole{
    .id = "create-roles",
    .text =
        "a new role grants nothing until bound, and the API server lets it hold only rules "
        "its writer holds"};
constexpr RightConsequence kPodTemplates{
    .id = "write-podtemplates", .text = "no built-in controller runs a PodTemplate object"};
constexpr RightConsequence kCsrRequest{
    .id = "write-csrs",
    .text = "a request is only a request: approving and signing it are other rights"};
constexpr RightConsequence kPcrRequest{
    .id = "create-podcertificaterequests",
    .text = "a request is only a request: a signer issues the certificate"};
constexpr RightConsequence kKubeletVerbs{
    .id = "node-proxy-writes",
    .text = "the kubelet runs commands only for requests authorized as get or create"};

// Rights an older check reports: the escalation paths of escalation_paths.h.
constexpr RightConsequence kReadSecrets{.id = "read-secrets",
                                        .mark = "reads secrets",
                                        .text = "reads every team's credentials and tokens",
                                        .cluster_wide = kHigh,
                                        .other_team = kMedium,
                                        .own = kLow,
                                        .check = "rbac-secrets-cluster-wide"};
constexpr RightConsequence kCreateWorkloads{
    .id = "create-workloads",
    .mark = "creates workloads",
    .text = "a pod runs as any ServiceAccount of its namespace, with its rights",
    .cluster_wide = kHigh,
    .other_team = kMedium,
    .own = kLow,
    .check = "rbac-workload-create-cluster-wide"};
constexpr RightConsequence kDeleteWorkloads{.id = "delete-workloads",
                                            .mark = "deletes workloads",
                                            .text = "stops the workloads it reaches",
                                            .cluster_wide = kHigh,
                                            .other_team = kMedium,
                                            .check = "rbac-destructive-delete"};
constexpr RightConsequence kDeleteVolumes{
    .id = "delete-volumes",
    .mark = "deletes volumes",
    .text = "deleting a claim or volume can delete the data behind it",
    .cluster_wide = kHigh,
    .other_team = kMedium,
    .check = "rbac-destructive-delete"};
constexpr RightConsequence kDeleteNamespaces{.id = "delete-namespaces",
                                             .mark = "deletes namespaces",
                                             .text = "deletes everything in a namespace",
                                             .cluster_wide = kHigh,
                                             .other_team = kMedium,
                                             .check = "rbac-destructive-delete"};
constexpr RightConsequence kDeleteEvents{.id = "delete-events",
                                         .mark = "deletes events",
                                         .text = "erases the record of what happened",
                                         .cluster_wide = kLow,
                                         .other_team = kLow,
                                         .own = kLow,
                                         .check = "rbac-destructive-delete"};
constexpr RightConsequence kCreatePersistentVolumes{
    .id = "create-persistentvolumes",
    .mark = "creates volumes",
    .text = "a hostPath PersistentVolume mounts a node's filesystem into a pod",
    .cluster_wide = kHigh,
    .check = "rbac-persistent-volume-create"};
constexpr RightConsequence kExec{.id = "exec-into-pods",
                                 .mark = "execs into pods",
                                 .text = "runs commands in containers, with their tokens",
                                 .cluster_wide = kHigh,
                                 .other_team = kMedium,
                                 .own = kLow,
                                 .check = "rbac-pod-exec"};
constexpr RightConsequence kNodeProxy{.id = "node-proxy",
                                      .mark = "execs into pods",
                                      .text = "every kubelet's API runs commands in its containers",
                                      .cluster_wide = kHigh,
                                      .check = "rbac-pod-exec"};
constexpr RightConsequence kRequestTokens{.id = "request-tokens",
                                          .mark = "escalates privileges",
                                          .text = "mints a token for any ServiceAccount in reach",
                                          .cluster_wide = Severity::kCritical,
                                          .other_team = kMedium,
                                          .own = kLow,
                                          .check = "rbac-privilege-escalation"};
constexpr RightConsequence kWriteBindings{
    .id = "write-bindings",
    .mark = "writes bindings",
    .text = "hands roles it may bind to any subject, itself included",
    .cluster_wide = Severity::kCritical,
    .other_team = kMedium,
    .own = kLow,
    .check = "rbac-binding-write"};
constexpr RightConsequence kApproveCsrs{
    .id = "approve-csrs",
    .mark = "approves CSRs",
    .text = "approves certificate requests for the signers it may approve (approve on signers)",
    .cluster_wide = Severity::kCritical,
    .check = "rbac-certificate-signing"};
constexpr RightConsequence kWriteAdmission{
    .id = "write-admission",
    .mark = "changes webhooks",
    .text = "reads, changes or rejects every request admission sees",
    .cluster_wide = kHigh,
    .check = "rbac-webhook-config-write"};
constexpr RightConsequence kWriteCrds{.id = "write-crds",
                                      .mark = "changes CRDs",
                                      .text = "installs or rewrites other projects' APIs",
                                      .cluster_wide = kMedium,
                                      .check = "rbac-crd-write"};
constexpr RightConsequence kWriteApiServices{
    .id = "write-apiservices",
    .mark = "repoints APIServices",
    .text = "decides which server answers an API group, with each caller's identity",
    .cluster_wide = kHigh,
    .check = "rbac-apiservice-write"};
constexpr RightConsequence kRelabelNamespaces{
    .id = "modify-namespaces",
    .mark = "relabels namespaces",
    .text = "moves a namespace out of Pod Security and webhook or NetworkPolicy selectors",
    .cluster_wide = kHigh,
    .other_team = kMedium,
    .own = kLow,
    .check = "rbac-namespace-write"};
constexpr RightConsequence kWriteNetworkPolicies{.id = "write-network-policies",
                                                 .mark = "rewrites NetworkPolicies",
                                                 .text = "removes other teams' network isolation",
                                                 .cluster_wide = kHigh,
                                                 .other_team = kMedium,
                                                 .check = "rbac-network-policy-write"};

// Rights rbac-shared-object-write reports.
constexpr RightConsequence kSteerNodes{
    .id = "steer-nodes",
    .mark = "taints nodes",
    .text =
        "taints, labels or cordons any node, which steers every team's pods onto or off it "
        "and evicts them (NoExecute)",
    .cluster_wide = kHigh,
    .check = kShared,
    .fix =
        "Leave node labels and taints to the cluster's administrators and node agents; an "
        "agent that labels its own node runs as a DaemonSet with the node's name in "
        "resourceNames.",
    .summary = "taint or cordon nodes"};
constexpr RightConsequence kRegisterNodes{
    .id = "register-nodes",
    .mark = "registers nodes",
    .text = "registers Node objects, onto which the scheduler places other teams' pods",
    .cluster_wide = kMedium,
    .check = kShared,
    .fix = "Nodes register themselves through the kubelet; remove create on nodes.",
    .summary = "register nodes"};
constexpr RightConsequence kDeleteNodes{
    .id = "delete-nodes",
    .mark = "deletes nodes",
    .text = "deleting a Node makes the pod garbage collector delete every pod bound to it",
    .cluster_wide = kHigh,
    .check = kShared,
    .fix = "Remove delete on nodes; node lifecycle belongs to the cluster's administrators.",
    .summary = "delete nodes"};
constexpr RightConsequence kNodeStatus{
    .id = "node-status",
    .mark = "rewrites node status",
    .text =
        "rewrites what a node reports (conditions, capacity, addresses): its pods are evicted "
        "or the API server's requests to its kubelet go elsewhere",
    .cluster_wide = kHigh,
    .check = kShared,
    .fix = "Only the kubelet writes node status; remove update and patch on nodes/status.",
    .summary = "rewrite node status"};
constexpr RightConsequence kStorageClasses{
    .id = "write-storageclasses",
    .mark = "changes StorageClasses",
    .text =
        "decides which provisioner and parameters every team's new claims get (a class it "
        "marks default takes every claim without one)",
    .cluster_wide = kHigh,
    .check = kShared,
    .fix =
        "Ship the StorageClasses in the bundle and remove the right, or limit update and "
        "patch to the operator's own with resourceNames.",
    .summary = "change StorageClasses",
    .named_objects = kLow};
constexpr RightConsequence kCsiDrivers{
    .id = "write-csidrivers",
    .mark = "changes CSIDrivers",
    .text =
        "changes how every kubelet mounts a driver's volumes (attach, pod information and "
        "the ServiceAccount tokens it hands the driver)",
    .cluster_wide = kMedium,
    .check = kShared,
    .fix = "Ship the CSIDriver in the bundle and remove the right.",
    .summary = "change CSIDrivers",
    .named_objects = kLow};
constexpr RightConsequence kVolumeAttachments{
    .id = "write-volumeattachments",
    .mark = "attaches volumes",
    .text =
        "attaches any PersistentVolume, another team's data included, to any node, or "
        "detaches it from the pods using it",
    .cluster_wide = kHigh,
    .check = kShared,
    .fix = "Only a CSI driver's attacher writes VolumeAttachments; remove the right elsewhere.",
    .summary = "attach volumes"};
constexpr RightConsequence kScaleWorkloads{
    .id = "scale-workloads",
    .mark = "scales workloads",
    .text = "scales workloads up until the cluster is full, or down to none",
    .cluster_wide = kHigh,
    .other_team = kMedium,
    .check = kShared,
    .fix =
        "Grant scale and HorizontalPodAutoscaler writes with Roles in the namespaces the "
        "operator manages.",
    .summary = "scale workloads"};
constexpr RightConsequence kInterceptTraffic{
    .id = "intercept-traffic",
    .mark = "redirects traffic",
    .text =
        "re-points other teams' Services (selectors, endpoints, external and load-balancer "
        "IPs, CVE-2020-8554) to pods of its own, which then receive that traffic; "
        "cluster-wide or in kube-system that includes cluster DNS",
    .cluster_wide = kHigh,
    .other_team = kMedium,
    .check = kShared,
    .fix = "Grant Service and endpoint writes with Roles in the namespaces the operator manages.",
    .summary = "redirect or delete Services"};
constexpr RightConsequence kCutTraffic{
    .id = "delete-services",
    .mark = "deletes Services",
    .text = "cuts other teams' traffic (cluster-wide or in kube-system: cluster DNS too)",
    .cluster_wide = kHigh,
    .other_team = kMedium,
    .check = kShared,
    .fix = "Grant Service and endpoint deletes with Roles in the namespaces the operator manages.",
    .summary = "redirect or delete Services"};
constexpr RightConsequence kResourceClaims{
    .id = "write-resourceclaims",
    .mark = "changes device claims",
    .text =
        "creates, changes or deletes other teams' device claims, so their pods lose or "
        "never get their devices",
    .cluster_wide = kMedium,
    .other_team = kLow,
    .check = kShared,
    .fix = "Grant ResourceClaim writes with Roles in the namespaces the operator manages.",
    .summary = "change device claims"};
constexpr RightConsequence kAllocateDevices{
    .id = "allocate-devices",
    .mark = "allocates devices",
    .text =
        "writes a claim's allocation, so it takes devices other teams' pods hold, or frees "
        "them while in use",
    .cluster_wide = kHigh,
    .other_team = kMedium,
    .check = kShared,
    .fix = "Only the scheduler and a DRA driver write claim status; remove the right elsewhere.",
    .summary = "allocate devices"};
constexpr RightConsequence kDeviceClasses{
    .id = "write-deviceclasses",
    .mark = "changes DeviceClasses",
    .text = "decides which devices every team's claims of a class select",
    .cluster_wide = kMedium,
    .check = kShared,
    .fix =
        "Ship the DeviceClasses in the bundle and remove the right, or limit update and patch "
        "to the operator's own with resourceNames.",
    .summary = "change DeviceClasses",
    .named_objects = kLow};
constexpr RightConsequence kResourceSlices{
    .id = "write-resourceslices",
    .mark = "advertises devices",
    .text =
        "advertises or withdraws devices on any node, so the scheduler places pods on "
        "devices that are not there",
    .cluster_wide = kMedium,
    .check = kShared,
    .fix = "Only a DRA driver publishes its ResourceSlices; remove the right elsewhere.",
    .summary = "advertise devices"};
constexpr RightConsequence kDeviceTaints{
    .id = "write-devicetaintrules",
    .mark = "taints devices",
    .text = "taints devices, which evicts the pods using them",
    .cluster_wide = kHigh,
    .check = kShared,
    .fix = "Leave device taints to the cluster's administrators.",
    .summary = "taint devices"};
constexpr RightConsequence kDeleteCrds{
    .id = "delete-crds",
    .mark = "deletes CRDs",
    .text = "deleting a CRD deletes every object of that type, other teams' included",
    .cluster_wide = kHigh,
    .check = kShared,
    .fix =
        "Remove delete on customresourcedefinitions, or limit it with resourceNames to the "
        "operator's own CRDs.",
    .summary = "delete CRDs",
    .named_objects = kLow};
constexpr RightConsequence kLeases{
    .id = "write-leases",
    .mark = "takes leases",
    .text =
        "holds or breaks other teams' leader-election leases, so their controllers stop; "
        "cluster-wide or in kube-system also kube-controller-manager's and kube-scheduler's "
        "(every controller or the scheduler stops), and the nodes' heartbeats in "
        "kube-node-lease",
    .cluster_wide = kHigh,
    .other_team = kLow,
    .check = kShared,
    .fix =
        "Grant leases with a Role in the operator's own namespace, where its leader election "
        "runs.",
    .summary = "take leases"};
constexpr RightConsequence kCreateLeases{
    .id = "create-leases",
    .mark = "creates leases",
    .text = "a new lease cannot take one that exists, only one a component has not created yet",
    .cluster_wide = kLow,
    .other_team = kLow};
constexpr RightConsequence kCreateConfigMaps{
    .id = "create-configmaps",
    .mark = "creates ConfigMaps",
    .text =
        "a new ConfigMap cannot overwrite one that exists, only one a component reads but has "
        "not created yet",
    .cluster_wide = kMedium,
    .other_team = kLow};
constexpr RightConsequence kLeaseCandidates{
    .id = "write-leasecandidates",
    .mark = "joins leader elections",
    .text = "enters or removes candidates in the control plane's coordinated leader election",
    .cluster_wide = kMedium,
    .other_team = kLow};
constexpr RightConsequence kConfigMaps{
    .id = "write-configmaps",
    .mark = "rewrites ConfigMaps",
    .text =
        "rewrites other teams' configuration; cluster-wide or in kube-system also CoreDNS's "
        "and kube-proxy's (all cluster DNS and Service routing) and, on EKS, aws-auth (who is "
        "a cluster user)",
    .cluster_wide = kHigh,
    .other_team = kMedium,
    .check = kShared,
    .fix = "Grant ConfigMap writes with Roles in the namespaces the operator manages.",
    .summary = "rewrite or delete ConfigMaps"};
constexpr RightConsequence kDeleteConfigMaps{
    .id = "delete-configmaps",
    .mark = "deletes ConfigMaps",
    .text =
        "deletes other teams' configuration; cluster-wide or in kube-system also CoreDNS's "
        "and kube-proxy's",
    .cluster_wide = kMedium,
    .other_team = kLow,
    .check = kShared,
    .fix = "Grant ConfigMap deletes with Roles in the namespaces the operator manages.",
    .summary = "rewrite or delete ConfigMaps"};
constexpr RightConsequence kPriorityClasses{
    .id = "write-priorityclasses",
    .mark = "changes PriorityClasses",
    .text =
        "sets the priorities the scheduler preempts by (a globalDefault class applies to "
        "every new pod), or removes a class every pod naming it then fails without",
    .cluster_wide = kMedium,
    .check = kShared,
    .fix = "Ship the PriorityClasses in the bundle and remove the right.",
    .summary = "change PriorityClasses",
    .named_objects = kLow};
constexpr RightConsequence kRuntimeClasses{
    .id = "write-runtimeclasses",
    .mark = "changes RuntimeClasses",
    .text =
        "decides which runtime handler (a sandbox such as gVisor or Kata, or plain runc) and "
        "which nodes every pod naming a RuntimeClass gets",
    .cluster_wide = kMedium,
    .check = kShared,
    .fix = "Ship the RuntimeClasses in the bundle and remove the right.",
    .summary = "change RuntimeClasses",
    .named_objects = kLow};
constexpr RightConsequence kFlowControl{
    .id = "write-flowcontrol",
    .mark = "throttles API access",
    .text =
        "decides how much of the API server each user gets: a FlowSchema may put other "
        "teams or the control plane in a priority level that rejects their requests",
    .cluster_wide = kHigh,
    .check = kShared,
    .fix = "Leave API Priority and Fairness to the cluster's administrators; remove the right.",
    .summary = "throttle API access"};
constexpr RightConsequence kVolumeAttachmentStatus{
    .id = "volumeattachment-status",
    .mark = "marks volumes attached",
    .text = "marks volumes attached or detached, so pods start without their data or wait",
    .cluster_wide = kMedium};

// Rights only the Permissions table shows.
constexpr RightConsequence kBindPods{
    .id = "bind-pods",
    .mark = "places pods",
    .text = "places pods on any node, past the scheduler's taints and affinity",
    .cluster_wide = kMedium,
    .other_team = kLow};
constexpr RightConsequence kModifyWorkloads{
    .id = "modify-workloads",
    .mark = "rewrites workloads",
    .text =
        "rewrites a workload's pods (image, ServiceAccount): runs other code with the "
        "namespace's ServiceAccounts",
    .cluster_wide = kHigh,
    .other_team = kMedium};
constexpr RightConsequence kRevisions{
    .id = "write-controllerrevisions",
    .mark = "rewrites rollout history",
    .text = "rewrites the revisions a DaemonSet or StatefulSet rolls back to",
    .cluster_wide = kLow,
    .other_team = kLow};
constexpr RightConsequence kEvict{.id = "evict-pods",
                                  .mark = "evicts pods",
                                  .text = "evicts pods, as far as PodDisruptionBudgets allow",
                                  .cluster_wide = kMedium,
                                  .other_team = kLow};
constexpr RightConsequence kPodLogs{.id = "read-logs",
                                    .mark = "reads logs",
                                    .text = "reads containers' logs, which may hold data or tokens",
                                    .cluster_wide = kLow,
                                    .other_team = kLow};
constexpr RightConsequence kProxy{
    .id = "proxy",
    .mark = "proxies to pods",
    .text = "reaches pods' and Services' ports through the API server, past NetworkPolicies",
    .cluster_wide = kMedium,
    .other_team = kLow};
constexpr RightConsequence kResize{.id = "resize-pods",
                                   .mark = "resizes pods",
                                   .text = "changes running pods' CPU and memory",
                                   .cluster_wide = kMedium,
                                   .other_team = kLow};
constexpr RightConsequence kPodStatus{
    .id = "pod-status",
    .mark = "rewrites pod status",
    .text = "rewrites pod conditions, which decide Service endpoints and rollouts",
    .cluster_wide = kLow,
    .other_team = kLow};
constexpr RightConsequence kQuotas{
    .id = "write-quotas",
    .mark = "changes quotas",
    .text = "sets other teams' quotas and limits: their new pods are refused, or unbounded",
    .cluster_wide = kMedium,
    .other_team = kLow};
constexpr RightConsequence kClaimVolumes{
    .id = "create-claims",
    .mark = "claims volumes",
    .text =
        "a claim naming a free PersistentVolume (volumeName) gets its data; claims use the "
        "namespace's storage quota",
    .cluster_wide = kMedium,
    .other_team = kLow};
constexpr RightConsequence kResizeClaims{.id = "modify-claims",
                                         .mark = "resizes claims",
                                         .text = "expands other teams' volumes (and their cost)",
                                         .cluster_wide = kLow,
                                         .other_team = kLow};
constexpr RightConsequence kRebindVolumes{
    .id = "modify-persistentvolumes",
    .mark = "rebinds volumes",
    .text = "rebinds a volume to another claim (claimRef) or sets its reclaim policy to Delete",
    .cluster_wide = kHigh};
constexpr RightConsequence kVolumeStatus{
    .id = "persistentvolume-status",
    .mark = "frees volumes",
    .text = "marks a bound volume Available, so the binder hands its data to another claim",
    .cluster_wide = kMedium};
constexpr RightConsequence kTokenSecrets{
    .id = "create-secrets",
    .mark = "mints tokens (token Secrets)",
    .text =
        "a Secret of type kubernetes.io/service-account-token naming an account is filled "
        "with a long-lived token for it",
    .cluster_wide = Severity::kCritical,
    .other_team = kMedium,
    .own = kLow};
constexpr RightConsequence kWriteSecrets{
    .id = "modify-secrets",
    .mark = "rewrites secrets",
    .text = "rewrites credentials other workloads use (certificates, registry passwords)",
    .cluster_wide = kHigh,
    .other_team = kMedium};
constexpr RightConsequence kDeleteSecrets{
    .id = "delete-secrets",
    .mark = "deletes secrets",
    .text = "deletes other teams' credentials, so their pods fail to start",
    .cluster_wide = kMedium,
    .other_team = kLow};
constexpr RightConsequence kDeleteAccounts{
    .id = "delete-serviceaccounts",
    .mark = "deletes ServiceAccounts",
    .text = "deletes accounts other teams' pods run as, with their token Secrets",
    .cluster_wide = kMedium,
    .other_team = kLow};
constexpr RightConsequence kFinalize{
    .id = "finalize-namespaces",
    .mark = "finalizes namespaces",
    .text = "removes a terminating namespace's finalizers, so its objects escape cleanup",
    .cluster_wide = kLow};
constexpr RightConsequence kDeleteRbac{
    .id = "delete-rbac",
    .mark = "deletes RBAC",
    .text = "removes other teams' and components' rights, so they stop working",
    .cluster_wide = kHigh,
    .other_team = kMedium};
constexpr RightConsequence kModifyRoles{
    .id = "modify-roles",
    .mark = "rewrites roles",
    .text = "adds rules it holds to roles others are bound to, or removes theirs",
    .cluster_wide = kMedium,
    .other_team = kLow};
constexpr RightConsequence kCsrStatus{
    .id = "csr-status",
    .mark = "issues certificates",
    .text = "writes the issued certificate for the signers it may sign (sign on signers)",
    .cluster_wide = kMedium};
constexpr RightConsequence kTrustBundles{
    .id = "write-clustertrustbundles",
    .mark = "changes trust bundles",
    .text = "changes which certificate authorities pods that mount a bundle trust",
    .cluster_wide = kMedium};
constexpr RightConsequence kIngresses{
    .id = "write-ingresses",
    .mark = "routes ingress",
    .text = "routes other teams' host names to backends of its own, or takes them offline",
    .cluster_wide = kMedium,
    .other_team = kLow};
constexpr RightConsequence kIngressStatus{
    .id = "ingress-status",
    .mark = "publishes addresses",
    .text = "sets the addresses external DNS controllers publish for a host",
    .cluster_wide = kLow,
    .other_team = kLow};
constexpr RightConsequence kIngressClasses{
    .id = "write-ingressclasses",
    .mark = "changes IngressClasses",
    .text = "decides which controller serves Ingresses without a class (the default class)",
    .cluster_wide = kMedium};
constexpr RightConsequence kServiceAddresses{
    .id = "write-service-ranges",
    .mark = "changes Service IPs",
    .text = "changes the ranges Service IPs come from, or reserves and frees them",
    .cluster_wide = kMedium};
constexpr RightConsequence kIsolate{
    .id = "create-network-policies",
    .mark = "isolates pods",
    .text = "a deny-all NetworkPolicy cuts other teams' pods off the network",
    .cluster_wide = kMedium,
    .other_team = kLow};
constexpr RightConsequence kDisruptionBudgets{
    .id = "write-poddisruptionbudgets",
    .mark = "changes disruption budgets",
    .text = "blocks node drains and upgrades, or lets evictions take other teams' pods",
    .cluster_wide = kMedium,
    .other_team = kLow};
constexpr RightConsequence kClaimTemplates{
    .id = "write-resourceclaimtemplates",
    .mark = "changes claim templates",
    .text = "changes the device claims other teams' new pods make",
    .cluster_wide = kLow,
    .other_team = kLow};
constexpr RightConsequence kCsiNodes{
    .id = "write-csinodes",
    .mark = "changes CSINodes",
    .text = "changes which drivers and volume limits a node reports",
    .cluster_wide = kMedium};
constexpr RightConsequence kStorageCapacity{.id = "write-csistoragecapacities",
                                            .mark = "misreports capacity",
                                            .text = "misleads the scheduler about storage capacity",
                                            .cluster_wide = kLow,
                                            .other_team = kLow};
constexpr RightConsequence kVolumeAttributes{
    .id = "write-volumeattributesclasses",
    .mark = "changes volume classes",
    .text = "changes the performance every claim of a VolumeAttributesClass gets",
    .cluster_wide = kMedium};
constexpr RightConsequence kStorageVersions{
    .id = "write-storageversions",
    .mark = "misreports storage",
    .text = "misleads storage migration about how objects are stored",
    .cluster_wide = kLow};
constexpr RightConsequence kMigrations{
    .id = "write-storageversionmigrations",
    .mark = "rewrites stored objects",
    .text = "rewrites every object of a resource in etcd: load on the API server",
    .cluster_wide = kLow};
constexpr RightConsequence kPodCertificates{
    .id = "podcertificaterequest-status",
    .mark = "issues pod certificates",
    .text = "issues pods' certificates for the signers it may sign",
    .cluster_wide = kMedium,
    .other_team = kLow};

// Shorthands for the rows.
constexpr const RightConsequence* kNo = &kNotServed;
constexpr const RightConsequence* kPlain = &kReadPlain;

// A row whose only verbs are those of a status subresource (get, update, patch).
constexpr CatalogRow status_row(std::string_view group, std::string_view resource,
                                const RightConsequence* modify = &kStatusRewritten) {
  return {group, resource, "status", kPlain, kNo, modify, kNo};
}
constexpr CatalogRow review_row(std::string_view group, std::string_view resource) {
  return {group, resource, "", kNo, &kReview, kNo, kNo};
}
constexpr CatalogRow workload_row(std::string_view group, std::string_view resource) {
  return {group, resource, "", kPlain, &kCreateWorkloads, &kModifyWorkloads, &kDeleteWorkloads};
}
constexpr CatalogRow scale_row(std::string_view group, std::string_view resource) {
  return {group, resource, "scale", kPlain, kNo, &kScaleWorkloads, kNo};
}
constexpr CatalogRow same_row(std::string_view group, std::string_view resource,
                              const RightConsequence* write) {
  return {group, resource, "", kPlain, write, write, write};
}

constexpr std::string_view kAdmission = "admissionregistration.k8s.io";
constexpr std::string_view kResource = "resource.k8s.io";
constexpr std::string_view kStorage = "storage.k8s.io";

constexpr auto kRows = std::to_array<CatalogRow>({
    {"", "bindings", "", kNo, &kBindPods, kNo, kNo},
    {"", "componentstatuses", "", kPlain, kNo, kNo, kNo},
    {"", "configmaps", "", &kReadConfig, &kCreateConfigMaps, &kConfigMaps, &kDeleteConfigMaps},
    {"", "endpoints", "", kPlain, &kInterceptTraffic, &kInterceptTraffic, &kCutTraffic},
    {"", "events", "", kPlain, &kEvents, &kEvents, &kDeleteEvents},
    same_row("", "limitranges", &kQuotas),
    {"", "namespaces", "", kPlain, &kNewNamespace, &kRelabelNamespaces, &kDeleteNamespaces},
    {"", "namespaces", "finalize", kNo, kNo, &kFinalize, kNo},
    status_row("", "namespaces"),
    {"", "nodes", "", kPlain, &kRegisterNodes, &kSteerNodes, &kDeleteNodes},
    {"", "nodes", "proxy", &kNodeProxy, &kNodeProxy, &kKubeletVerbs, &kKubeletVerbs},
    status_row("", "nodes", &kNodeStatus),
    {"", "persistentvolumeclaims", "", kPlain, &kClaimVolumes, &kResizeClaims, &kDeleteVolumes},
    status_row("", "persistentvolumeclaims"),
    {"", "persistentvolumes", "", kPlain, &kCreatePersistentVolumes, &kRebindVolumes,
     &kDeleteVolumes},
    status_row("", "persistentvolumes", &kVolumeStatus),
    {"", "pods", "", kPlain, &kCreateWorkloads, &kModifyWorkloads, &kDeleteWorkloads},
    {"", "pods", "attach", &kExec, &kExec, kNo, kNo},
    {"", "pods", "binding", kNo, &kBindPods, kNo, kNo},
    {"", "pods", "ephemeralcontainers", kPlain, kNo, &kExec, kNo},
    {"", "pods", "eviction", kNo, &kEvict, kNo, kNo},
    {"", "pods", "exec", &kExec, &kExec, kNo, kNo},
    {"", "pods", "log", &kPodLogs, kNo, kNo, kNo},
    {"", "pods", "portforward", &kExec, &kExec, kNo, kNo},
    {"", "pods", "proxy", &kProxy, &kProxy, &kProxy, &kProxy},
    {"", "pods", "resize", kPlain, kNo, &kResize, kNo},
    status_row("", "pods", &kPodStatus),
    same_row("", "podtemplates", &kPodTemplates),
    workload_row("", "replicationcontrollers"),
    scale_row("", "replicationcontrollers"),
    status_row("", "replicationcontrollers"),
    same_row("", "resourcequotas", &kQuotas),
    status_row("", "resourcequotas", &kQuotas),
    {"", "secrets", "", &kReadSecrets, &kTokenSecrets, &kWriteSecrets, &kDeleteSecrets},
    {"", "serviceaccounts", "", kPlain, &kUnboundAccount, &kUnboundAccount, &kDeleteAccounts},
    {"", "serviceaccounts", "token", kNo, &kRequestTokens, kNo, kNo},
    {"", "services", "", kPlain, &kInterceptTraffic, &kInterceptTraffic, &kCutTraffic},
    {"", "services", "proxy", &kProxy, &kProxy, &kProxy, &kProxy},
    status_row("", "services", &kInterceptTraffic),
    same_row(kAdmission, "mutatingadmissionpolicies", &kWriteAdmission),
    same_row(kAdmission, "mutatingadmissionpolicybindings", &kWriteAdmission),
    same_row(kAdmission, "mutatingwebhookconfigurations", &kWriteAdmission),
    same_row(kAdmission, "validatingadmissionpolicies", &kWriteAdmission),
    status_row(kAdmission, "validatingadmissionpolicies"),
    same_row(kAdmission, "validatingadmissionpolicybindings", &kWriteAdmission),
    same_row(kAdmission, "validatingwebhookconfigurations", &kWriteAdmission),
    {"apiextensions.k8s.io", "customresourcedefinitions", "", kPlain, &kWriteCrds, &kWriteCrds,
     &kDeleteCrds},
    status_row("apiextensions.k8s.io", "customresourcedefinitions"),
    same_row("apiregistration.k8s.io", "apiservices", &kWriteApiServices),
    status_row("apiregistration.k8s.io", "apiservices"),
    same_row("apps", "controllerrevisions", &kRevisions),
    workload_row("apps", "daemonsets"),
    status_row("apps", "daemonsets"),
    workload_row("apps", "deployments"),
    scale_row("apps", "deployments"),
    status_row("apps", "deployments"),
    workload_row("apps", "replicasets"),
    scale_row("apps", "replicasets"),
    status_row("apps", "replicasets"),
    workload_row("apps", "statefulsets"),
    scale_row("apps", "statefulsets"),
    status_row("apps", "statefulsets"),
    review_row("authentication.k8s.io", "selfsubjectreviews"),
    review_row("authentication.k8s.io", "tokenreviews"),
    review_row("authorization.k8s.io", "localsubjectaccessreviews"),
    review_row("authorization.k8s.io", "selfsubjectaccessreviews"),
    review_row("authorization.k8s.io", "selfsubjectrulesreviews"),
    review_row("authorization.k8s.io", "subjectaccessreviews"),
    {"autoscaling", "horizontalpodautoscalers", "", kPlain, &kScaleWorkloads, &kScaleWorkloads,
     &kScaleWorkloads},
    status_row("autoscaling", "horizontalpodautoscalers"),
    workload_row("batch", "cronjobs"),
    status_row("batch", "cronjobs"),
    workload_row("batch", "jobs"),
    status_row("batch", "jobs"),
    same_row("certificates.k8s.io", "certificatesigningrequests", &kCsrRequest),
    {"certificates.k8s.io", "certificatesigningrequests", "approval", kPlain, kNo, &kApproveCsrs,
     kNo},
    status_row("certificates.k8s.io", "certificatesigningrequests", &kCsrStatus),
    same_row("certificates.k8s.io", "clustertrustbundles", &kTrustBundles),
    {"certificates.k8s.io", "podcertificaterequests", "", kPlain, &kPcrRequest, &kPcrRequest,
     &kPcrRequest},
    status_row("certificates.k8s.io", "podcertificaterequests", &kPodCertificates),
    {"coordination.k8s.io", "leases", "", kPlain, &kCreateLeases, &kLeases, &kLeases},
    same_row("coordination.k8s.io", "leasecandidates", &kLeaseCandidates),
    {"discovery.k8s.io", "endpointslices", "", kPlain, &kInterceptTraffic, &kInterceptTraffic,
     &kCutTraffic},
    {"events.k8s.io", "events", "", kPlain, &kEvents, &kEvents, &kDeleteEvents},
    same_row("flowcontrol.apiserver.k8s.io", "flowschemas", &kFlowControl),
    status_row("flowcontrol.apiserver.k8s.io", "flowschemas"),
    same_row("flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations", &kFlowControl),
    status_row("flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations"),
    same_row("internal.apiserver.k8s.io", "storageversions", &kStorageVersions),
    status_row("internal.apiserver.k8s.io", "storageversions", &kStorageVersions),
    same_row("networking.k8s.io", "ingressclasses", &kIngressClasses),
    same_row("networking.k8s.io", "ingresses", &kIngresses),
    status_row("networking.k8s.io", "ingresses", &kIngressStatus),
    same_row("networking.k8s.io", "ipaddresses", &kServiceAddresses),
    {"networking.k8s.io", "networkpolicies", "", kPlain, &kIsolate, &kWriteNetworkPolicies,
     &kWriteNetworkPolicies},
    same_row("networking.k8s.io", "servicecidrs", &kServiceAddresses),
    status_row("networking.k8s.io", "servicecidrs"),
    same_row("node.k8s.io", "runtimeclasses", &kRuntimeClasses),
    same_row("policy", "poddisruptionbudgets", &kDisruptionBudgets),
    status_row("policy", "poddisruptionbudgets"),
    {"rbac.authorization.k8s.io", "clusterrolebindings", "", kPlain, &kWriteBindings,
     &kWriteBindings, &kDeleteRbac},
    {"rbac.authorization.k8s.io", "clusterroles", "", kPlain, &kUnboundRole, &kModifyRoles,
     &kDeleteRbac},
    {"rbac.authorization.k8s.io", "rolebindings", "", kPlain, &kWriteBindings, &kWriteBindings,
     &kDeleteRbac},
    {"rbac.authorization.k8s.io", "roles", "", kPlain, &kUnboundRole, &kModifyRoles, &kDeleteRbac},
    same_row(kResource, "deviceclasses", &kDeviceClasses),
    same_row(kResource, "devicetaintrules", &kDeviceTaints),
    same_row(kResource, "resourceclaims", &kResourceClaims),
    status_row(kResource, "resourceclaims", &kAllocateDevices),
    same_row(kResource, "resourceclaimtemplates", &kClaimTemplates),
    same_row(kResource, "resourceslices", &kResourceSlices),
    same_row("scheduling.k8s.io", "priorityclasses", &kPriorityClasses),
    same_row(kStorage, "csidrivers", &kCsiDrivers),
    same_row(kStorage, "csinodes", &kCsiNodes),
    same_row(kStorage, "csistoragecapacities", &kStorageCapacity),
    same_row(kStorage, "storageclasses", &kStorageClasses),
    same_row(kStorage, "volumeattachments", &kVolumeAttachments),
    status_row(kStorage, "volumeattachments", &kVolumeAttachmentStatus),
    same_row(kStorage, "volumeattributesclasses", &kVolumeAttributes),
    same_row("storagemigration.k8s.io", "storageversionmigrations", &kMigrations),
    status_row("storagemigration.k8s.io", "storageversionmigrations"),
});

constexpr std::array<std::string_view, 3> kReadVerbs = {"get", "list", "watch"};
constexpr std::array<std::string_view, 1> kCreateVerbs = {"create"};
constexpr std::array<std::string_view, 2> kModifyVerbs = {"update", "patch"};
constexpr std::array<std::string_view, 2> kDeleteVerbs = {"delete", "deletecollection"};

}  // namespace

std::span<const std::string_view> verbs_of(VerbClass verb_class) {
  switch (verb_class) {
    case VerbClass::kRead:
      return kReadVerbs;
    case VerbClass::kCreate:
      return kCreateVerbs;
    case VerbClass::kModify:
      return kModifyVerbs;
    case VerbClass::kDelete:
      return kDeleteVerbs;
  }
  return {};
}

std::string_view verb_class_name(VerbClass verb_class) {
  switch (verb_class) {
    case VerbClass::kRead:
      return "read";
    case VerbClass::kCreate:
      return "create";
    case VerbClass::kModify:
      return "modify";
    case VerbClass::kDelete:
      return "delete";
  }
  return "";
}

const RightConsequence& CatalogRow::of(VerbClass verb_class) const {
  switch (verb_class) {
    case VerbClass::kRead:
      return *read;
    case VerbClass::kCreate:
      return *create;
    case VerbClass::kModify:
      return *modify;
    case VerbClass::kDelete:
      return *remove;
  }
  return kNotServed;
}

std::span<const CatalogRow> rights_catalog() {
  return kRows;
}

const CatalogRow* find_catalog_row(std::string_view group, std::string_view resource,
                                   std::string_view subresource) {
  for (const CatalogRow& row : kRows) {
    if (row.group == group && row.resource == resource && row.subresource == subresource)
      return &row;
  }
  return nullptr;
}

}  // namespace footprint
