#!/usr/bin/env bash
# airgap --chart takes the packaged chart (helm package output), the file carried into the
# closed network; given the chart's folder, the error says so (issue 40, trial item N-C8).
source "$(dirname "$0")/common.inc"
chart=$ROOT/tests/charts/modal-operator
run "$FOOTPRINT" airgap --no-config "$ROOT/examples/inference-operator.yaml" --chart "$chart"
expect_status 2
expect_stderr "Is a directory"
expect_stderr "helm package $chart"
