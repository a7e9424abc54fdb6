#!/usr/bin/env bash
# --fail-on: exit 1 when an unsuppressed finding is at least that severe; .footprint.yaml's
# failOn is the default; none means never.
source "$(dirname "$0")/common.inc"
example=$ROOT/examples/inference-operator.yaml  # its worst finding is medium (crd-missing)
cd "$TMP"

run "$FOOTPRINT" audit "$example"
expect_status 0
run "$FOOTPRINT" audit "$example" --fail-on medium
expect_status 1
run "$FOOTPRINT" audit "$example" --fail-on low
expect_status 1
run "$FOOTPRINT" audit "$example" --fail-on high
expect_status 0
run "$FOOTPRINT" audit "$example" --fail-on bogus
expect_status 2

printf 'failOn: medium\n' >.footprint.yaml
run "$FOOTPRINT" audit "$example"
expect_status 1
run "$FOOTPRINT" audit "$example" --fail-on none
expect_status 0
run "$FOOTPRINT" audit "$example" --no-config
expect_status 0

printf 'failOn: sometimes\n' >.footprint.yaml
run "$FOOTPRINT" audit "$example"
expect_status 2
expect_stderr ".footprint.yaml:1:9: failOn must be info, low, medium, high or critical"
