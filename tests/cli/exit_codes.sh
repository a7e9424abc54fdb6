#!/usr/bin/env bash
# --fail-on: exit 1 when an unsuppressed finding is at least that severe; .footprint.yaml's
# failOn is the default; none means never.
source "$(dirname "$0")/common.inc"
cd "$TMP"
# By construction: one medium finding (crd-missing) and one low (namespace-on-cluster-scoped).
example=$TMP/bundle.yaml
cat >"$example" <<'YAML'
apiVersion: monitoring.coreos.com/v1
kind: PodMonitor
metadata: {name: pm}
---
apiVersion: v1
kind: Namespace
metadata: {name: team, namespace: team}
YAML

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
expect_stderr ".footprint.yaml:1:9: failOn must be info, low, medium, high, critical or none"
