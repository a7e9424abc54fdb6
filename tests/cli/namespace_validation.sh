#!/usr/bin/env bash
# -n (and --release-namespace) must be a namespace name: a DNS label per RFC 1123, as the API
# server's ValidateNamespaceName (apimachinery/pkg/api/validation/generic.go, IsDNS1123Label).
source "$(dirname "$0")/common.inc"

in=$ROOT/examples/inference-operator.yaml
for bad in "" Bad_NS UPPER -lead trail- "$(printf 'a%.0s' {1..64})"; do
  for cmd in "audit $in -n" "images $in -n" "airgap $in -n" "fix rbac $in -n" \
    "images relocate --registry m.internal:5000 --plan $TMP/p.sh $in -n" "compare a=$in b=$in -n" \
    "who-can get pods $in -n" "can-i get pods --as x $in -n" "admission $in -n" \
    "admission $in --release-namespace"; do
    # shellcheck disable=SC2086
    run "$FOOTPRINT" $cmd "$bad"
    expect_status 2
    expect_stderr "footprint: error:"
    expect_stderr "\"$bad\" is not a namespace name"
  done
done
# 63 characters is the longest label; digits may lead.
run "$FOOTPRINT" audit "$in" -n "$(printf 'a%.0s' {1..63})"
expect_status 0
run "$FOOTPRINT" audit "$in" -n 1team-x
expect_status 0
echo "ok"
