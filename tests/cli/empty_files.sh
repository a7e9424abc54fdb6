#!/usr/bin/env bash
# An empty or comment-only file beside others adds no objects, as `kubectl apply -f DIR` reads it
# (kubectl fails only when no file holds any object: "no objects passed to apply"): footprint
# notes it and audits the rest. When no input holds anything, it is still an error.
source "$(dirname "$0")/common.inc"

mkdir "$TMP/mixed"
cat >"$TMP/mixed/cm.yaml" <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: x}
YAML
: >"$TMP/mixed/empty.yaml"
printf '# disabled\n' >"$TMP/mixed/disabled.yaml"
printf -- '---\n' >"$TMP/dashes.yaml"

run "$FOOTPRINT" audit "$TMP/mixed" --format json
expect_status 0
[ "$(json_get "$OUT" "d['inventory']['objects']")" = 1 ] || fail "the ConfigMap is audited"
json_get "$OUT" "d['notes']" | grep -q "mixed/empty.yaml: no Kubernetes objects" ||
  fail "a note names the empty file: $(json_get "$OUT" "d['notes']")"
json_get "$OUT" "d['notes']" | grep -q "mixed/disabled.yaml: no Kubernetes objects" ||
  fail "a note names the comment-only file"

# A file of only '---' given beside another file: the same.
run "$FOOTPRINT" audit "$TMP/dashes.yaml" "$TMP/mixed/cm.yaml"
expect_status 0
expect_stdout "dashes.yaml: no Kubernetes objects"

# Nothing anywhere: an error, exit 2.
run "$FOOTPRINT" audit "$TMP/dashes.yaml" "$TMP/mixed/empty.yaml"
expect_status 2
expect_stderr "dashes.yaml: no Kubernetes objects: the input is empty or only comments"
echo "ok"
