#!/usr/bin/env bash
# --release is checked as helm's ValidateReleaseName does (pkg/chartutil/validate_name.go): a DNS
# subdomain of at most 53 characters. A value that starts with '-' is named as the option's
# mistake, before helm runs.
source "$(dirname "$0")/common.inc"
chart=$ROOT/tests/charts/modal-operator

run "$FOOTPRINT" audit "$chart" --release=-rf
expect_status 2
expect_stderr '"-rf" is not a release name'
# 54 characters: one more than helm's limit.
long=$(printf 'a%.0s' $(seq 54))
run "$FOOTPRINT" audit "$chart" --release "$long"
expect_status 2
expect_stderr "is not a release name: helm requires at most 53 characters"
run "$FOOTPRINT" audit "$chart" --release Upper
expect_status 2
expect_stderr '"Upper" is not a release name'
