#!/usr/bin/env bash
# A ConfigMap or Secret whose values total more than 1 MiB cannot be stored, however it is
# applied: ValidateConfigMap and ValidateSecret (kubernetes pkg/apis/core/validation/validation.go)
# reject totalSize > MaxSecretSize = 1 * 1024 * 1024 (pkg/apis/core/types.go). The inputs are
# generated: one byte over the limit, and exactly at it.
source "$(dirname "$0")/common.inc"

"$PYTHON" - "$TMP" <<'PY'
import sys
limit = 1024 * 1024
head = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s, namespace: app}\ndata:\n  a: "
for name, size in (("over", limit + 1), ("at", limit)):
    with open(f"{sys.argv[1]}/{name}.yaml", "w") as f:
        f.write(head % name + "x" * size + "\n")
PY
run "$FOOTPRINT" audit "$TMP/over.yaml" --format json
expect_status 0
[ "$(json_get "$OUT" "[(f['check'], f['severity']) for f in d['findings'] if f['check'] in ('config-data-too-large', 'crd-too-large-for-client-side-apply', 'crd-etcd-size-limit')]")" = \
  "[('config-data-too-large', 'high')]" ] || fail "over: $(json_get "$OUT" "[f['check'] for f in d['findings']]")"
json_get "$OUT" "[f['message'] for f in d['findings'] if f['check'] == 'config-data-too-large'][0]" |
  grep -q "1,048,577 bytes.*cannot be stored at all: neither server-side apply" || fail "message"
run "$FOOTPRINT" audit "$TMP/at.yaml" --format json
expect_status 0
[ "$(json_get "$OUT" "[f['check'] for f in d['findings'] if f['check'] == 'config-data-too-large']")" = "[]" ] ||
  fail "exactly 1 MiB is allowed"
# --fail-on high fails the run on it: the install would fail.
run "$FOOTPRINT" audit "$TMP/over.yaml" --fail-on high
expect_status 1
echo "ok"
