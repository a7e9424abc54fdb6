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
# The resolved finding is named: version 1's PodMonitor at v1.yaml:1 lost its crd-missing.
expect_stdout "Resolved since the baseline"
expect_stdout "medium crd-missing PodMonitor ops/pm (at v1.yaml:1 in the baseline)"

run "$FOOTPRINT" audit --no-config v2.yaml --baseline v1.json --format json
expect_status 0
[ "$(json_get "$OUT" "{f['object']['name']: f['baseline'] for f in d['findings']}")" = \
  "{'editor': 'new', 'viewer': 'known'}" ] || fail "status per finding"
[ "$(json_get "$OUT" "d['summary']['baseline']")" = \
  "{'new': 1, 'worse': 0, 'better': 0, 'resolved': 1, 'known': 1}" ] ||
  fail "summary counts"
v1_podmonitor=$(json_get v1.json "[f['fingerprint'] for f in d['findings'] if f['object']['name'] == 'pm'][0]")
[ "$(json_get "$OUT" "[(r['check'], r['severity'], r['object']['kind'], r['object']['name'], r['source']['file'], r['fingerprint']) for r in d['resolvedFindings']]")" = \
  "[('crd-missing', 'medium', 'PodMonitor', 'pm', 'v1.yaml', '$v1_podmonitor')]" ] ||
  fail "JSON names the resolved finding"
run "$FOOTPRINT" audit --no-config v2.yaml --baseline v1.json --format markdown
expect_status 0
expect_stdout "**1 new**, 1 resolved, 1 known (against the baseline)."
expect_stdout "(known)"
expect_stdout '- **medium** `crd-missing` PodMonitor `ops/pm` (at `v1.yaml:1` in the baseline)'
run "$FOOTPRINT" audit --no-config v2.yaml --baseline v1.json --format sarif
expect_status 0
# SARIF 2.1.0 (3.27.24): "absent" is a result of the baseline run that the current run lacks.
[ "$(json_get "$OUT" "sorted(r['baselineState'] for r in d['runs'][0]['results'])")" = \
  "['absent', 'new', 'unchanged']" ] || fail "SARIF baselineState"
[ "$(json_get "$OUT" "[(r['ruleId'], r['kind'], r['level'], r['partialFingerprints']['footprint/v1']) for r in d['runs'][0]['results'] if r['baselineState'] == 'absent']")" = \
  "[('crd-missing', 'pass', 'none', '$v1_podmonitor')]" ] || fail "SARIF absent result"
[ "$(json_get "$OUT" "[r['partialFingerprints']['footprint/v1'] for r in d['runs'][0]['results'] if r['baselineState'] != 'absent' and r['locations'][0]['logicalLocations'][0]['fullyQualifiedName'] == 'ClusterRole/viewer']")" = \
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
"$PYTHON" -c "import json; d = json.load(open('v2.json')); [f.pop('fingerprint') for f in d['findings']]; json.dump(d, open('old.json', 'w'))"
run "$FOOTPRINT" audit --no-config v2.yaml --baseline old.json
expect_status 2
expect_stderr "old.json: a finding has no fingerprint"
# Another schema version, or another command's report (images holds only the airgap checks'
# findings, so every other finding would pass for new): questioned, not used.
"$PYTHON" -c "import json; d = json.load(open('v2.json')); d['schemaVersion'] = 2; json.dump(d, open('v9.json', 'w'))"
run "$FOOTPRINT" audit --no-config v2.yaml --baseline v9.json
expect_status 2
expect_stderr "v9.json: the report has schemaVersion 2, and this footprint reads version 1"
run "$FOOTPRINT" images --no-config v2.yaml --format json -o images.json
expect_status 0
run "$FOOTPRINT" audit --no-config v2.yaml --baseline images.json
expect_status 2
expect_stderr "images.json: not an audit report"
run "$FOOTPRINT" audit --no-config v2.yaml --baseline missing.json
expect_status 2
# The baseline is an input: the report may not overwrite it.
run "$FOOTPRINT" audit --no-config v2.yaml --baseline v2.json -o v2.json
expect_status 2
