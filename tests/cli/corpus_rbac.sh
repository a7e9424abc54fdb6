#!/usr/bin/env bash
# RBAC findings on real bundles, verified by reading their YAML:
# - metallb's controller Role lists Secrets by name (memberlist) but rule 0 of the same Role
#   lists Secrets unrestricted: low, not high. Its ClusterRole's webhook and CRD rules with
#   resourceNames are covered by unrestricted list/watch rules next to them: low too.
# - kubevirt's operator Role restricts secrets and two configmaps by name but has unrestricted
#   list rules for both, and its ClusterRole restricts SCCs by name next to an unrestricted
#   list: four low findings, no high.
source "$(dirname "$0")/common.inc"
need_corpus
lw() {  # BUNDLE NAMESPACE -> "severity object" lines for rbac-resourcenames-list-watch
  "$FOOTPRINT" audit "$SHARED/corpus/$1" -n "$2" --format json >"$TMP/r.json"
  json_get "$TMP/r.json" "'\n'.join(sorted(f['severity'] + ' ' + f['object']['kind'] + ' ' + f['object']['name'] for f in d['findings'] if f['check'] == 'rbac-resourcenames-list-watch'))"
}
got=$(lw metallb.yaml metallb-system)
expected=$'low ClusterRole metallb-system:controller\nlow ClusterRole metallb-system:controller\nlow Role controller'
[ "$got" = "$expected" ] || fail "metallb: got '$got'"
got=$(lw kubevirt.yaml kubevirt)
expected=$'low ClusterRole kubevirt-operator\nlow Role kubevirt-operator\nlow Role kubevirt-operator\nlow Role kubevirt-operator'
[ "$got" = "$expected" ] || fail "kubevirt: got '$got'"
# kubevirt lists create with resourceNames on secrets: those creates are never allowed.
json_get "$TMP/r.json" "[f['object']['name'] for f in d['findings'] if f['check'] == 'rbac-resourcenames-create']" |
  grep -q "kubevirt-operator" || fail "kubevirt create with resourceNames"
