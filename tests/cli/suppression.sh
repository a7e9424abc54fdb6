#!/usr/bin/env bash
# Suppression by annotation (trusted: --trust-annotations; see self_suppression.sh for the
# default) and by .footprint.yaml: suppressed findings are counted and listed with their reason,
# never dropped.
source "$(dirname "$0")/common.inc"
cd "$TMP"
cat >bundle.yaml <<'YAML'
apiVersion: monitoring.coreos.com/v1
kind: PodMonitor
metadata:
  name: pm
  annotations:
    footprint.dev/ignore: "crd-missing -- prometheus-operator is installed cluster-wide"
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: viewer, namespace: ops}
YAML

run "$FOOTPRINT" audit bundle.yaml --trust-annotations --format json
expect_status 0
[ "$(json_get "$OUT" "d['summary']['suppressed']")" = 1 ] || fail "one suppressed"
[ "$(json_get "$OUT" "[f['suppression']['reason'] for f in d['findings'] if f['suppressed']]")" = \
  "['prometheus-operator is installed cluster-wide']" ] || fail "reason kept"
run "$FOOTPRINT" audit bundle.yaml --trust-annotations --fail-on medium
expect_status 0
expect_stdout "Findings: 1 low; 1 suppressed"
expect_stdout "medium crd-missing PodMonitor pm: prometheus-operator is installed cluster-wide"

cat >.footprint.yaml <<'YAML'
ignore:
  - check: namespace-on-cluster-scoped
    kind: ClusterRole
    name: view*
    reason: namespace kept for kustomize overlays
YAML
run "$FOOTPRINT" audit bundle.yaml --trust-annotations --format json
expect_status 0
[ "$(json_get "$OUT" "d['summary']['suppressed']")" = 2 ] || fail "config suppresses too"
[ "$(json_get "$OUT" "[f['suppression']['by'] for f in d['findings']]")" = \
  "['footprint.dev/ignore', '.footprint.yaml:2']" ] || fail "suppression source"

run "$FOOTPRINT" audit bundle.yaml --trust-annotations --format sarif
expect_status 0
[ "$(json_get "$OUT" "[r['suppressions'][0]['kind'] for r in d['runs'][0]['results']]")" = \
  "['inSource', 'external']" ] || fail "SARIF suppressions"

printf 'ignore:\n  - check: crd-mising\n    reason: typo\n' >.footprint.yaml
run "$FOOTPRINT" audit bundle.yaml
expect_status 2
expect_stderr ".footprint.yaml:2:12: unknown check \"crd-mising\""

# An annotation naming a check that reports nothing on its object suppresses nothing, and the
# report says so: the ConfigMap below has no ClusterRole, so rbac-wildcard cannot fire on it.
cat >unused.yaml <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: ops
  annotations: {footprint.dev/ignore: "rbac-wildcard -- copied from the operator's role"}
YAML
run "$FOOTPRINT" audit unused.yaml --no-config
expect_status 0
# (the text report wraps at 80 columns: the sentence is matched in its two lines)
expect_stdout "footprint.dev/ignore on ConfigMap ops/settings names rbac-wildcard, which reports"
expect_stdout "nothing on it: the annotation suppresses nothing"

# The trial (N-C19): an annotation without a reason, or with a reason and no check, is noted (a
# reviewer needs the why; the second asks for nothing).
cat >unexplained.yaml <<'YAML'
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: wide
  annotations: {footprint.dev/ignore: "rbac-wildcard"}
rules: [{apiGroups: ["*"], resources: ["*"], verbs: ["*"]}]
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: plain
  namespace: ops
  annotations: {footprint.dev/ignore: " -- no checks"}
YAML
run "$FOOTPRINT" audit unexplained.yaml --no-config --format json
expect_status 0
[ "$(json_get "$OUT" "[n.split(': ', 1)[1] for n in d['notes'] if 'footprint.dev/ignore' in n]")" = \
  "['footprint.dev/ignore on ClusterRole wide gives no reason (write CHECK -- REASON), so a reviewer cannot tell why', 'footprint.dev/ignore on ConfigMap ops/plain names no check, so it asks to suppress nothing (write CHECK -- REASON)']" ] ||
  fail "notes: $(json_get "$OUT" "d['notes']")"
