#!/usr/bin/env bash
# Subcommands, help, version, typo suggestions and usage exit codes.
source "$(dirname "$0")/common.inc"

run "$FOOTPRINT" --version
expect_status 0
expect_stdout "footprint 0."

run "$FOOTPRINT" --help
expect_status 0
expect_stdout "audit"
expect_stdout "checks"
expect_stdout "Exit codes: 0 success, 1 a finding reached --fail-on, 2 usage or input error."

run "$FOOTPRINT"
expect_status 2

run "$FOOTPRINT" audti x.yaml
expect_status 2
expect_stderr "unknown command 'audti', did you mean 'audit'?"

run "$FOOTPRINT" frobnicate
expect_status 2
expect_stderr "unknown command 'frobnicate'"
! grep -q "did you mean" "$ERR" || fail "no suggestion expected for a far-off name"

run "$FOOTPRINT" audit --help
expect_status 0
expect_stdout "--fail-on"
expect_stdout "--format"

run "$FOOTPRINT" audit
expect_status 2
expect_stderr "footprint: error: no INPUT given"

run "$FOOTPRINT" audit --format yaml "$ROOT/examples/inference-operator.yaml"
expect_status 2

run "$FOOTPRINT" audit --no-such-flag "$ROOT/examples/inference-operator.yaml"
expect_status 2

run "$FOOTPRINT" checks
expect_status 0
for id in crd-missing namespace-on-cluster-scoped duplicate-object api-version-removed; do
  expect_stdout "$id"
done

run "$FOOTPRINT" checks --format json
expect_status 0
[ "$(json_get "$OUT" "len(d) == len({c['id'] for c in d})")" = True ] || fail "check IDs repeat"
