#!/usr/bin/env bash
# The four report formats: text, json, markdown and SARIF 2.1.0 (validated against the schema).
source "$(dirname "$0")/common.inc"
example=$ROOT/examples/inference-operator.yaml

run "$FOOTPRINT" audit "$example" -n inference-system --format json
expect_status 0
[ "$(json_get "$OUT" "d['schemaVersion']")" = 1 ] || fail "schemaVersion"
[ "$(json_get "$OUT" "d['inventory']['webhooks']")" = 3 ] || fail "3 webhooks counted one by one"
[ "$(json_get "$OUT" "sorted(set().union(*d['findings']))")" = \
  "['affects', 'check', 'fingerprint', 'impact', 'message', 'object', 'remediation', 'severity', 'source', 'summary', 'suppressed']" ] ||
  fail "finding fields"
[ "$(json_get "$OUT" "[f['source']['helmTemplate'] for f in d['findings'] if f['check'] == 'crd-missing']")" = \
  "['inference-operator/templates/podmonitor.yaml']" ] || fail "helm template kept"

run "$FOOTPRINT" audit "$example" -n inference-system --format markdown
expect_status 0
expect_stdout "## footprint report"
expect_stdout "| KIND | CLUSTER | NAMESPACED | UNKNOWN SCOPE |"
expect_stdout "|---|---:|---:|---:|"
# PodMonitor's CRD is absent, so its scope, and hence its namespace, is unknown.
expect_stdout '. **medium** `crd-missing` PodMonitor `inference-operator`'

run "$FOOTPRINT" audit "$example" --format text --color always
expect_status 0
grep -q $'\e\[' "$OUT" || fail "--color always colours"
run "$FOOTPRINT" audit "$example" --format text
expect_status 0
! grep -q $'\e\[' "$OUT" || fail "no colour when stdout is not a terminal"

# SARIF: repo-relative URIs, line numbers, `results: []` even when nothing is found.
cd "$ROOT"
run "$FOOTPRINT" audit examples/inference-operator.yaml --format sarif -o "$TMP/report.sarif"
expect_status 0
[ "$(json_get "$TMP/report.sarif" "d['runs'][0]['results'][0]['locations'][0]['physicalLocation']['artifactLocation']['uri']")" = \
  "examples/inference-operator.yaml" ] || fail "relative artifact URI"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: clean}\n' >"$TMP/clean.yaml"
run "$FOOTPRINT" audit "$TMP/clean.yaml" --format sarif -o "$TMP/clean.sarif"
expect_status 0
[ "$(json_get "$TMP/clean.sarif" "d['runs'][0]['results']")" = "[]" ] || fail "results: []"

schema=$SHARED/schemas/sarif-schema-2.1.0.json
if [ -f "$schema" ]; then
  for f in "$TMP/report.sarif" "$TMP/clean.sarif"; do
    "$PYTHON" - "$schema" "$f" <<'PY' || fail "SARIF does not validate: $f"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft4Validator(schema).validate(json.load(open(sys.argv[2])))
PY
  done
else
  echo "note: $schema not found; SARIF schema validation skipped"
fi
