#!/usr/bin/env bash
# .nan and .inf are YAML 1.1 floats that Go's encoding/json refuses ("json: unsupported value"),
# so kubectl cannot send the object: reported as a finding and in the sizes, never dropped.
source "$(dirname "$0")/common.inc"

cat >"$TMP/in.yaml" <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: quoted}
data: {ratio: ".nan"}
---
apiVersion: example.com/v1
kind: Tuning
metadata: {name: t}
spec:
  ratio: .nan
  ceiling: .inf
YAML
run "$FOOTPRINT" audit "$TMP/in.yaml" --format json
expect_status 0
[ "$(json_get "$OUT" "[f['object']['name'] for f in d['findings'] if f['check'] == 'object-not-encodable']")" = "['t']" ] ||
  fail "one object-not-encodable finding, for t: $(json_get "$OUT" "[f['check'] for f in d['findings']]")"
[ "$(json_get "$OUT" "[s['error'] for s in d['crds']['sizes'] if 'error' in s]")" = \
  "['line 10: \`.nan\` is not a number JSON can hold (json: unsupported value)']" ] ||
  fail "the sizes name the object and why: $(json_get "$OUT" "d['crds']['sizes']")"
run "$FOOTPRINT" audit "$TMP/in.yaml" --fail-on high
expect_status 1
expect_stdout "object-not-encodable"
echo "ok"
