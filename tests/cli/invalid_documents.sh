#!/usr/bin/env bash
# One invalid document does not hide the audit: the valid objects are audited and reported, each
# invalid document is listed with file:line:col, and the exit code stays 2 so that CI never takes
# the partial report for a clean run. A Deployment without metadata.name is refused by client-go
# before it reaches the server (rest/request.go: "resource name may not be empty"); YAML 1.2
# forbids duplicate keys in a mapping (spec 3.2.1.1), so the third document is unreadable.
source "$(dirname "$0")/common.inc"

cat >"$TMP/in.yaml" <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: ok, namespace: x}
---
apiVersion: apps/v1
kind: Deployment
metadata: {namespace: x}
spec: {}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: dup, namespace: x}
data: {a: "1", a: "2"}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: star}
rules: [{apiGroups: ["*"], resources: ["*"], verbs: ["*"]}]
YAML

run "$FOOTPRINT" audit "$TMP/in.yaml" -n x --format json
expect_status 2
expect_stderr "$TMP/in.yaml:5:1: Deployment has no metadata.name"
expect_stderr "$TMP/in.yaml:13:16: duplicate key \"a\" in mapping"
# The two valid objects, before and after the invalid ones, are both audited.
[ "$(json_get "$OUT" "d['inventory']['objects']")" = 2 ] || fail "expected 2 objects"
json_get "$OUT" "[f['check'] for f in d['findings']]" | grep -q rbac-wildcard ||
  fail "the ClusterRole after the invalid documents should be audited"
[ "$(json_get "$OUT" "[(e['line'], e['column']) for e in d['invalidDocuments']]")" = \
  "[(5, 1), (13, 16)]" ] || fail "invalidDocuments: $(json_get "$OUT" "d['invalidDocuments']")"

# Text output names them too.
run "$FOOTPRINT" audit "$TMP/in.yaml" -n x
expect_status 2
expect_stdout "Documents that are not valid objects"
# The first screen says so before anything else.
sed -n 4p "$OUT" | grep -q "2 documents are not valid objects" || fail "summary: $(sed -n 1,6p "$OUT")"

# Commands that act on the whole input (here, rewriting it) still refuse any invalid document.
run "$FOOTPRINT" images relocate "$TMP/in.yaml" --to mirror.example.com -o "$TMP/out"
expect_status 2
[ ! -e "$TMP/out" ] || fail "relocate wrote output despite an invalid document"
echo "ok"
