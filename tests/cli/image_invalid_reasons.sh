#!/usr/bin/env bash
# Invalid image references say why in words that fit (issue 40, trial items WR15 and C14): a
# Helm template left in an image is named as one in images and audit, as relocate names it, not
# by the grammar's complaint ("repository name must be lowercase"); and a reference with a
# leading space is shown in quotes, so the space is seen.
source "$(dirname "$0")/common.inc"
cd "$TMP"
cat >pod.yaml <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ops}
spec:
  containers:
  - {name: a, image: "{{ .Values.image }}"}
  - {name: b, image: " nginx:1.0"}
YAML
run "$FOOTPRINT" images --no-config pod.yaml
expect_status_in 0 1
expect_stdout "an unrendered Helm template"
expect_stdout '" nginx:1.0"'
expect_no_stdout "must be lowercase"
run "$FOOTPRINT" audit --no-config pod.yaml -n ops --format json
expect_status_in 0 1
[ "$(json_get "$OUT" "sum(1 for f in d['findings'] if f['check'] == 'image-reference-invalid' and 'unrendered Helm template' in f['message'])")" = 1 ] ||
  fail "audit does not name the Helm template"
[ "$(json_get "$OUT" "sum(1 for f in d['findings'] if f['check'] == 'image-reference-invalid' and f['message'].startswith('\" nginx:1.0\"'))")" = 1 ] ||
  fail "audit does not quote the reference with a space"
