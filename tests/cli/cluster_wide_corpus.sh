#!/usr/bin/env bash
# The cluster-wide checks on real bundles. Expected values are read from the manifests with
# PyYAML (a second parser) and argued from the Kubernetes sources named in docs/cluster-wide.md
# and docs/pod-security.md, never copied from footprint's output.
source "$(dirname "$0")/common.inc"
need_corpus
C=$SHARED/corpus

audit_json() {
  "$FOOTPRINT" audit "$C/$1.yaml" --format json >"$TMP/$1.json" || fail "$1 did not load"
}

# check NAME PYTHON: runs PYTHON with `docs` (the bundle's documents, by PyYAML) and `report`.
check() {
  "$PYTHON" - "$C/$1.yaml" "$TMP/$1.json" <<PY || fail "$1: cluster-wide expectations not met"
import json, sys, yaml
loader = yaml.CSafeLoader
yaml.add_constructor("tag:yaml.org,2002:value", lambda l, n: l.construct_scalar(n), Loader=loader)
docs = [d for d in yaml.load_all(open(sys.argv[1], "rb"), Loader=loader) if d]
report = json.load(open(sys.argv[2]))
def findings(check):
    return [f for f in report["findings"] if f["check"] == check]
def of_kind(kind):
    return [d for d in docs if d.get("kind") == kind]
def expect(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)
$2
PY
}

# kueue: two APIServices proxy visibility.kueue.x-k8s.io to one Service. The Service exists with
# port 443 (the APIService default) and selects the controller-manager, which has one replica,
# and the APIServices set insecureSkipTLSVerify: wired, so not unreachable, but the whole
# cluster's discovery depends on one pod: medium, one finding for the shared backend.
audit_json kueue
check kueue '
apis = [d for d in of_kind("APIService") if d["spec"].get("service")]
names = sorted(d["metadata"]["name"] for d in apis)
expect(names == ["v1beta1.visibility.kueue.x-k8s.io", "v1beta2.visibility.kueue.x-k8s.io"], names)
expect(sorted(a["name"] for a in report["clusterWide"]["aggregatedApis"]) == names, "section")
svc = {(d["metadata"]["namespace"], d["metadata"]["name"]): d for d in of_kind("Service")}
ref = apis[0]["spec"]["service"]
expect(443 in [p["port"] for p in svc[(ref["namespace"], ref["name"])]["spec"]["ports"]], "port")
expect(all(d["spec"].get("insecureSkipTLSVerify") for d in apis), "insecure")
manager = [d for d in of_kind("Deployment") if d["metadata"]["name"] == "kueue-controller-manager"]
expect(manager[0]["spec"].get("replicas", 1) == 1, "replicas")
expect(findings("aggregated-api-unreachable") == [], "unreachable")
f = findings("aggregated-api-availability")
expect(len(f) == 1 and f[0]["severity"] == "medium", f)
expect(all(n in f[0]["message"] for n in names), "both APIServices named")
expect("insecureSkipTLSVerify" in f[0]["message"], "insecure named")
'

# kubevirt: PriorityClass kubevirt-cluster-critical has value 1,000,000,000, the highest a
# non-system class may have (HighestUserDefinablePriority), and no preemptionPolicy, so
# PreemptLowerPriority: high, naming the Deployment that uses it.
audit_json kubevirt
check kubevirt '
pcs = of_kind("PriorityClass")
expect([(p["metadata"]["name"], p["value"], p.get("globalDefault")) for p in pcs] ==
       [("kubevirt-cluster-critical", 1000000000, False)], pcs)
users = [d["metadata"]["name"] for d in of_kind("Deployment")
         if d["spec"]["template"]["spec"].get("priorityClassName") == "kubevirt-cluster-critical"]
expect(users == ["virt-operator"], users)
f = findings("priority-class-preemption")
expect(len(f) == 1 and f[0]["severity"] == "high", f)
expect("Deployment kubevirt/virt-operator" in f[0]["message"], f[0]["message"])
expect(findings("priority-class-global-default") == [] and findings("priority-class-missing") == [],
       "other priority findings")
'

# calico (manifest install): calico-node tolerates every NoSchedule and NoExecute taint
# (empty-key Exists tolerations) and runs privileged containers: root on every node including
# control-plane nodes, hence critical. The operator install ships no DaemonSet (the operator
# creates calico-node at run time), so its report has none.
audit_json calico-manifest
check calico-manifest '
ds = of_kind("DaemonSet")
expect([d["metadata"]["name"] for d in ds] == ["calico-node"], ds)
spec = ds[0]["spec"]["template"]["spec"]
wild = {t.get("effect") for t in spec["tolerations"] if t.get("operator") == "Exists" and not t.get("key")}
expect(wild == {"NoSchedule", "NoExecute"}, wild)
privileged = [c["name"] for c in spec.get("initContainers", []) + spec["containers"]
              if (c.get("securityContext") or {}).get("privileged")]
section = report["clusterWide"]["daemonSets"]
expect(len(section) == 1 and section[0]["privileged"] == privileged, (section, privileged))
expect(section[0]["toleratesEveryTaint"] and section[0]["severity"] == "critical", section)
f = findings("daemonset-node-access")
expect(len(f) == 1 and f[0]["severity"] == "critical", f)
expect("including control-plane nodes" in f[0]["message"], f[0]["message"])
'
audit_json calico-tigera-operator
check calico-tigera-operator '
expect(of_kind("DaemonSet") == [] and report["clusterWide"]["daemonSets"] == [], "daemonsets")
'

# Namespaces the bundles label pod-security.kubernetes.io/enforce: each workload in them is
# evaluated at that level and version. The vendors ship pods that their own labels admit, so a
# correct evaluator rejects none of them. gatekeeper enforces restricted:v1.24, and its two
# Deployments set allowPrivilegeEscalation false, drop ALL, runAsNonRoot, runAsUser 1000 and a
# RuntimeDefault seccomp profile and mount only a Secret: restricted.
for bundle in gatekeeper metallb kubevirt calico-tigera-operator tekton-pipeline; do
  audit_json $bundle
  check $bundle '
labels = {d["metadata"]["name"]: d["metadata"].get("labels") or {} for d in of_kind("Namespace")}
enforced = {n: l["pod-security.kubernetes.io/enforce"] for n, l in labels.items()
            if "pod-security.kubernetes.io/enforce" in l}
expect(enforced, "an enforce label")
workloads = [w for w in report["podSecurity"]["workloads"] if w["namespace"] in enforced]
expect(workloads, "workloads in labelled namespaces")
for w in workloads:
    e = w["enforce"]
    expect(e["labelled"] and e["labelsFrom"] == "bundle", w)
    expect(e["level"] == enforced[w["namespace"]], (w, enforced))
    version = labels[w["namespace"]].get("pod-security.kubernetes.io/enforce-version", "latest")
    expect(e["version"] == version, (w, version))
    expect(w["admitted"], w)
expect(findings("pod-security-enforce-violation") == [], findings("pod-security-enforce-violation"))
'
done
check gatekeeper '
expect(sorted((w["name"], w["level"]) for w in report["podSecurity"]["workloads"]) ==
       [("gatekeeper-audit", "restricted"), ("gatekeeper-controller-manager", "restricted")],
       report["podSecurity"]["workloads"])
expect(report["podSecurity"]["workloads"][0]["enforce"]["version"] == "v1.24", "v1.24")
'
