#!/usr/bin/env bash
# --baseline: findings of a previous JSON report are known (never exit 1), matched by fingerprint
# across a new version of the bundle that moves, reorders and reformats everything.
source "$(dirname "$0")/common.inc"
cd "$TMP"
# Version 1: a PodMonitor without its CRD (crd-missing, medium) and a ClusterRole with a
# namespace (namespace-on-cluster-scoped, low).
cat >v1.yaml <<'YAML'
apiVersion: monitoring.coreos.com/v1
kind: PodMonitor
metadata: {name: pm, namespace: ops}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: viewer, namespace: ops}
YAML
# Version 2: the PodMonitor is gone (1 resolved), the ClusterRole moved down and reformatted
# (1 known), and a second ClusterRole with a namespace is new (1 new).
cat >v2.yaml <<'YAML'
# chart 2.0
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: editor
  namespace: ops
---


apiVersion: "rbac.authorization.k8s.io/v1"
kind: ClusterRole
metadata:
  namespace: "ops"
  name: 'viewer'
YAML

run "$FOOTPRINT" audit --no-config v1.yaml --format json -o v1.json
expect_status 0
[ "$(json_get v1.json "len(d['findings'])")" = 2 ] || fail "version 1 has two findings"
run "$FOOTPRINT" audit --no-config v2.yaml --format json
expect_status 0
v1_viewer=$(json_get v1.json "[f['fingerprint'] for f in d['findings'] if f['object']['name'] == 'viewer']")
v2_viewer=$(json_get "$OUT" "[f['fingerprint'] for f in d['findings'] if f['object']['name'] == 'viewer']")
[ "$v1_viewer" = "$v2_viewer" ] || fail "the moved ClusterRole keeps its fingerprint: $v1_viewer $v2_viewer"

run "$FOOTPRINT" audit --no-config v2.yaml --baseline v1.json --fail-on low
expect_status 1  # the new finding is low
[ "$(head -n 1 "$OUT")" = "1 new, 1 resolved, 1 known (against the baseline)" ] ||
  fail "text opens with the counts: $(head -n 1 "$OUT")"
expect_stdout "namespace-on-cluster-scoped  ClusterRole viewer  (known)"
expect_no_stdout "ClusterRole editor  (known)"

run "$FOOTPRINT" audit --no-config v2.yaml --baseline v1.json --format json
expect_status 0
[ "$(json_get "$OUT" "{f['object']['name']: f['baseline'] for f in d['findings']}")" = \
  "{'editor': 'new', 'viewer': 'known'}" ] || fail "status per finding"
[ "$(json_get "$OUT" "d['summary']['baseline']")" = \
  "{'new': 1, 'worse': 0, 'better': 0, 'resolved': 1, 'known': 1}" ] ||
  fail "summary counts"
run "$FOOTPRINT" audit --no-config v2.yaml --baseline v1.json --format markdown
expect_status 0
expect_stdout "**1 new**, 1 resolved, 1 known (against the baseline)."
expect_stdout "(known)"
run "$FOOTPRINT" audit --no-config v2.yaml --baseline v1.json --format sarif
expect_status 0
[ "$(json_get "$OUT" "sorted(r['baselineState'] for r in d['runs'][0]['results'])")" = \
  "['new', 'unchanged']" ] || fail "SARIF baselineState"
[ "$(json_get "$OUT" "[r['partialFingerprints']['footprint/v1'] for r in d['runs'][0]['results'] if r['locations'][0]['logicalLocations'][0]['fullyQualifiedName'] == 'ClusterRole/viewer']")" = \
  "$v1_viewer" ] || fail "SARIF partialFingerprints"

# A gate whose baseline is the current report passes: everything is known.
run "$FOOTPRINT" audit --no-config v2.yaml --format json -o v2.json
expect_status 0
run "$FOOTPRINT" audit --no-config v2.yaml --baseline v2.json --fail-on low
expect_status 0
expect_stdout "0 new, 0 resolved, 2 known (against the baseline)"

# Not a report, or a report without fingerprints: usage errors naming the file.
run "$FOOTPRINT" audit --no-config v2.yaml --baseline v2.yaml
expect_status 2
expect_stderr "v2.yaml: not a footprint JSON report"
echo '{"findings": [{"check": "crd-missing"}]}' >old.json
run "$FOOTPRINT" audit --no-config v2.yaml --baseline old.json
expect_status 2
expect_stderr "old.json: a finding has no fingerprint"
run "$FOOTPRINT" audit --no-config v2.yaml --baseline missing.json
expect_status 2
# The baseline is an input: the report may not overwrite it.
run "$FOOTPRINT" audit --no-config v2.yaml --baseline v2.json -o v2.json
expect_status 2
