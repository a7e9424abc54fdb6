#!/usr/bin/env bash
# RBAC findings on real bundles, verified by reading their YAML:
# - metallb's controller Role lists Secrets by name (memberlist) but rule 0 of the same Role
#   lists Secrets unrestricted: the restriction is dead code (info), not a trap (high). Its
#   ClusterRole's webhook and CRD rules with resourceNames are covered by unrestricted list/watch
#   rules next to them: info too.
# - kubevirt's operator Role restricts secrets and two configmaps by name but has unrestricted
#   list rules for both, and its ClusterRole restricts SCCs by name next to an unrestricted
#   list: four info findings, no high.
source "$(dirname "$0")/common.inc"
need_corpus
lw() {  # BUNDLE NAMESPACE -> "severity object" lines for rbac-resourcenames-list-watch
  "$FOOTPRINT" audit "$SHARED/corpus/$1" -n "$2" --format json >"$TMP/r.json"
  json_get "$TMP/r.json" "'\n'.join(sorted(f['severity'] + ' ' + f['object']['kind'] + ' ' + f['object']['name'] for f in d['findings'] if f['check'] == 'rbac-resourcenames-list-watch'))"
}
got=$(lw metallb.yaml metallb-system)
expected=$'info ClusterRole metallb-system:controller\ninfo ClusterRole metallb-system:controller\ninfo Role controller'
[ "$got" = "$expected" ] || fail "metallb: got '$got'"
got=$(lw kubevirt.yaml kubevirt)
expected=$'info ClusterRole kubevirt-operator\ninfo Role kubevirt-operator\ninfo Role kubevirt-operator\ninfo Role kubevirt-operator'
[ "$got" = "$expected" ] || fail "kubevirt: got '$got'"
# kubevirt lists create with resourceNames on secrets: those creates are never allowed.
json_get "$TMP/r.json" "[f['object']['name'] for f in d['findings'] if f['check'] == 'rbac-resourcenames-create']" |
  grep -q "kubevirt-operator" || fail "kubevirt create with resourceNames"
