#!/usr/bin/env bash
# What footprint hands helm and what it passes back (the new-user trial, WR14, C6, N-C11):
# - a chart option's value is joined to its flag (`--set=VALUE`), so a value that starts with
#   `--` stays a value: pflag reads everything after the first '=' as the flag's value, and helm
#   refuses `--debug` as a --set expression, a values file or a Kubernetes version, instead of
#   switching on its debug output;
# - helm's closing advice "Use --debug flag to render out invalid YAML" names a helm flag that
#   footprint does not take, and is left out;
# - a hint inside helm's failure carries footprint's prefix, like every other hint.
source "$(dirname "$0")/common.inc"
need_helm
chart=$ROOT/tests/charts/modal-operator
for option in --set -f --set-string --kube-version; do
  run "$FOOTPRINT" audit "$chart" -n modal-system "$option" --debug
  expect_status 2
  ! grep -q "level=DEBUG" "$ERR" || fail "$option --debug switched on helm's debug output: $(cat "$ERR")"
done
# helm takes any word as an API version: "--debug" is one more, and debug output stays off.
run "$FOOTPRINT" audit "$chart" -n modal-system --api-versions --debug --format json
expect_status 0
! grep -q "level=DEBUG" "$ERR" || fail "--api-versions --debug switched on helm's debug output"
json_get "$OUT" "d['charts'][0]['command']" | grep -qF -- "--api-versions=--debug" ||
  fail "the value is joined to its flag: $(json_get "$OUT" "d['charts'][0]['command']")"

# The chart's own validation (tests/charts/modal-operator/templates/validation.yaml) fails.
run "$FOOTPRINT" audit "$chart" --set namespaceRestriction.enabled=true
expect_status 2
expect_stderr "VALIDATION ERROR"
! grep -qF "Use --debug flag" "$ERR" || fail "helm's --debug advice reached the user: $(cat "$ERR")"

run "$FOOTPRINT" audit "$ROOT/tests/charts/needs-dependency"
expect_status 2
expect_stderr "footprint: hint: the chart's dependencies are not vendored"
! grep -q "^hint:" "$ERR" || fail "a hint without footprint's prefix: $(cat "$ERR")"
