#!/usr/bin/env bash
# can-install --print-role never widens a right. For a namespace the chart creates, the Roles in
# it stay Roles there: a cluster admin creates the namespace first (with Helm's ownership
# metadata, so that the install adopts it: pkg/action/validate.go checkOwnership), and the grant
# binds the installer there; nothing becomes a ClusterRole that reads Secrets or execs into pods
# in every namespace. footprint runs its own RBAC checks over the printed grant and says what it
# allows, and applied to a cluster the grant makes can-install answer yes.
source "$(dirname "$0")/common.inc"
cd "$TMP"
chart=$DATA/untrusted/own-namespace.yaml

# check_grant FILE [RELEASE]: the Namespace first (one `kubectl apply -f` then creates it before
# the Role in it), no cluster-wide Secrets, exec or namespace creation, the chart Role's rights
# in a Role in newns bound there, and Helm's ownership metadata for RELEASE in op when given.
check_grant() {
  "$PYTHON" - "$@" <<'PY' || fail "the grant: $(grep -v '^#' "$1" | head -80)"
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
kinds = [(d["kind"], d["metadata"].get("namespace", ""), d["metadata"]["name"]) for d in docs]
for d in docs:
    if d["kind"] != "ClusterRole":
        continue
    for rule in d["rules"]:
        wide = set(rule.get("resources", [])) & {"secrets", "pods/exec", "pods/*", "*", "namespaces"}
        assert not wide, ("cluster-wide", rule)
assert kinds[0] == ("Namespace", "", "newns"), kinds
roles = {d["metadata"]["namespace"]: d["rules"] for d in docs if d["kind"] == "Role"}
assert any({"secrets", "pods/exec"} <= set(r.get("resources", [])) for r in roles["newns"]), roles
bindings = {(d["kind"], d["metadata"].get("namespace")) for d in docs if d["kind"].endswith("Binding")}
assert ("RoleBinding", "newns") in bindings, bindings
ns = docs[0]["metadata"]
if len(sys.argv) > 2:
    assert ns["labels"] == {"app.kubernetes.io/managed-by": "Helm"}, ns
    assert ns["annotations"] == {"meta.helm.sh/release-name": sys.argv[2],
                                 "meta.helm.sh/release-namespace": "op"}, ns
else:
    assert "annotations" not in ns and "labels" not in ns, ns
PY
}

# Manifests name no release: the Namespace comes without ownership metadata, and a comment says
# what Helm needs on it.
run "$FOOTPRINT" can-install "$chart" -n op --as bob --print-role
expect_status 0
cp "$OUT" manifests-grant.yaml
check_grant manifests-grant.yaml
expect_stdout "without Helm's ownership metadata"
expect_no_stdout "and no more"
expect_stdout "# What this grant lets bob do, as footprint's own RBAC checks rate these objects:"

run "$FOOTPRINT" can-install "$chart" -n op --as bob --release web --print-role
expect_status 0
cp "$OUT" grant.yaml
check_grant grant.yaml web
expect_stdout "1. the Namespaces the bundle creates (newns)"

# footprint's audit of the grant finds no cluster-wide Secrets, exec or workload right.
run "$FOOTPRINT" audit --no-config grant.yaml -n op --format json
expect_status 0
[ "$(json_get "$OUT" "[f['check'] for f in d['findings'] if f['check'] in ('rbac-secrets-cluster-wide', 'rbac-pod-exec', 'rbac-workload-create-cluster-wide') and f['severity'] in ('high', 'critical')]")" = "[]" ] ||
  fail "the grant is rated high: $(json_get "$OUT" "[(f['check'], f['severity'], f.get('summary')) for f in d['findings']]")"

# Applied, with the namespace it creates: bob may install the chart, exec into pods in newns,
# and read no Secrets in kube-system.
run "$FOOTPRINT" can-install "$chart" -n op --as bob --cluster grant.yaml
expect_status 0
[ "$(head -n 1 "$OUT")" = yes ] || fail "the grant lets bob install: $(cat "$OUT")"
run "$FOOTPRINT" can-i get secrets -n kube-system --as bob "$chart" --cluster grant.yaml
expect_status 1
[ "$(head -n 1 "$OUT")" = no ] || fail "bob reads no Secrets in kube-system: $(cat "$OUT")"
run "$FOOTPRINT" can-i create pods/exec -n newns --as bob "$chart" --cluster grant.yaml
expect_status 0
