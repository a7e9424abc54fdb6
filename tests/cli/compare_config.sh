#!/usr/bin/env bash
# compare judges findings as audit does: .footprint.yaml (or --config) suppresses them and sets
# failOn, --fail-on exits 1; a mode naming a file that is not there is the command's error (2).
source "$(dirname "$0")/common.inc"
cd "$TMP"
# Mode a ships a ClusterRole with a namespace (namespace-on-cluster-scoped, low, as
# suppression.sh counts it); mode b only a ConfigMap, so that finding is a's alone.
cat >a.yaml <<'YAML'
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: viewer, namespace: ops}
YAML
cat >b.yaml <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: ops}
YAML
row="'namespace-on-cluster-scoped: ClusterRole viewer'"
only_in_a() {
  json_get "$OUT" "[r['values'] for r in d['rows'] if r['group'] == 'Findings in some modes only' and r['label'] == $row]"
}

run "$FOOTPRINT" compare a=a.yaml b=b.yaml --format json
expect_status 0
[ "$(only_in_a)" = "[{'a': 'low', 'b': '-'}]" ] || fail "without a configuration the finding is a's alone: $(only_in_a)"
run "$FOOTPRINT" compare a=a.yaml b=b.yaml --fail-on low
expect_status 1

cat >.footprint.yaml <<'YAML'
failOn: low
ignore:
  - check: namespace-on-cluster-scoped
    name: view*
    reason: namespace kept for kustomize overlays
YAML
# Suppressed: no row, and failOn: low has nothing left to fail on.
run "$FOOTPRINT" compare a=a.yaml b=b.yaml --format json
expect_status 0
[ "$(only_in_a)" = "[]" ] || fail "a suppressed finding is in no mode's row: $(only_in_a)"
# --no-config drops both the suppression and failOn; --fail-on brings the threshold back.
run "$FOOTPRINT" compare a=a.yaml b=b.yaml --no-config --fail-on low
expect_status 1
# --config names another file: its failOn applies with nothing suppressed.
printf 'failOn: low\n' >strict.yaml
run "$FOOTPRINT" compare a=a.yaml b=b.yaml --config strict.yaml
expect_status 1

# A missing input is a mistake in the command, not a mode that failed: exit 2 before anything
# is compared, naming the mode and the file.
run "$FOOTPRINT" compare a=a.yaml b=nothere.yaml
expect_status 2
expect_stderr "mode b: nothere.yaml does not exist"
# An input that is there but cannot be read is the same error as in audit (exit 2).
printf 'kind: [\n' >broken.yaml
run "$FOOTPRINT" compare a=a.yaml b=broken.yaml --no-config
expect_status 2
expect_stderr "mode b cannot be read"
