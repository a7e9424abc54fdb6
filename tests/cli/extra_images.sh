#!/usr/bin/env bash
# airgap --extra-images: one reference per line; anything else is exit 2 with file:line:col,
# never a guess such as docker.io/library/not:latest from "not a ref!!".
source "$(dirname "$0")/common.inc"

in=$ROOT/examples/inference-operator.yaml
printf '# runtime images\nnvcr.io/nvidia/runtime:1.0  # the worker\n\nnot a ref!!\n' >"$TMP/extra.txt"
run "$FOOTPRINT" airgap "$in" --extra-images "$TMP/extra.txt"
expect_status 2
expect_stderr "$TMP/extra.txt:4:1: \"not a ref!!\" is not one image reference"
printf 'nvcr.io/nvidia/runtime:1.0\nBad:Ref\n' >"$TMP/extra.txt"
run "$FOOTPRINT" airgap "$in" --extra-images "$TMP/extra.txt"
expect_status 2
expect_stderr "$TMP/extra.txt:2:1: Bad:Ref: repository name must be lowercase"
printf 'nvcr.io/nvidia/runtime:1.0  # the worker\n' >"$TMP/extra.txt"
run "$FOOTPRINT" airgap "$in" --extra-images "$TMP/extra.txt" --format json
expect_status 0
grep -q "nvcr.io/nvidia/runtime:1.0" "$OUT" || fail "the extra image is listed"
run "$FOOTPRINT" airgap "$in" --extra-images "$TMP/missing.txt"
expect_status 2
expect_stderr "missing.txt: cannot read"
echo "ok"
