#!/usr/bin/env bash
# Two modes with one name would share one column, and one key in JSON: refused, before anything
# is loaded or rendered.
source "$(dirname "$0")/common.inc"

in=$ROOT/examples/inference-operator.yaml
run "$FOOTPRINT" compare a="$in" a="$in" --format json
expect_status 2
expect_stderr "two modes are named \"a\""
[ ! -s "$OUT" ] || fail "no comparison is printed"
run "$FOOTPRINT" compare a="$in" b="$in" --mode a --mode a
expect_status 2
run "$FOOTPRINT" compare a="$in" b="$in" --format json
expect_status 0
[ "$(json_get "$OUT" "list(d['rows'][0]['values'])")" = "['a', 'b']" ] || fail "both modes in JSON"
need_helm
run "$FOOTPRINT" compare "$ROOT/tests/charts/modal-operator" --mode x --mode "x:$ROOT/tests/charts/modal-operator/values.yaml"
expect_status 2
expect_stderr "two modes are named \"x\""
echo "ok"
