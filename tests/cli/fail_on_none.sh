#!/usr/bin/env bash
# failOn: none in .footprint.yaml means what --fail-on none means: never fail on findings.
source "$(dirname "$0")/common.inc"

in=$ROOT/examples/inference-operator.yaml
run "$FOOTPRINT" audit "$in" --fail-on high
expect_status 1
printf 'failOn: none\n' >"$TMP/none.yaml"
run "$FOOTPRINT" audit "$in" --config "$TMP/none.yaml"
expect_status 0
run "$FOOTPRINT" audit "$in" --fail-on none
expect_status 0
printf 'failOn: high\n' >"$TMP/high.yaml"
run "$FOOTPRINT" audit "$in" --config "$TMP/high.yaml"
expect_status 1
run "$FOOTPRINT" audit "$in" --config "$TMP/high.yaml" --fail-on none
expect_status 0
printf 'failOn: severe\n' >"$TMP/bad.yaml"
run "$FOOTPRINT" audit "$in" --config "$TMP/bad.yaml"
expect_status 2
expect_stderr "failOn must be info, low, medium, high, critical or none"
echo "ok"
