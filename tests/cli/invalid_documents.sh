#!/usr/bin/env bash
# One invalid document does not hide the audit: the valid objects are audited and reported, each
# invalid document is listed with file:line:col (in JSON and SARIF too, even when every document
# is invalid), and the exit code stays 2 so that CI never takes
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

# SARIF: one result per invalid document, kind "fail", at its file:line:col, beside the findings.
run "$FOOTPRINT" audit "$TMP/in.yaml" -n x --format sarif -o "$TMP/report.sarif"
expect_status 2
[ "$(json_get "$TMP/report.sarif" "[(r['kind'], r['level'], r['locations'][0]['physicalLocation']['region']['startLine'], r['locations'][0]['physicalLocation']['region']['startColumn']) for r in d['runs'][0]['results'] if r['ruleId'] == 'invalid-document']")" = \
  "[('fail', 'error', 5, 1), ('fail', 'error', 13, 16)]" ] ||
  fail "SARIF invalid documents: $(json_get "$TMP/report.sarif" "d['runs'][0]['results']")"
json_get "$TMP/report.sarif" "[r['ruleId'] for r in d['runs'][0]['results']]" | grep -q rbac-wildcard ||
  fail "SARIF keeps the findings of the valid objects"
[ "$(json_get "$TMP/report.sarif" "set(d['runs'][0]['tool']['driver']['rules'][r['ruleIndex']]['id'] for r in d['runs'][0]['results'] if r['ruleId'] == 'invalid-document')")" = "{'invalid-document'}" ] ||
  fail "the invalid-document result points at its rule"

# Every document invalid: the JSON and SARIF reports are still written, listing them; exit 2.
cat >"$TMP/all-invalid.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {namespace: x}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: dup, namespace: x}
data: {a: "1", a: "2"}
YAML
run "$FOOTPRINT" audit "$TMP/all-invalid.yaml" --format json -o "$TMP/all.json"
expect_status 2
expect_stderr "all-invalid.yaml:1:1: Deployment has no metadata.name"
[ "$(json_get "$TMP/all.json" "([(e['line'], e['column']) for e in d['invalidDocuments']], d['inventory']['objects'])")" = \
  "([(1, 1), (8, 16)], 0)" ] || fail "all invalid, JSON: $(cat "$TMP/all.json")"
run "$FOOTPRINT" audit "$TMP/all-invalid.yaml" --format sarif
expect_status 2
[ "$(json_get "$OUT" "[(r['ruleId'], r['kind'], r['locations'][0]['physicalLocation']['region']['startLine']) for r in d['runs'][0]['results']]")" = \
  "[('invalid-document', 'fail', 1), ('invalid-document', 'fail', 8)]" ] ||
  fail "all invalid, SARIF: $(cat "$OUT")"

# Text output names them too.
run "$FOOTPRINT" audit "$TMP/in.yaml" -n x
expect_status 2
expect_stdout "Documents that are not valid objects"
# The first screen says so before anything else.
sed -n 4p "$OUT" | grep -q "2 documents are not valid objects" || fail "summary: $(sed -n 1,6p "$OUT")"

# Documents are counted, not problems: a ConfigMap with two numbers as data values (the API
# server refuses map[string]string values that are not strings, core/v1 types.go) is one
# document with two problems, beside a Deployment without a name: two documents, three rows.
cat >"$TMP/many.yaml" <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: numbers, namespace: x}
data: {a: 1, b: 2}
---
apiVersion: apps/v1
kind: Deployment
metadata: {namespace: x}
YAML
run "$FOOTPRINT" audit "$TMP/many.yaml" -n x
expect_status 2
expect_stdout "2 documents are not valid objects and are left out of this report (3 problems"
expect_stdout "2 documents of the input could not be read as Kubernetes objects (3 problems)"
run "$FOOTPRINT" audit "$TMP/many.yaml" -n x --format json
expect_status 2
[ "$(json_get "$OUT" "sorted(set((e['document']['line'], e['document']['column']) for e in d['invalidDocuments']))")" = \
  "[(1, 1), (6, 1)]" ] || fail "documents of the JSON entries: $(json_get "$OUT" "d['invalidDocuments']")"

# Commands that act on the whole input (here, rewriting it) still refuse any invalid document.
run "$FOOTPRINT" images relocate "$TMP/in.yaml" --to mirror.example.com -o "$TMP/out"
expect_status 2
[ ! -e "$TMP/out" ] || fail "relocate wrote output despite an invalid document"
echo "ok"
